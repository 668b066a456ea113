"""A package from PyPI inside the sandbox: tabulate, baked into an image.

The pinned wheel (tabulate 0.9.0, checked by SHA-256) is downloaded with pip into the user
cache, verified again and baked into an image: our runtime pre-initialised with tabulate
imported, so a run pays nothing to import it. The sandbox runs the image (checked against its
manifest) and its policy allows `import tabulate`.

    .venv/bin/python examples/packages.py [tabulate-0.9.0-py3-none-any.whl]

The same from the command line:

    wasm-exec image build --wheel tabulate-0.9.0-py3-none-any.whl -o tabulate.wasm
    wasm-exec --image tabulate.wasm -c "from tabulate import tabulate; print(tabulate([[1]]))"
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

import sandbox_wasm as sw
from sandbox_wasm.image import build_image

WHEEL = "tabulate-0.9.0-py3-none-any.whl"
WHEEL_SHA256 = "024ca478df22e9340661486f85298cff5f6dcdba14f3813e8830015b9ed1948f"
CACHE = Path.home() / ".cache" / "sandbox-wasm"

REPORT = """
import statistics
from tabulate import tabulate

rows = [(n, n * n, n ** 3, statistics.mean(range(n + 1))) for n in range(1, 6)]
print(tabulate(rows, headers=["n", "n^2", "n^3", "mean(0..n)"], tablefmt="github"))
"""


def pinned_wheel() -> Path:
    """The wheel from the cache, else from PyPI with pip; refused if its hash differs."""
    target = CACHE / "wheels" / WHEEL
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "tabulate==0.9.0",
                        "--no-deps", "--only-binary=:all:", "-q", "-d", str(target.parent)],
                       check=True)
    if hashlib.sha256(target.read_bytes()).hexdigest() != WHEEL_SHA256:
        raise SystemExit(f"{target} does not have the pinned SHA-256 {WHEEL_SHA256}")
    return target


def main() -> int:
    wheel = Path(sys.argv[1]) if len(sys.argv) > 1 else pinned_wheel()
    with tempfile.TemporaryDirectory() as tmp:
        image = Path(tmp) / "tabulate.wasm"
        manifest = build_image([wheel], image)
        print(f"image {image.name}: {manifest.size:,} bytes, packages {manifest.packages}")
        with sw.Sandbox(image=image) as box:
            result = box.execute(REPORT)
    print(result.stdout, end="")
    if not result.ok:
        print(f"{result.status}: {result.error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
