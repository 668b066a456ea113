"""Attacks on images: wheels that are not pure Python or that try to write outside the
package tree, altered wheels, tampered or swapped images and manifests, altered build parts,
packages that shadow the standard library or try to unblock a blocked module, and hostile
import-time code (it runs once, inside the guest, at build time).

Every refusal must name the wheel (or the image) and why, before anything of it runs."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import stat
import struct
import tracemalloc
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from wheels import make_wheel, tabulate_wheel

import sandbox_wasm as sw
from sandbox_wasm._runtimes.artifacts import runtime_dir
from sandbox_wasm.image import (
    ImageBuildError,
    WheelError,
    build_image,
    manifest_path,
    read_wheel,
)

#: Most of its tests build an image (~40-100 s for the slowest).
pytestmark = pytest.mark.slow

PY = {"demo/__init__.py": "X = 1\n"}


def _raw_zip(directory: Path, name: str, members: dict[str, bytes],
             symlink: str | None = None) -> Path:
    """A wheel-named zip with exactly these members (no .dist-info added)."""
    path = directory / name
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about duplicate names
        with zipfile.ZipFile(path, "w") as archive:
            for member, data in members.items():
                archive.writestr(member.rstrip("#"), data)
            if symlink is not None:
                info = zipfile.ZipInfo(symlink)
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
                archive.writestr(info, "/etc/passwd")
    return path


def _dist(extra: dict[str, bytes]) -> dict[str, bytes]:
    meta = "demo-1.0.dist-info/"
    return {
        "demo/__init__.py": b"X = 1\n",
        meta + "METADATA": b"Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n",
        meta + "WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        **extra,
    }


def _record(path: str, data: bytes, size: int | None = None) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data) if size is None else size}"


def _not_a_zip(directory: Path) -> Path:
    path = directory / "demo-1.0-py3-none-any.whl"
    path.write_bytes(b"PK\x03\x04 not really a zip")
    return path


def _corrupt(directory: Path) -> Path:
    """A wheel whose module's compressed bytes are altered (its CRC no longer matches)."""
    path = make_wheel(directory, {"demo/__init__.py": "X = 1\n" * 200})
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("demo/__init__.py")
    data = bytearray(path.read_bytes())
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    data[start + info.compress_size // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    return path


Maker = Callable[[Path], Path]
REFUSED: list[tuple[str, Maker, str]] = [
    ("native-platform-tag",
     lambda d: make_wheel(d, PY, tag="cp313-cp313-manylinux_2_17_x86_64"),
     "not pure Python"),
    ("native-abi3-tag", lambda d: make_wheel(d, PY, tag="cp313-abi3-any"), "not pure Python"),
    ("platform-any-abi", lambda d: make_wheel(d, PY, tag="py3-none-linux_x86_64"),
     "not pure Python"),
    ("python2-only", lambda d: make_wheel(d, PY, tag="py2-none-any"), "not for Python 3.13"),
    ("newer-python", lambda d: make_wheel(d, PY, tag="py314-none-any"), "not for Python 3.13"),
    ("so-in-pure-wheel",
     lambda d: make_wheel(d, {**PY, "demo/_speedups.cpython-313-x86_64-linux-gnu.so": b"\x7fELF"}),
     "compiled extension"),
    ("pyd", lambda d: make_wheel(d, {**PY, "demo/_ext.pyd": b"MZ"}), "compiled extension"),
    ("dylib", lambda d: make_wheel(d, {**PY, "demo/libx.dylib": b"\xcf\xfa"}),
     "compiled extension"),
    ("versioned-so", lambda d: make_wheel(d, {**PY, "demo/libz.so.1": b"\x7fELF"}),
     "compiled extension"),
    ("not-purelib", lambda d: make_wheel(d, PY, purelib="false"), "Root-Is-Purelib is false"),
    ("wheel-tag-native",
     lambda d: _raw_zip(d, "demo-1.0-py3-none-any.whl", _dist({
         "demo-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\n"
                                     b"Tag: cp313-cp313-win_amd64\n"})),
     "not pure Python"),
    ("platlib-data", lambda d: make_wheel(d, {**PY, "demo-1.0.data/platlib/x.py": "pass\n"}),
     "platlib"),
    ("dotdot-member", lambda d: make_wheel(d, {**PY, "../../evil.py": "pass\n"}),
     "'..' in its name (path traversal)"),
    ("dotdot-inside", lambda d: make_wheel(d, {**PY, "demo/../../../tmp/evil.py": "pass\n"}),
     "'..' in its name (path traversal)"),
    ("dotdot-in-data", lambda d: make_wheel(d, {**PY, "demo-1.0.data/purelib/../../x.py": "1"}),
     "'..' in its name (path traversal)"),
    ("absolute-member", lambda d: make_wheel(d, {**PY, "/etc/cron.d/evil": "x"}),
     "absolute name"),
    ("drive-letter", lambda d: make_wheel(d, {**PY, "C:/Windows/evil.py": "x"}), "absolute name"),
    ("backslash", lambda d: make_wheel(d, {**PY, "demo\\..\\..\\evil.py": "x"}), "backslash"),
    ("symlink", lambda d: _raw_zip(d, "demo-1.0-py3-none-any.whl", _dist({}),
                                   symlink="demo/passwd"),
     "symbolic link"),
    ("duplicate-member",
     lambda d: _raw_zip(d, "demo-1.0-py3-none-any.whl",
                        _dist({"demo/__init__.py#": b"import os\n"})),
     "in the archive twice"),
    ("record-hash-mismatch",
     lambda d: make_wheel(d, PY, record_override={
         "demo/__init__.py": _record("demo/__init__.py", b"X = 2\n")}),
     "does not match its RECORD hash"),
    ("record-size-mismatch",
     lambda d: make_wheel(d, PY, record_override={
         "demo/__init__.py": _record("demo/__init__.py", b"X = 1\n", size=999)}),
     "does not match its RECORD size"),
    ("record-weak-hash",
     lambda d: make_wheel(d, PY, record_override={
         "demo/__init__.py": "demo/__init__.py,md5=AAAAAAAAAAAAAAAAAAAAAA,6"}),
     "no sha256 (or stronger) hash"),
    ("member-not-in-record", lambda d: make_wheel(d, PY, unlisted={"demo/extra.py": b"1\n"}),
     "not listed in its RECORD"),
    ("record-lists-missing",
     lambda d: make_wheel(d, PY, record_override={"ghost": "demo/ghost.py,sha256=AAAA,1"}),
     "not in the archive"),
    ("corrupt-zip", _corrupt, "corrupt"),
    ("not-a-zip", _not_a_zip, "not a valid zip"),
    ("bad-file-name", lambda d: make_wheel(d, PY, filename="demo.whl"), "file name"),
    ("no-wheel-metadata",
     lambda d: _raw_zip(d, "demo-1.0-py3-none-any.whl", {"demo/__init__.py": b"",
                                                         "demo-1.0.dist-info/METADATA": b""}),
     "has no demo-1.0.dist-info/WHEEL"),
    ("mismatched-dist-info",
     lambda d: make_wheel(d, PY, name="other", filename="demo-1.0-py3-none-any.whl"),
     "does not match the file name"),
]


@pytest.mark.parametrize(("make", "reason"), [pytest.param(m, r, id=i) for i, m, r in REFUSED])
def test_a_wheel_is_refused_naming_it_and_why(make: Maker, reason: str,
                                              tmp_path: Path) -> None:
    path = make(tmp_path)
    with pytest.raises(WheelError) as refused:
        read_wheel(path)
    assert refused.value.wheel == path.name
    assert str(refused.value).startswith(f"wheel {path.name} refused: ")
    assert reason in str(refused.value)
    # build_image refuses it the same way, before anything is written.
    output = tmp_path / "never.wasm"
    with pytest.raises(WheelError):
        build_image([path], output)
    assert not output.exists()


def test_a_wheel_without_record_is_accepted_but_says_so(tmp_path: Path) -> None:
    assert not read_wheel(make_wheel(tmp_path, PY, record=False)).record_checked


@pytest.mark.parametrize(
    ("files", "reason"),
    [
        pytest.param({"json/__init__.py": "x = 1\n"}, "shadow the standard library", id="json"),
        pytest.param({"os.py": "x = 1\n"}, "shadow the standard library", id="os"),
        pytest.param({"_sandbox_packages.py": "x = 1\n"}, "shadow", id="the-guest-finder"),
    ],
)
def test_a_package_shadowing_the_standard_library_is_refused(files: dict[str, str],
                                                            reason: str, tmp_path: Path) -> None:
    with pytest.raises(WheelError, match=reason):
        build_image([make_wheel(tmp_path, files, name="shadow")], tmp_path / "x.wasm")


def test_two_wheels_installing_one_module_are_refused(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = make_wheel(tmp_path / "a", {"clash/__init__.py": "A = 1\n"}, name="first")
    second = make_wheel(tmp_path / "b", {"clash.py": "B = 1\n"}, name="second")
    with pytest.raises(WheelError, match="module 'clash' is also installed by"):
        build_image([first, second], tmp_path / "x.wasm")
    with pytest.raises(WheelError, match="same distribution"):
        build_image([first, first], tmp_path / "x.wasm")


def test_preloading_a_module_no_wheel_has_is_refused(tmp_path: Path) -> None:
    with pytest.raises(sw.InvalidRequestError, match="no wheel installs"):
        build_image([make_wheel(tmp_path, PY)], tmp_path / "x.wasm", preload=["os"])


# -- images ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("image") / "tabulate.wasm"
    build_image([tabulate_wheel()], path)
    return path


def _copy(image: Path, directory: Path) -> Path:
    target = directory / image.name
    shutil.copyfile(image, target)
    shutil.copyfile(manifest_path(image), manifest_path(target))
    return target


def test_a_tampered_image_is_refused(image: Path, tmp_path: Path) -> None:
    copy = _copy(image, tmp_path)
    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0x01
    copy.write_bytes(bytes(data))
    with pytest.raises(sw.RuntimeIntegrityError, match="tampered or corrupt image"):
        sw.Sandbox(image=copy)
    with pytest.raises(sw.RuntimeIntegrityError):
        sw.execute("print(1)", image=copy)


def test_an_image_swapped_under_its_manifest_is_refused(image: Path, tmp_path: Path) -> None:
    copy = _copy(image, tmp_path)
    build_image([], tmp_path / "other.wasm")
    shutil.copyfile(tmp_path / "other.wasm", copy)  # a valid runtime, not this manifest's
    with pytest.raises(sw.RuntimeIntegrityError, match="tampered or corrupt"):
        sw.Sandbox(image=copy)


def _edit_manifest(copy: Path, change: Callable[[dict], None]) -> None:
    record = json.loads(manifest_path(copy).read_text())
    change(record)
    manifest_path(copy).write_text(json.dumps(record))


@pytest.mark.parametrize(
    ("change", "error", "reason"),
    [
        pytest.param(lambda m: m.update(packages=["evil", "tabulate"]), sw.RuntimeIntegrityError,
                     "not its wheels' own", id="packages-widened"),
        pytest.param(lambda m: (m["wheels"][0].update(top_level=["subprocess"]),
                                m.update(packages=["subprocess"])),
                     sw.RuntimeIntegrityError, "standard library", id="stdlib-package"),
        pytest.param(lambda m: m.update(packages=["__import__('os')"]),
                     sw.RuntimeIntegrityError, "not a valid image manifest", id="bad-name"),
        pytest.param(lambda m: m.update(guest_boot_sha256="0" * 64), sw.RuntimeIntegrityError,
                     "another version of the guest bootstrap", id="other-bootstrap"),
        pytest.param(lambda m: m.update(sha256="f" * 64), sw.RuntimeIntegrityError,
                     "tampered or corrupt", id="other-hash"),
        pytest.param(lambda m: m.update(extra="x"), sw.RuntimeIntegrityError,
                     "not a valid image manifest", id="unknown-field"),
        pytest.param(lambda m: m.pop("sha256"), sw.RuntimeIntegrityError,
                     "not a valid image manifest", id="no-hash"),
    ],
)
def test_a_tampered_manifest_is_refused(image: Path, tmp_path: Path, change, error,
                                        reason: str) -> None:
    copy = _copy(image, tmp_path)
    _edit_manifest(copy, change)
    with pytest.raises(error, match=reason):
        sw.Sandbox(image=copy)


def test_an_image_without_its_manifest_is_refused(image: Path, tmp_path: Path) -> None:
    copy = tmp_path / "bare.wasm"
    shutil.copyfile(image, copy)
    with pytest.raises(sw.RuntimeNotFoundError, match="has no manifest"):
        sw.Sandbox(image=copy)
    manifest_path(copy).write_text("{not json")
    with pytest.raises(sw.RuntimeIntegrityError, match="not a valid image manifest"):
        sw.Sandbox(image=copy)
    with pytest.raises(sw.RuntimeNotFoundError, match="image not found"):
        sw.Sandbox(image=tmp_path / "missing.wasm")


@pytest.fixture()
def runtime_copy(tmp_path: Path) -> Path:
    """A copy of the installed runtime directory's cpython313 (to alter its build parts)."""
    copy = tmp_path / "runtime"
    shutil.copytree(runtime_dir() / "cpython313", copy / "cpython313")
    return copy


def test_an_altered_build_part_is_refused(runtime_copy: Path, tmp_path: Path) -> None:
    finder = runtime_copy / "cpython313" / "image-base" / "stdlib_finder.py"
    finder.write_text(finder.read_text() + "\nimport os  # altered\n")
    with pytest.raises(sw.RuntimeIntegrityError, match="altered part"):
        build_image([make_wheel(tmp_path, PY)], tmp_path / "x.wasm",
                    runtime_directory=runtime_copy)


def test_missing_build_parts_are_named(runtime_copy: Path, tmp_path: Path) -> None:
    shutil.rmtree(runtime_copy / "cpython313" / "image-base")
    with pytest.raises(sw.RuntimeNotFoundError, match=r"scripts/setup\.sh"):
        build_image([make_wheel(tmp_path, PY)], tmp_path / "x.wasm",
                    runtime_directory=runtime_copy)


# -- import-time code ----------------------------------------------------------------------
HOSTILE = """\
import os, random, time
DRAWN = random.random()
CLOCK = time.time()
SEEN = {}
for path in ("/etc/passwd", "/root", "/proc/self/environ", "/"):
    try:
        SEEN[path] = sorted(os.listdir(path))[:3] if os.path.isdir(path) else open(path).read(9)
    except OSError as exc:
        SEEN[path] = type(exc).__name__
ENVIRON = dict(os.environ)
"""


@pytest.fixture(scope="module")
def hostile_image(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("hostile")
    hostile = make_wheel(directory, {"hostile/__init__.py": HOSTILE}, name="hostile")
    # A pure-Python package named like a module the policies block.
    requests = make_wheel(directory, {"requests/__init__.py": "GET = 'never'\n"},
                          name="requests", version="0.0.1")
    path = directory / "hostile.wasm"
    build_image([hostile, requests], path)
    return path


def test_import_time_code_saw_only_the_init_directory(hostile_image: Path) -> None:
    with sw.Sandbox(image=hostile_image, policy="report") as sandbox:
        result = sandbox.execute(
            "import hostile, os\nprint(hostile.SEEN)\nprint(hostile.ENVIRON)\n"
            "print(os.path.exists('/init'))")
    assert result.status == "succeeded", result.stderr
    seen, environ, init_left = result.stdout.splitlines()
    # The build run has one preopen, /init: nothing of the host is visible from it, and the
    # finished image keeps no trace of /init (its preopens are reset).
    assert "root:" not in seen and "FileNotFoundError" in seen
    assert environ == "{}"
    assert init_left == "False"


def test_random_is_reseeded_in_every_run_after_a_package_drew_from_it(hostile_image: Path
                                                                      ) -> None:
    with sw.Sandbox(image=hostile_image, policy="report") as sandbox:
        runs = [sandbox.execute("import random, hostile\nprint(random.random(), "
                                "random.getrandbits(64), hostile.DRAWN)").stdout.split()
                for _ in range(3)]
    assert len({run[0] for run in runs}) == 3
    assert len({run[1] for run in runs}) == 3
    # What the package drew at import is part of the image: the same in every run.
    assert len({run[2] for run in runs}) == 1


def test_an_image_package_does_not_unblock_a_blocked_module(hostile_image: Path) -> None:
    # Strict blocks `requests` by name: an image's package of that name stays blocked.
    # (Balanced blocks only interpreter internals, so there the package simply imports.)
    with sw.Sandbox(image=hostile_image, policy="strict") as sandbox:
        assert sandbox.policy.allowed_modules is not None
        assert "requests" in sandbox.policy.allowed_modules
        result = sandbox.execute("import requests\nprint(requests.GET)")
        assert result.status == "blocked" and result.stdout == ""
        assert result.error is not None
        assert "blocked module 'requests'" in result.error.message
        assert sandbox.execute("import hostile\nprint('ok')").stdout == "ok\n"


def test_import_time_failures_fail_the_build_with_the_guest_s_error(tmp_path: Path) -> None:
    broken = make_wheel(tmp_path, {"broken/__init__.py": "raise RuntimeError('no thanks')\n"},
                        name="broken")
    with pytest.raises(ImageBuildError, match="RuntimeError: no thanks"):
        build_image([broken], tmp_path / "x.wasm")
    native = make_wheel(tmp_path, {"needsc/__init__.py": "import _ctypes\n"}, name="needsc")
    with pytest.raises(ImageBuildError, match="No module named '_ctypes'"):
        build_image([native], tmp_path / "y.wasm")
    assert not (tmp_path / "x.wasm").exists() and not (tmp_path / "y.wasm").exists()


def test_import_time_code_that_never_ends_is_stopped(tmp_path: Path) -> None:
    spin = make_wheel(tmp_path, {"spin/__init__.py": "while True:\n    pass\n"}, name="spin")
    with pytest.raises(ImageBuildError, match="did not finish within 3 s"):
        build_image([spin], tmp_path / "x.wasm", timeout_s=3)


# -- reading wheels is bounded, whatever the archive claims ------------------------------
def _lying_wheel(directory: Path, inflated: int, claimed: int) -> Path:
    """A wheel whose member `demo/big.py` inflates to `inflated` zero bytes while the
    local header and the central directory both say `claimed` (written as it streams)."""
    path = make_wheel(directory, PY)
    with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        with archive.open("demo/big.py", "w", force_zip64=False) as member:
            zeros = bytes(2**20)
            for _ in range(inflated // len(zeros)):
                member.write(zeros)
        info = archive.getinfo("demo/big.py")
    data = bytearray(path.read_bytes())
    struct.pack_into("<I", data, info.header_offset + 22, claimed)  # local header
    patched = 0
    position = data.find(b"PK\x01\x02")  # the central directory's entries
    while position >= 0:
        name_length = struct.unpack_from("<H", data, position + 28)[0]
        if data[position + 46 : position + 46 + name_length] == b"demo/big.py":
            struct.pack_into("<I", data, position + 24, claimed)
            patched += 1
        position = data.find(b"PK\x01\x02", position + 4)
    assert patched == 1
    path.write_bytes(bytes(data))
    return path


def test_a_member_lying_about_its_size_is_refused_without_inflating_it(tmp_path: Path) -> None:
    # The red team's wheel: 300 MiB of deflated zeros, 0.3 MB on disk, said to be 100 bytes.
    path = _lying_wheel(tmp_path, 300 * 2**20, 100)
    assert path.stat().st_size < 2**20
    tracemalloc.start()
    try:
        with pytest.raises(WheelError, match=r"member 'demo/big\.py' is corrupt") as refused:
            read_wheel(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert refused.value.wheel == path.name and "\n" not in str(refused.value)
    assert peak < 16 * 2**20, peak  # read a chunk at a time, never the 300 MiB


def test_a_wheel_over_the_unpacked_bound_is_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sandbox_wasm._images import wheel as _wheel

    monkeypatch.setattr(_wheel, "MAX_UNPACKED_BYTES", 8 * 2**20)
    with pytest.raises(WheelError, match="unpacks to more than 8388608 bytes"):
        read_wheel(_lying_wheel(tmp_path, 64 * 2**20, 64 * 2**20))
    monkeypatch.setattr(_wheel, "MAX_WHEEL_BYTES", 2**16)
    big = make_wheel(tmp_path, {**PY, "demo/noise.bin": os.urandom(2**17)})
    with pytest.raises(WheelError, match="larger than 65536 bytes"):
        read_wheel(big)


def test_a_bzip2_member_is_refused(tmp_path: Path) -> None:
    path = make_wheel(tmp_path, PY)
    with zipfile.ZipFile(path, "a", zipfile.ZIP_BZIP2) as archive:
        archive.writestr("demo/packed.py", "X = 2\n" * 100)
    with pytest.raises(WheelError, match="compression method 12"):
        read_wheel(path)


@pytest.mark.parametrize("name", [
    pytest.param("demo/" + "m" * 300 + ".py", id="300-byte-part"),
    pytest.param("demo/" + "/".join(["p"] * 20) + "/x.py", id="20-deep"),
    pytest.param("demo/" + "/".join(["q" * 200] * 6) + "/x.py", id="1200-bytes"),
])
def test_a_member_name_the_tree_cannot_hold_is_a_wheel_error(name: str, tmp_path: Path) -> None:
    path = make_wheel(tmp_path, {**PY, name: "X = 1\n"})
    for attempt in (lambda: read_wheel(path), lambda: build_image([path], tmp_path / "x.wasm")):
        with pytest.raises(WheelError) as refused:
            attempt()
        message = str(refused.value)
        assert message.startswith(f"wheel {path.name} refused: member ") and "\n" not in message
        assert len(message) < 400
    assert not (tmp_path / "x.wasm").exists()


@pytest.mark.parametrize("files", [
    pytest.param({"tools/__init__.py": "def fetch(): return 'shadowed'\n"}, id="tools"),
    pytest.param({"tools.py": "X = 1\n"}, id="tools-module"),
    pytest.param({"_colorize/__init__.py": "X = 1\n"}, id="3.13-only-stdlib"),
    pytest.param({"_pyrepl.py": "X = 1\n"}, id="3.13-only-stdlib-module"),
    pytest.param({"_sandbox_tools/__init__.py": "X = 1\n"}, id="guest-prefix"),
])
def test_a_package_shadowing_the_guest_s_own_modules_is_refused(files: dict[str, str],
                                                                tmp_path: Path) -> None:
    path = make_wheel(tmp_path, files, name="shadow")
    with pytest.raises(WheelError, match="would shadow") as refused:
        build_image([path], tmp_path / "x.wasm")
    assert str(refused.value).startswith(f"wheel {path.name} refused: ")
    assert "\n" not in str(refused.value) and not (tmp_path / "x.wasm").exists()


def test_shadowing_is_judged_by_the_guest_s_standard_library() -> None:
    from sandbox_wasm._images.image import shadowed_name

    assert shadowed_name("_colorize") and shadowed_name("tools") and shadowed_name("json")
    # Gone from 3.13 (PEP 594): a backport wheel may bring it back.
    assert not shadowed_name("imghdr") and not shadowed_name("tabulate")


def test_a_manifest_listing_tools_is_refused(image: Path, tmp_path: Path) -> None:
    copy = _copy(image, tmp_path)
    _edit_manifest(copy, lambda m: (m["wheels"][0].update(top_level=["tools"]),
                                    m.update(packages=["tools"])))
    with pytest.raises(sw.RuntimeIntegrityError, match="standard library"):
        sw.Sandbox(image=copy)


# -- an image runs by the hash that was verified ---------------------------------------
def test_an_image_swapped_after_it_was_opened_never_runs(image: Path, tmp_path: Path) -> None:
    copy = _copy(image, tmp_path)
    other = tmp_path / "other" / "other.wasm"
    build_image([], other)  # a valid runtime without tabulate
    box = sw.Sandbox(image=copy)  # verified now
    shutil.copyfile(other, copy)  # swapped before its first run
    try:
        result = box.execute("import tabulate\nprint('genuine')")
    except sw.RuntimeIntegrityError as refused:
        assert "changed on disk since it was verified" in str(refused)
    else:  # compiled before (this process): it runs by the verified hash, the genuine one
        assert result.stdout == "genuine\n", (result.stdout, result.stderr)
    finally:
        box.close()


def test_a_swapped_file_is_never_compiled_under_the_verified_hash(
    image: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sandbox_wasm._host.engine import EngineHost

    monkeypatch.setenv("SANDBOX_WASM_CACHE_DIR", str(tmp_path / "cache"))
    copy = _copy(image, tmp_path)
    genuine = sw.image.verify_image(copy).sha256
    other = tmp_path / "other" / "other.wasm"
    build_image([], other)
    shutil.copyfile(other, copy)
    host = EngineHost()
    try:
        with pytest.raises(sw.RuntimeIntegrityError, match="changed on disk"):
            host.load(copy, genuine)
        # Nothing was cached under the genuine hash: a later process cannot pick the swap
        # up from the cache once the genuine file is back.
        assert not host._cache_path(genuine).exists()
        shutil.copyfile(image, copy)
        _, compiled, stack_top = host.load(copy, genuine)
        assert compiled and stack_top > 0
    finally:
        host.close()
    later = EngineHost()  # a new process, as far as the cache is concerned
    try:
        _, compiled, again = later.load(copy, genuine)
        assert not compiled and again == stack_top
    finally:
        later.close()


# -- the build's own memory is bounded -------------------------------------------------
def test_import_time_code_is_held_to_the_build_s_memory_cap(tmp_path: Path) -> None:
    hungry = make_wheel(tmp_path, {"hungry/__init__.py": "X = bytearray(300 * 2**20)\n"},
                        name="hungry")
    with pytest.raises(ImageBuildError, match="MemoryError"):
        build_image([hungry], tmp_path / "x.wasm")  # 256 MiB by default
    assert not (tmp_path / "x.wasm").exists()
    with pytest.raises(sw.InvalidRequestError, match="memory_mb"):
        build_image([hungry], tmp_path / "x.wasm", memory_mb=4096)
