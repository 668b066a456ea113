#!/usr/bin/env python3
"""Build the wheels a machine without a compiler installs: the package's own wheel
(`sandbox_wasm-<version>-py3-none-any.whl`, from the clone's tracked files) and the runtime
wheels (`sandbox_wasm_runtime-<version>-py3-none-any.whl`: our CPython 3.13 snapshot with
its image parts, and QuickJS-NG), packed from an installed runtime directory.

    .venv/bin/python scripts/build_wheels.py --out dist
    .venv/bin/python scripts/build_wheels.py --out dist --find-links ~/.cache/sandbox-wasm/wheels
    # elsewhere, offline, as any user:
    pip install --no-index --find-links dist sandbox-wasm-runtime

Both are reproducible: the runtime wheels byte for byte (`sandbox_wasm/_runtimes/wheel.py`),
the package's with fixed time stamps (SOURCE_DATE_EPOCH). `--find-links DIR` builds the
package wheel without the network (setuptools taken from DIR, as scripts/setup.sh downloads
it). Exit status 0 on success, 1 with a one-line reason.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sandbox_wasm._errors import SandboxError  # noqa: E402
from sandbox_wasm._runtimes.artifacts import runtime_dir  # noqa: E402
from sandbox_wasm._runtimes.wheel import RUNTIME_WHEELS, pack_wheel, wheels_to_pack  # noqa: E402

#: The time stamp of every file in the package wheel (1980-01-01, the earliest a zip holds).
SOURCE_DATE_EPOCH = "315532800"


def tracked_copy(dest: Path) -> Path:
    """The clone's tracked and unignored files, copied to `dest`: the wheel is built from
    what a clone has, and the build's build/ and egg-info land there, not in the clone."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, dest / name)
    return dest


def build_package_wheel(out: Path, find_links: Path | None) -> Path:
    """`pip wheel --no-deps` of the clone's tracked files into `out`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["SOURCE_DATE_EPOCH"] = SOURCE_DATE_EPOCH
    offline = ["--no-index", "--find-links", str(find_links)] if find_links else []
    with tempfile.TemporaryDirectory(prefix="sandbox-wasm-wheel-") as tmp:
        source = tracked_copy(Path(tmp) / "src")
        built = Path(tmp) / "dist"
        done = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
             "--disable-pip-version-check", *offline, "-w", str(built), str(source)],
            env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"build_wheels: error: pip wheel failed: "
                             f"{(done.stderr or done.stdout).strip()[-600:]}")
        (wheel,) = built.glob("sandbox_wasm-*.whl")
        out.mkdir(parents=True, exist_ok=True)
        target = out / wheel.name
        shutil.copyfile(wheel, target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="output directory")
    parser.add_argument("--runtime-dir", type=Path, default=None,
                        help="the installed runtime directory to pack (default: the "
                        "library's, `wasm-exec runtime path`)")
    parser.add_argument("--wheel", dest="wheels", action="append", choices=tuple(RUNTIME_WHEELS),
                        help="which runtime wheel to pack (repeatable; default: all)")
    parser.add_argument("--no-package", action="store_true",
                        help="pack the runtime wheels only")
    parser.add_argument("--find-links", type=Path, default=None, metavar="DIR",
                        help="build the package wheel offline, with setuptools from DIR")
    args = parser.parse_args(argv)
    built = []
    if not args.no_package:
        built.append(build_package_wheel(args.out, args.find_links))
    directory = args.runtime_dir or runtime_dir()
    try:
        for name in args.wheels or wheels_to_pack(directory):
            built.append(pack_wheel(directory, args.out, RUNTIME_WHEELS[name]))
    except SandboxError as exc:
        print(f"build_wheels: error: {exc}", file=sys.stderr)
        return 1
    for wheel in built:
        print(f"{wheel} ({wheel.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
