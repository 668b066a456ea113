#!/usr/bin/env bash
# Fetch the pinned runtimes into runtime/ and verify their SHA-256:
#   python.wasm  CPython 3.12.0 for WASI (vmware-labs webassembly-language-runtimes)
#   quickjs.wasm QuickJS-ng 0.11.0 for WASI
# and derive the fallback's runtimes from python.wasm when the build extra is installed.
# Our own CPython 3.13 is not built here: `wasm-exec runtime install` (scripts/setup.sh) does
# everything. The implementation is sandbox_wasm/_runtime_install.py (`wasm-exec runtime
# install --no-build`); PYTHON names an interpreter that has the package installed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PYTHON:-$here/.venv/bin/python}"
exec "$python" -m sandbox_wasm runtime install --no-build \
  --dir "${SANDBOX_WASM_RUNTIME_DIR:-$here/runtime}"
