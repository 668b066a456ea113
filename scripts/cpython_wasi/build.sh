#!/bin/sh
# Build our own CPython for WASI and its pre-initialised snapshot (see build.py for the
# stages, the cache layout and the pinned inputs). One command from a fresh clone:
#     scripts/cpython_wasi/build.sh
# Options are passed to build.py (--stage NAME, --list, --print-dir).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-}
if [ -z "$py" ]; then
    for cand in python3 /usr/bin/python3; do
        if command -v "$cand" >/dev/null 2>&1; then py=$cand; break; fi
    done
fi
if [ -z "$py" ]; then
    echo "cpython-wasi: error: no python3 found (apt-get install python3)" >&2
    exit 1
fi
exec "$py" "$here/build.py" "$@"
