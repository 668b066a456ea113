#!/usr/bin/env bash
# One-step set-up from a fresh clone: virtualenv in .venv, the package with its test, build,
# server and Ray extras, and the runtimes in runtime/: our own CPython 3.13 for WASI, lean and
# with the scientific stack (built from pinned registry inputs, no root: ~5.5 + ~19 minutes
# the first time on 2 quiet cores, then reused stage by stage from the cache outside the clone,
# ~/.cache/sandbox-wasm/cpython-wasi) and the pinned QuickJS-NG release (fetched, verified).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
python="${PYTHON_FOR_VENV:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test,build,server,ray]'
# The runtimes, by the one implementation an installed package uses too
# (sandbox_wasm/_runtimes/install.py).
# Also the data runtime (numpy, pandas, matplotlib, scipy and scikit-learn built in: ~19
# minutes more the first time, cold, on 2 quiet cores).
.venv/bin/wasm-exec runtime install --dir "${SANDBOX_WASM_RUNTIME_DIR:-$here/runtime}" \
  --runtime python-data
# The wheels an offline install of the package needs (its dependencies, and setuptools to
# build it), kept outside the clone: tests/runtime/test_wheels.py installs the package and runtime
# wheels into a fresh virtualenv with no network (pip --no-index --find-links). A failed
# download (no registry) leaves the cache as it was; that test then says what is missing.
wheels="${SANDBOX_WASM_WHEEL_CACHE:-$HOME/.cache/sandbox-wasm/wheels}"
mkdir -p "$wheels"
.venv/bin/python - "$wheels" <<'EOF' || echo "setup: could not download the offline wheels into $wheels" >&2
import subprocess, sys
from importlib.metadata import requires
base = [r for r in requires("sandbox-wasm") or [] if "extra ==" not in r]
subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                "--only-binary=:all:", "--dest", sys.argv[1], *base, "setuptools>=77"],
               check=True)
EOF
# Debian's headless Chromium for the gateway docs' browser test: pinned .debs from the Debian
# pool, unpacked into ~/.cache/sandbox-wasm/chromium (no root; the test fetches it too if absent).
.venv/bin/python scripts/headless_chromium.py >/dev/null \
  || echo "setup: could not fetch headless Chromium (scripts/headless_chromium.py)" >&2
# The gateway's Redis tests start a real redis-server (Debian package).
command -v redis-server >/dev/null || (
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server
)
