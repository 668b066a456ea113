#!/usr/bin/env bash
# One-step set-up from a fresh clone: virtualenv in .venv, the package with its test and
# build extras, and the pinned runtime (fetched, verified, derived artefacts built).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
python="${PYTHON_FOR_VENV:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test,build,server,ray]'
PYTHON="$here/.venv/bin/python" bash scripts/fetch_runtime.sh
# The gateway's Redis tests start a real redis-server (Debian package).
command -v redis-server >/dev/null || (
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server
)
