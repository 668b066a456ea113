"""Wheels for an image: read, verified and refused on the host before anything of them runs.

Only pure-Python wheels are accepted: tags `py3`-compatible, `none`, `any`; `Root-Is-Purelib:
true`; no compiled extension inside (`.so`, `.pyd`, `.dylib`, `.dll`), since the guest is a
WebAssembly interpreter that cannot load native code. A wheel is also refused when its zip is
corrupt (every member is read and its CRC checked), when a member's content does not match
the hash and size its RECORD lists (checked when the wheel has a RECORD, as wheels should),
when a member is not listed in it, and when a member name could land outside the package
tree (absolute, `..`, backslashes, drive letters, NUL, links), is longer or deeper than the
guest's tree holds, or is given twice. Every refusal is a `WheelError` naming the wheel and
why.

Reading is bounded whatever the archive claims: the file's size is checked before it is
read (once: the bytes hashed are the bytes unpacked), only stored and deflated members are
accepted, and each member is inflated in chunks while the actual bytes are counted against
MAX_UNPACKED_BYTES; the central directory's sizes are never trusted for an allocation.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import os
import re
import stat
import struct
import zipfile
import zlib
from dataclasses import dataclass, field
from email.parser import HeaderParser
from pathlib import Path

from .._errors import WheelError
from .._request import MAX_INPUT_DEPTH, MAX_NAME_BYTES

#: Bounds on what one wheel may hold (an image keeps it all in memory).
MAX_MEMBERS = 20_000
MAX_UNPACKED_BYTES = 128 * 2**20
#: The largest wheel file read (a zip's members take at least their stored bytes).
MAX_WHEEL_BYTES = MAX_UNPACKED_BYTES + 16 * 2**20
#: How much of a member is inflated at a time.
READ_CHUNK = 2**20
#: Member names are laid out as the guest's input files when the image compiles them, so
#: they keep the same rules (`_request.coerce_files`).
MAX_NAME_DEPTH = MAX_INPUT_DEPTH
MAX_NAME_PART_BYTES = MAX_NAME_BYTES
MAX_NAME_BYTES_IN_ALL = 1024
_COMPRESSIONS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
#: Files no WebAssembly guest can load: a wheel holding one is not pure Python.
NATIVE_SUFFIXES = (".so", ".pyd", ".dylib", ".dll")
_NATIVE_NAME = re.compile(r"\.so(\.[0-9]+)+$")
#: The newest CPython minor version a `py3N` tag may ask for (the guest is 3.13).
GUEST_PYTHON_MINOR = 13
_HASHES = {"sha256", "sha384", "sha512"}
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DRIVE = re.compile(r"[A-Za-z]:")


@dataclass(frozen=True)
class Wheel:
    """A verified pure-Python wheel: the files it installs (path -> content, relative to
    site-packages, its .dist-info included) and the top-level names it makes importable."""

    path: Path
    filename: str
    name: str
    version: str
    sha256: str
    files: dict[str, bytes] = field(repr=False)
    top_level: tuple[str, ...]
    #: Whether the wheel had a RECORD (and so every member's hash was checked).
    record_checked: bool


def _refuse(filename: str, why: str) -> WheelError:
    return WheelError(f"wheel {filename} refused: {why}", wheel=filename)


def _python_tag_ok(tag: str) -> bool:
    """`py3`, `py2.py3`, `py3N` with N <= the guest's minor version."""
    ok = False
    for part in tag.split("."):
        match = re.fullmatch(r"py([23])([0-9]*)", part)
        if match is None:
            return False
        major, minor = match.groups()
        if major == "3" and (not minor or int(minor) <= GUEST_PYTHON_MINOR):
            ok = True
    return ok


def _check_tags(filename: str, python: str, abi: str, platform: str) -> None:
    tag = f"{python}-{abi}-{platform}"
    if abi != "none" or platform != "any":
        raise _refuse(filename, f"tag {tag} is not pure Python (a native-extension wheel; "
                      "only py3-none-any wheels run in the WebAssembly guest)")
    if not _python_tag_ok(python):
        raise _refuse(filename, f"tag {tag} is not for Python 3.{GUEST_PYTHON_MINOR} "
                      "(only py3-none-any wheels are accepted)")


def _parse_filename(filename: str) -> tuple[str, str]:
    """(distribution, version) from `{dist}-{version}(-{build})?-{py}-{abi}-{plat}.whl`;
    the tags must be pure."""
    if not filename.endswith(".whl"):
        raise _refuse(filename, "the file name does not end in .whl")
    parts = filename[: -len(".whl")].split("-")
    if len(parts) not in (5, 6):
        raise _refuse(filename, "the file name is not {name}-{version}-{python}-{abi}-"
                      "{platform}.whl")
    _check_tags(filename, *parts[-3:])
    return parts[0], parts[1]


def _check_member_name(filename: str, name: str) -> None:
    """Refuse a member name that could land outside the tree it is unpacked into, or that
    the guest's tree (or a host directory) could not hold."""
    shown = name if len(name) <= 120 else name[:100] + "…"
    encoded = name.encode("utf-8", "surrogatepass")
    parts = name.rstrip("/").split("/")
    if (len(encoded) > MAX_NAME_BYTES_IN_ALL or len(parts) > MAX_NAME_DEPTH
            or any(len(part.encode("utf-8", "surrogatepass")) > MAX_NAME_PART_BYTES
                   for part in parts)):
        raise _refuse(filename, f"member {shown!r} has a name longer than "
                      f"{MAX_NAME_BYTES_IN_ALL} bytes, deeper than {MAX_NAME_DEPTH} parts "
                      f"or with a part longer than {MAX_NAME_PART_BYTES} bytes")
    if "\x00" in name or "\\" in name:
        raise _refuse(filename, f"member {name!r} has a NUL or a backslash in its name")
    if name.startswith("/") or _DRIVE.match(name):
        raise _refuse(filename, f"member {name!r} has an absolute name")
    parts = name.rstrip("/").split("/")
    if ".." in parts:
        raise _refuse(filename, f"member {name!r} has a '..' in its name (path traversal)")
    if any(part in ("", ".") for part in parts):
        raise _refuse(filename, f"member {name!r} has an empty or '.' part in its name")


def _is_native(name: str) -> bool:
    lowered = name.lower()
    return lowered.endswith(NATIVE_SUFFIXES) or bool(_NATIVE_NAME.search(lowered))


def _read_members(filename: str, archive: zipfile.ZipFile) -> dict[str, bytes]:
    """Every file member, read in full (zipfile checks each one's CRC and length)."""
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise _refuse(filename, f"{len(infos)} members, over the limit of {MAX_MEMBERS}")
    if sum(info.file_size for info in infos) > MAX_UNPACKED_BYTES:
        raise _refuse(filename, f"it unpacks to more than {MAX_UNPACKED_BYTES} bytes")
    members: dict[str, bytes] = {}
    unpacked = 0
    for info in infos:
        name = info.filename
        _check_member_name(filename, name)
        if stat.S_ISLNK(info.external_attr >> 16):
            raise _refuse(filename, f"member {name!r} is a symbolic link")
        if info.flag_bits & 0x1:
            raise _refuse(filename, f"member {name!r} is encrypted")
        if name.endswith("/"):
            continue
        if name in members:
            raise _refuse(filename, f"member {name!r} is in the archive twice")
        if _is_native(name):
            raise _refuse(filename, f"it holds the compiled extension {name!r} (native code "
                          "cannot run in the WebAssembly guest)")
        if info.compress_type not in _COMPRESSIONS:
            # bzip2 and lzma members inflate a whole compressed block at once, unbounded.
            raise _refuse(filename, f"member {name!r} uses compression method "
                          f"{info.compress_type} (wheels are stored or deflated)")
        members[name] = _read_member(filename, archive, info, MAX_UNPACKED_BYTES - unpacked)
        unpacked += len(members[name])
    return members


def _read_member(filename: str, archive: zipfile.ZipFile, info: zipfile.ZipInfo,
                 room: int) -> bytes:
    """A member's bytes, inflated a chunk at a time: never more than its declared size
    (zipfile stops there, and its CRC check refuses a member that is longer), and never
    more than `room`, however far the compressed data would inflate."""
    name = info.filename
    chunks: list[bytes] = []
    total = 0
    try:
        with archive.open(info) as member:
            while total <= room and (chunk := member.read(READ_CHUNK)):
                total += len(chunk)
                chunks.append(chunk)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError,
            NotImplementedError, zlib.error) as exc:
        raise _refuse(filename, f"member {name!r} is corrupt ({exc})") from None
    if total > room:
        raise _refuse(filename, f"it unpacks to more than {MAX_UNPACKED_BYTES} bytes")
    return b"".join(chunks)


def _dist_info(filename: str, members: dict[str, bytes], name: str, version: str) -> str:
    """The one .dist-info directory at the root, named after the wheel."""
    found = sorted({m.split("/", 1)[0] for m in members
                    if m.split("/", 1)[0].endswith(".dist-info") and "/" in m})
    if len(found) != 1:
        raise _refuse(filename, f"it has {len(found)} .dist-info directories (expected 1)")
    expected = f"{_normalise(name)}-{version}.dist-info".lower()
    dist_name, _, dist_version = found[0][: -len(".dist-info")].rpartition("-")
    if f"{_normalise(dist_name)}-{dist_version}.dist-info".lower() != expected:
        raise _refuse(filename, f"its metadata directory {found[0]} does not match the "
                      "file name")
    return found[0]


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _check_wheel_metadata(filename: str, members: dict[str, bytes], dist_info: str) -> None:
    data = members.get(f"{dist_info}/WHEEL")
    if data is None:
        raise _refuse(filename, f"it has no {dist_info}/WHEEL")
    headers = HeaderParser().parsestr(data.decode("utf-8", "replace"))
    wheel_version = (headers.get("Wheel-Version") or "").strip()
    if not wheel_version.startswith("1."):
        raise _refuse(filename, f"Wheel-Version {wheel_version or '(none)'} is not 1.x")
    purelib = (headers.get("Root-Is-Purelib") or "").strip().lower()
    if purelib != "true":
        raise _refuse(filename, f"Root-Is-Purelib is {purelib or '(missing)'}, not true (a "
                      "platform wheel)")
    tags = [tag.strip() for tag in headers.get_all("Tag") or ()]
    for tag in tags:
        pieces = tag.split("-")
        if len(pieces) != 3:
            raise _refuse(filename, f"its WHEEL lists the malformed tag {tag!r}")
        if pieces[1] != "none" or pieces[2] != "any":
            _check_tags(filename, *pieces)  # refuses: a platform tag is never accepted
    # A universal wheel lists a tag per Python (py2-none-any and py3-none-any): one that
    # fits the guest is enough, as pip decides.
    if tags and not any(_python_tag_ok(tag.split("-")[0]) for tag in tags):
        _check_tags(filename, *tags[0].split("-"))


def _check_record(filename: str, members: dict[str, bytes], dist_info: str) -> bool:
    """Check every member against RECORD (hash and size); False when there is none."""
    record_name = f"{dist_info}/RECORD"
    data = members.get(record_name)
    if data is None:
        return False
    unsigned = {record_name, f"{record_name}.jws", f"{record_name}.p7s"}
    listed: set[str] = set()
    try:
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    except (UnicodeDecodeError, csv.Error) as exc:
        raise _refuse(filename, f"its RECORD cannot be read ({exc})") from None
    for row in rows:
        if not row:
            continue
        if len(row) != 3:
            raise _refuse(filename, f"its RECORD has a malformed line {row!r}")
        path, digest, size = row
        if path in unsigned:
            continue
        _check_member_name(filename, path)
        if path not in members:
            raise _refuse(filename, f"its RECORD lists {path!r}, which is not in the archive")
        algorithm, _, expected = digest.partition("=")
        if algorithm not in _HASHES or not expected:
            raise _refuse(filename, f"its RECORD has no sha256 (or stronger) hash for {path!r}")
        actual = base64.urlsafe_b64encode(
            hashlib.new(algorithm, members[path]).digest()).rstrip(b"=").decode()
        if actual != expected.rstrip("="):
            raise _refuse(filename, f"member {path!r} does not match its RECORD hash")
        if size and size != str(len(members[path])):
            raise _refuse(filename, f"member {path!r} does not match its RECORD size")
        listed.add(path)
    unlisted = sorted(set(members) - listed - unsigned)
    if unlisted:
        raise _refuse(filename, f"member {unlisted[0]!r} is not listed in its RECORD")
    return True


def _installed_files(filename: str, members: dict[str, bytes], dist_info: str
                     ) -> dict[str, bytes]:
    """What the wheel installs into site-packages: the root and `.data/purelib`; its
    scripts, headers and data files are not importable and are left out."""
    data_dir = dist_info[: -len(".dist-info")] + ".data/"
    files: dict[str, bytes] = {}
    for name, content in members.items():
        if name.startswith(data_dir):
            kind, _, rest = name[len(data_dir):].partition("/")
            if kind == "platlib":
                raise _refuse(filename, f"it installs {name!r} into platlib (platform code)")
            if kind != "purelib" or not rest:
                continue
            name = rest
        elif name.endswith((".pyc", ".pyo")):
            continue  # bytecode is never trusted: every module is compiled from its source
        if name in files:
            raise _refuse(filename, f"it installs {name!r} twice")
        files[name] = content
    return files


def top_level_names(files: dict[str, bytes]) -> tuple[str, ...]:
    """The importable top-level names: every module (`x.py`) or package directory holding
    a module, outside the metadata, whose path parts are all identifiers."""
    names = set()
    for name in files:
        parts = name.split("/")
        if not name.endswith(".py") or parts[0].endswith(".dist-info"):
            continue
        parts[-1] = parts[-1][:-3]
        if all(_IDENTIFIER.fullmatch(part) for part in parts):
            names.add(parts[0])
    return tuple(sorted(names))


def read_wheel(path: Path | str) -> Wheel:
    """Read and verify a pure-Python wheel; raise WheelError naming it and why it was refused.

    Example:
        wheel = read_wheel("tabulate-0.9.0-py3-none-any.whl")
        print(wheel.top_level)  # ('tabulate',)
    """
    path = Path(path)
    filename = path.name
    if not path.is_file():
        raise _refuse(filename, f"there is no such file ({path})")
    name, version = _parse_filename(filename)
    try:
        # One read, bounded: the bytes hashed below are the bytes unpacked. (read(n)
        # allocates n bytes first: ask for what the file holds, not for the bound.)
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            raw = handle.read(min(size, MAX_WHEEL_BYTES) + 1)
    except OSError as exc:
        raise _refuse(filename, f"it cannot be read ({exc.strerror or exc})") from None
    if len(raw) > MAX_WHEEL_BYTES:
        raise _refuse(filename, f"the file is larger than {MAX_WHEEL_BYTES} bytes")
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
    # A crafted central directory fails in many ways (bad sizes, names, extra fields).
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, OSError,
            struct.error, NotImplementedError) as exc:
        raise _refuse(filename, f"it is not a valid zip archive ({exc})") from None
    with archive:
        members = _read_members(filename, archive)
    dist_info = _dist_info(filename, members, name, version)
    _check_wheel_metadata(filename, members, dist_info)
    record_checked = _check_record(filename, members, dist_info)
    files = _installed_files(filename, members, dist_info)
    return Wheel(
        path=path, filename=filename, name=name, version=version,
        sha256=hashlib.sha256(raw).hexdigest(), files=files,
        top_level=top_level_names(files), record_checked=record_checked,
    )
