"""`python -m sandbox_wasm ...`: the same command line as `wasm-exec`."""

from .cli import run

if __name__ == "__main__":
    run()
