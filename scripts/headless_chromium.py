#!/usr/bin/env python3
"""Debian's headless Chromium, without root, for the gateway's browser test
(tests/server/test_server_docs_browser.py): the `chromium-headless-shell` package of
bookworm-security and the shared libraries a machine of this project's kind lacks, each a
.deb from the Debian pool pinned by SHA-256 and size, unpacked (never installed) into
${SANDBOX_WASM_BROWSER_CACHE:-~/.cache/sandbox-wasm/chromium}/<key>/, the way the runtime
build fetches its toolchain (scripts/cpython_wasi/build.py: same download and unpack code).

    scripts/headless_chromium.py          # fetch and unpack (once), print the executable
    scripts/headless_chromium.py --env    # also the LD_LIBRARY_PATH to run it with

scripts/setup.sh runs it; the test's fixture calls `ensure()` so that a clone whose set-up
predates the browser fetches it too. Debian replaces a security update's .deb in its pool
when a newer one comes: a pin that no longer downloads is updated from
`apt-get download --print-uris chromium-headless-shell chromium-common` (same libraries, a
new version, hash and size), and the cached copy keeps working meanwhile.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "cpython_wasi"))
from build import debian_mirror, fetch_url, sha256_file, unpack_deb

#: {package: (archive, path in the archive, SHA-256, size)}. `debian` is the main archive,
#: `debian-security` the security archive (its pool is pool/updates/main). The libraries are
#: those `ldd` found missing on this project's machine image (installed-python.txt) for the
#: browser and, in turn, for each unpacked library; the rest of its dependencies (nss, gtk's
#: atk, X11 and mesa libraries, fontconfig with the DejaVu fonts) that image has.
DEBS: dict[str, tuple[str, str, str, int]] = {
    "chromium-headless-shell": (
        "debian-security", "pool/updates/main/c/chromium/"
        "chromium-headless-shell_156.0.8078.114-1~deb12u1_amd64.deb",
        "e3c3861dd139d8d73e08f165afbdcafeacca5a748304e1a83964b82eb3d047f6", 64_070_200),
    "chromium-common": (
        "debian-security", "pool/updates/main/c/chromium/"
        "chromium-common_156.0.8078.114-1~deb12u1_amd64.deb",
        "fe9713b01e8336384848ca9ff4c073d9a36113c71ebf6e1f1e54e8d294b675ae", 31_612_580),
    "libdouble-conversion3": (
        "debian", "pool/main/d/double-conversion/libdouble-conversion3_3.2.1-1_amd64.deb",
        "802b880ed900e4a8d54bab77b7551a7f3408b04891c3e5650fdc2368cc1fbc0a", 41_460),
    "libflac12": (
        "debian", "pool/main/f/flac/libflac12_1.4.2+ds-2_amd64.deb",
        "4d8431c274eef13ec9ee2c0bf988c34b4342367dec053b7f69a432525be5b1fe", 198_124),
    "libharfbuzz-subset0": (
        "debian", "pool/main/h/harfbuzz/libharfbuzz-subset0_6.0.0+dfsg-3_amd64.deb",
        "020de1eeba5fb56052a6ca71b259f8cbe3f6fce5038f4caca751c7e4867ca33f", 1_931_236),
    "libmp3lame0": (
        "debian", "pool/main/l/lame/libmp3lame0_3.100-6_amd64.deb",
        "b1292c749172e7623547ecf684da57d3ec6ca22109f08b11bbb9e6be6e6beb95", 364_932),
    "libasyncns0": (
        "debian", "pool/main/liba/libasyncns/libasyncns0_0.8-6+b3_amd64.deb",
        "cadaff99f4178b1f580331045621b363abaaefc994e78eecba1857774a3cead2", 12_920),
    "libogg0": (
        "debian", "pool/main/libo/libogg/libogg0_1.3.5-3_amd64.deb",
        "f67acb0477aed0354f411172e37af338f3ac6bd4f3766134a2cf5539884b5a28", 23_412),
    "libsndfile1": (
        "debian", "pool/main/libs/libsndfile/libsndfile1_1.2.0-1+deb12u1_amd64.deb",
        "02dc3f08fe8476e82e005f412e3b7289ff641180f33a9be8073f4bde61c85e8e", 196_540),
    "libvorbis0a": (
        "debian", "pool/main/libv/libvorbis/libvorbis0a_1.3.7-1_amd64.deb",
        "01c14f9d1109650077a4c5c337c285476a6932d4d448f5a190c2b845724dbf21", 93_028),
    "libvorbisenc2": (
        "debian", "pool/main/libv/libvorbis/libvorbisenc2_1.3.7-1_amd64.deb",
        "75dd4d6f904c7db82f5112e60d8efea9e81dfedf94e970c5da7af2b3d81643c0", 80_568),
    "libxnvctrl0": (
        "debian", "pool/main/libx/libxnvctrl/libxnvctrl0_525.85.05-3~deb12u1_amd64.deb",
        "6fc26e4b6069f4648692e0c225f580161e3b0c04e4bac1c616c8a418a9a9817d", 13_460),
    "libminizip1": (
        "debian", "pool/main/m/minizip/libminizip1_1.1-8+deb12u1_amd64.deb",
        "b2999b980cbb9e6dcaa2d5154c9d1f1b9d55f5a0ca8166699de7ab47afaf4a36", 20_136),
    "libmpg123-0": (
        "debian", "pool/main/m/mpg123/libmpg123-0_1.31.2-1+deb12u1_amd64.deb",
        "a10ad0d59995b859797a5f20d2833672051d0b2c7dab4c71f2e79258b2e3f631", 146_980),
    "libopenh264-7": (
        "debian", "pool/main/o/openh264/libopenh264-7_2.3.1+dfsg-3+deb12u2_amd64.deb",
        "d453c4d81b7b3ff14663da75471250a4894543ae5ab5e902e225aca56aec56e8", 393_072),
    "libopenjp2-7": (
        "debian", "pool/main/o/openjpeg2/libopenjp2-7_2.5.0-2+deb12u3_amd64.deb",
        "a127e2f1741d66bdddb6393a718e3cbec327d53f88c89b859b1f8d73f64cf635", 189_312),
    "libopus0": (
        "debian", "pool/main/o/opus/libopus0_1.3.1-3_amd64.deb",
        "c172e212f9039e741916aa8e12f3670d1e049dc0c16685325641288c2d83faa7", 195_192),
    "libpulse0": (
        "debian", "pool/main/p/pulseaudio/libpulse0_16.1+dfsg1-2+b1_amd64.deb",
        "7b2c5403cb726312219aad678becc6d6adcee1d8694fdffce0b6ec15ae010831", 273_952),
}
#: The browser inside the unpacked tree.
EXECUTABLE = "usr/lib/chromium/chromium-headless-shell"
#: Directories of the unpacked shared libraries, for LD_LIBRARY_PATH.
LIBRARY_DIRS = ("usr/lib/x86_64-linux-gnu", "usr/lib/x86_64-linux-gnu/pulseaudio")
DEFAULT_SECURITY_MIRROR = "http://deb.debian.org/debian-security"


class BrowserUnavailable(Exception):
    """The browser cannot be fetched or does not start here (the message says why)."""


@dataclass(frozen=True)
class HeadlessChromium:
    """An unpacked browser: run `executable` with `env` (its LD_LIBRARY_PATH)."""

    executable: Path
    library_path: str

    @property
    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["LD_LIBRARY_PATH"] = self.library_path + (
            ":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
        return env


def cache_dir() -> Path:
    base = os.environ.get("SANDBOX_WASM_BROWSER_CACHE")
    return Path(base) if base else Path.home() / ".cache" / "sandbox-wasm" / "chromium"


def pins_key() -> str:
    return hashlib.sha256(json.dumps(DEBS, sort_keys=True).encode()).hexdigest()[:16]


def security_mirror() -> str:
    """The security archive this machine's apt uses, else Debian's own."""
    for path in [Path("/etc/apt/sources.list"), *Path("/etc/apt/sources.list.d").glob("*")]:
        try:
            text = path.read_text()
        except OSError:
            continue
        for word in text.split():
            if "://" in word and word.rstrip("/").endswith("/debian-security"):
                return word.rstrip("/")
    return DEFAULT_SECURITY_MIRROR


def _fetch(name: str, downloads: Path) -> Path:
    archive, path, sha256, size = DEBS[name]
    dest = downloads / Path(path).name
    if dest.is_file() and dest.stat().st_size == size and sha256_file(dest) == sha256:
        return dest
    mirrors = ([security_mirror(), DEFAULT_SECURITY_MIRROR] if archive == "debian-security"
               else [debian_mirror(), "http://deb.debian.org/debian"])
    quoted = urllib.parse.quote(path)
    # Plain HTTP is fine: the SHA-256 pin is the check.
    if not any(fetch_url(f"{mirror}/{quoted}", dest, sha256)
               for mirror in dict.fromkeys(mirrors)):
        raise BrowserUnavailable(
            f"{name}: {path} cannot be downloaded with SHA-256 {sha256} from the Debian "
            f"{archive} archive (unreachable, or the pinned version was superseded: see "
            f"{__file__}'s docstring)")
    return dest


def ensure(*, quiet: bool = True) -> HeadlessChromium:
    """The browser, fetched and unpacked on first use (then reused from the cache), checked
    to start: BrowserUnavailable if it cannot be had or does not run."""
    home = cache_dir() / pins_key()
    root = home / "root"
    if not (home / "ready").is_file():
        downloads = cache_dir() / "downloads"
        downloads.mkdir(parents=True, exist_ok=True)
        debs = []
        for name in DEBS:
            if not quiet:
                print(f"headless_chromium: {name}", file=sys.stderr)
            debs.append(_fetch(name, downloads))
        home.mkdir(parents=True, exist_ok=True)
        # Unpacked beside and renamed into place: a concurrent fetch never sees half a tree.
        staging = Path(tempfile.mkdtemp(prefix="root.", dir=home))
        for deb in debs:
            unpack_deb(deb, staging)
        shutil.rmtree(root, ignore_errors=True)
        try:
            staging.rename(root)
        except OSError:  # another process put its copy there first
            shutil.rmtree(staging, ignore_errors=True)
        (home / "ready").write_text(pins_key() + "\n")
    browser = HeadlessChromium(
        executable=root / EXECUTABLE,
        library_path=":".join(str(root / d) for d in LIBRARY_DIRS),
    )
    try:
        probe = subprocess.run([str(browser.executable), "--version"], env=browser.env,
                               capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BrowserUnavailable(f"{browser.executable} does not start: {exc}") from None
    if probe.returncode != 0:
        raise BrowserUnavailable(
            f"{browser.executable} does not start (a shared library this machine lacks is "
            f"not in the pinned list?): {probe.stderr.strip()[-500:]}")
    return browser


def main() -> int:
    try:
        browser = ensure(quiet=False)
    except BrowserUnavailable as exc:
        print(f"headless_chromium: {exc}", file=sys.stderr)
        return 1
    print(browser.executable)
    if "--env" in sys.argv[1:]:
        print(f"LD_LIBRARY_PATH={browser.library_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
