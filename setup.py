"""Ships the runtime build recipe in the wheel: scripts/cpython_wasi/, copied byte for byte
into sandbox_wasm/_recipe/ so that an installed package's `wasm-exec runtime install` builds
with the same recipe hash (and so reuses the same build cache,
~/.cache/sandbox-wasm/cpython-wasi) as a checkout. build.py finds
the guest bootstrap two levels up (sandbox_wasm/_guest.py), which holds in both layouts.

Everything else is configured in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
RECIPE_FILES = [
    # The recipe (their hash names the build cache directory) and its installer.
    *(f"scripts/cpython_wasi/{name}" for name in (
        "build.sh", "build.py", "sandbox_entry.c", "stdlib_finder.py", "make_stdlib_blob.py",
        "install.py",
    )),
]


class BuildWithRecipe(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install runs from the checkout, which has scripts/
        target = Path(self.build_lib) / "sandbox_wasm" / "_recipe"
        target.mkdir(parents=True, exist_ok=True)
        for name in RECIPE_FILES:
            shutil.copyfile(HERE / name, target / Path(name).name)


setup(cmdclass={"build_py": BuildWithRecipe})
