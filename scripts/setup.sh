#!/usr/bin/env bash
# One-step set-up from a fresh clone: virtualenv in .venv, the package with its test and
# build extras, and the runtimes: our own CPython 3.13 for WASI (built from pinned registry
# inputs: ~9 minutes the first time on 2 cores, then reused from its cache outside the clone,
# ~/.cache/sandbox-wasm/cpython-wasi), and the pinned QuickJS and vmware-labs CPython 3.12
# files (fetched, verified; the 3.12 fallback's derived artefacts built).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
python="${PYTHON_FOR_VENV:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test,build,server,ray]'
# The runtimes, by the one implementation an installed package uses too
# (sandbox_wasm/_runtime_install.py).
.venv/bin/wasm-exec runtime install --dir "${SANDBOX_WASM_RUNTIME_DIR:-$here/runtime}"
# The gateway's Redis tests start a real redis-server (Debian package).
command -v redis-server >/dev/null || (
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server
)
