"""The guest's filesystem: a tree in host memory, never a host directory.

    /            read-only; the one preopened directory (descriptor 3)
    /input/      the caller's files, read-only
    /output/     what the guest writes here comes back in the result
    /tmp/        scratch: writable, then lost with the run (kept by a session)

The WASI filesystem calls (`_host/wasi_fs.py`) are answered from this tree, so no path the guest
names can reach the host: there is nothing else to resolve against. Every host allocation a
guest can cause is bounded (`FileCaps`): bytes per file and in all, nodes, open
descriptors, directory entries read per call, path length and depth. A write that a cap
refuses fails in the guest (EFBIG, ENOSPC, EMFILE) and is listed in `dropped`.

The tree's shape has one rule, kept by every operation that can make a path (creating a
file or directory, renaming one, a session's restore in `thaw`): each node's path from the
root is at most MAX_DEPTH parts and MAX_PATH_BYTES bytes, the most one lookup from the root
accepts. So whatever a guest builds, a session's checkpoint and snapshot of it restore, and
the names that reach the host (`outputs`, `--output-dir`) are within the same bounds.

The semantics follow POSIX as wasi-libc expects them; there are no links, and `..` never
leaves the root (ENOTCAPABLE, as WASI's own sandbox answers).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .._models import Limits

# WASI errno values.
EACCES, EBADF, EEXIST, EFBIG, EINVAL = 2, 8, 20, 22, 28
EISDIR, EMFILE, ENAMETOOLONG, ENOENT, ENOSPC = 31, 33, 37, 44, 51
ENOTDIR, ENOTEMPTY, ENOTSUP, EPERM, EROFS, ESPIPE, ENOTCAPABLE = 54, 55, 58, 63, 69, 70, 76
# File types.
FILETYPE_DIRECTORY, FILETYPE_REGULAR_FILE = 3, 4
# path_open flags.
OFLAG_CREAT, OFLAG_DIRECTORY, OFLAG_EXCL, OFLAG_TRUNC = 1, 2, 4, 8
FDFLAG_APPEND = 1
RIGHT_FD_READ, RIGHT_FD_WRITE = 1 << 1, 1 << 6
ALL_RIGHTS = (1 << 30) - 1
#: The preopened root's descriptor (0-2 are stdio).
ROOT_FD = 3
#: Opened files start here: descriptor 4 is the tool channel (`_wire.TOOLS_FD`), 5 the
#: network channel (`_wire.NETWORK_FD`).
FIRST_FILE_FD = 6
ROOT_NAMES = ("input", "output", "tmp")
#: The longest path (relative to the root, e.g. `output/a/b`) a lookup accepts, and so
#: the longest any node may have.
MAX_PATH_BYTES = 4096
MAX_NAME_BYTES = 255
#: The most parts a lookup accepts, and so the deepest any node may be (`output` is 1).
MAX_DEPTH = 48
#: Most entries one fd_readdir call lists (the guest asks again for more).
MAX_READDIR_ENTRIES = 1024


class FsError(Exception):
    """Ends a filesystem call with a WASI errno."""

    def __init__(self, errno: int) -> None:
        super().__init__(errno)
        self.errno = errno


@dataclass(frozen=True)
class FileCaps:
    """Bounds on what a guest may create in its filesystem (inputs do not count)."""

    max_file_bytes: int = 8 * 2**20
    max_total_bytes: int = 32 * 2**20
    max_nodes: int = 1_000
    max_open: int = 64
    #: The caller's files under /input (checked when a snapshot brings them back).
    max_input_bytes: int = 32 * 2**20
    max_input_files: int = 1_000

    @classmethod
    def of(cls, limits: Limits) -> FileCaps:
        """The caps a run (or session) under `limits` gets."""
        return cls(max_file_bytes=limits.max_file_bytes,
                   max_total_bytes=limits.max_written_bytes,
                   max_input_bytes=limits.max_input_bytes)


_inode_numbers = itertools.count(1)


@dataclass(eq=False)
class Node:
    """A file (`data` is not None) or a directory (`entries` is not None)."""

    writable: bool
    data: bytearray | None = None
    entries: dict[str, Node] | None = None
    parent: Node | None = None
    #: Its name in its parent's entries (kept by rename), for the path rule and `path_of`.
    name: str = ""
    ino: int = field(default_factory=lambda: next(_inode_numbers))
    mtime_ns: int = field(default_factory=time.time_ns)
    #: Bumped on every change of a file's bytes (outputs changed since a mark).
    version: int = 0

    @property
    def is_dir(self) -> bool:
        return self.entries is not None

    @property
    def children(self) -> dict[str, Node]:
        """A directory's entries (asked only of a node known to be a directory)."""
        assert self.entries is not None, "not a directory"
        return self.entries

    @property
    def filetype(self) -> int:
        return FILETYPE_DIRECTORY if self.is_dir else FILETYPE_REGULAR_FILE

    @property
    def size(self) -> int:
        return len(self.data) if self.data is not None else 0


@dataclass(eq=False)
class Handle:
    """An open descriptor."""

    node: Node
    readable: bool
    writable: bool
    append: bool = False
    offset: int = 0


class MemoryFS:
    """One guest's filesystem tree and descriptor table."""

    def __init__(self, inputs: Mapping[str, bytes] | None = None,
                 caps: FileCaps | None = None) -> None:
        self.caps = caps or FileCaps()
        self.root = Node(writable=False, entries={})
        self.root.parent = self.root
        for name in ROOT_NAMES:
            self.root.children[name] = Node(
                writable=name != "input", entries={}, parent=self.root, name=name)
        self.handles: dict[int, Handle] = {ROOT_FD: Handle(self.root, True, False)}
        self.created_bytes = 0
        self.created_nodes = 0
        #: ino -> (version, bytes) of the files at the last `freeze`, to share unchanged bytes.
        self.frozen: dict[int, tuple[int, bytes]] = {}
        #: Bumped by every method that may change the tree or its descriptors (whether it
        #: does or not: reads move offsets), for `freeze`.
        self.generation = 0
        #: The last `freeze`, and the generation it was taken at.
        self.frozen_state: tuple[int, FsState] | None = None
        #: What a cap refused, in the guest's words (path and reason), first ones only.
        self.dropped: list[str] = []
        for name, data in (inputs or {}).items():
            self.add_input(name, data)

    # -- the caller's side ---------------------------------------------------------------
    def add_input(self, name: str, data: bytes) -> None:
        """Put (or replace) `/input/<name>`; `name` must already be valid (`files`).
        Raises ValueError when the name runs through a file or names a directory."""
        self.generation += 1
        directory = self._dir("input")
        parts = name.split("/")
        for part in parts[:-1]:
            child = directory.children.get(part)
            if child is None:
                child = Node(writable=False, entries={}, parent=directory, name=part)
                directory.children[part] = child
            elif not child.is_dir:
                raise ValueError(f"input {name!r} would be under the file {part!r}")
            directory = child
        existing = directory.children.get(parts[-1])
        if existing is not None and existing.is_dir:
            raise ValueError(f"input {name!r} is a directory of other inputs")
        directory.children[parts[-1]] = Node(
            writable=False, data=bytearray(data), parent=directory, name=parts[-1])

    def input_sizes(self) -> dict[str, int]:
        """The files under /input (path relative to it -> size)."""
        return {path: node.size for path, node in self._walk(self._dir("input"), "")}

    def outputs(self, since: Mapping[int, int] | None = None) -> dict[str, bytes]:
        """The files under /output (path relative to it -> bytes); with `since` (a `mark()`),
        only those created or changed after it."""
        output = self._dir("output")
        if not output.entries:
            return {}
        found: dict[str, bytes] = {}
        for path, node in self._walk(output, ""):
            if since is None or since.get(node.ino) != node.version:
                found[path] = bytes(node.data or b"")
        return dict(sorted(found.items()))

    def mark(self) -> dict[int, int]:
        """The versions of /output's files now, for `outputs(since=...)`."""
        output = self._dir("output")
        if not output.entries:
            return {}
        return {node.ino: node.version for _, node in self._walk(output, "")}

    def _dir(self, name: str) -> Node:
        node = self.root.children[name]
        assert node.entries is not None
        return node

    def _walk(self, directory: Node, prefix: str) -> Iterator[tuple[str, Node]]:
        # Iterative: a guest can nest directories as deep as its node cap allows.
        pending = [(prefix, directory)]
        while pending:
            base, current = pending.pop()
            for name, node in sorted((current.entries or {}).items(), reverse=True):
                if node.is_dir:
                    pending.append((f"{base}{name}/", node))
                else:
                    yield base + name, node

    def _drop(self, node: Node, reason: str) -> None:
        if len(self.dropped) < 20:
            self.dropped.append(f"{self.path_of(node)}: {reason}")

    def path_of(self, node: Node) -> str:
        parts: list[str] = []
        while node.parent is not None and node is not self.root:
            parts.append(node.name)
            node = node.parent
        return "/" + "/".join(reversed(parts))

    def _extent(self, node: Node) -> tuple[int, int]:
        """(parts, bytes) of `node`'s path relative to the root (`output/a`: 2, 8)."""
        depth = length = 0
        while node is not self.root and node.parent is not None:
            depth += 1
            length += len(node.name.encode()) + (depth > 1)
            node = node.parent
        return depth, length

    def _check_shape(self, parent: Node, name: str, below: tuple[int, int] = (0, 0)) -> None:
        """ENAMETOOLONG (what a lookup of so long a path answers) unless `name` under
        `parent`, with a subtree reaching `below` (parts, bytes) under it, keeps every
        path within MAX_DEPTH parts and MAX_PATH_BYTES bytes."""
        depth, length = self._extent(parent)
        depth += 1 + below[0]
        length += len(name.encode()) + (length > 0) + below[1]
        if depth > MAX_DEPTH or length > MAX_PATH_BYTES:
            self._drop(parent, f"{name!r} refused: a path would be over {MAX_DEPTH} parts or "
                       f"{MAX_PATH_BYTES} bytes (ENAMETOOLONG)")
            raise FsError(ENAMETOOLONG)

    # -- descriptors ---------------------------------------------------------------------
    def handle(self, fd: int) -> Handle:
        handle = self.handles.get(fd)
        if handle is None:
            raise FsError(EBADF)
        return handle

    def _new_fd(self, handle: Handle) -> int:
        if len(self.handles) > self.caps.max_open:
            raise FsError(EMFILE)
        fd = FIRST_FILE_FD
        while fd in self.handles:
            fd += 1
        self.handles[fd] = handle
        return fd

    def close(self, fd: int) -> None:
        self.generation += 1
        node = self.handle(fd).node
        del self.handles[fd]
        if node.parent is None and not any(h.node is node for h in self.handles.values()):
            self._forget(node)  # removed while open: its room comes back now

    # -- paths ---------------------------------------------------------------------------
    def _lookup(self, dirfd: int, path: bytes) -> tuple[Node, str, bool]:
        """(parent directory, last name, trailing slash) of `path` relative to `dirfd`."""
        base = self.handle(dirfd).node
        if not base.is_dir:
            raise FsError(ENOTDIR)
        if len(path) > MAX_PATH_BYTES:
            raise FsError(ENAMETOOLONG)
        if b"\x00" in path:
            raise FsError(EINVAL)
        try:
            text = path.decode("utf-8")
        except UnicodeDecodeError:
            raise FsError(EINVAL) from None
        if text.startswith("/"):
            raise FsError(ENOTCAPABLE)  # wasi-libc strips the preopen's prefix first
        parts = [part for part in text.split("/") if part not in ("", ".")]
        trailing = text.endswith("/") or text in ("", ".")
        if len(parts) > MAX_DEPTH:
            raise FsError(ENAMETOOLONG)
        node = base
        for part in parts[:-1]:
            node = self._step(node, part)
        if not parts:
            return node, ".", True
        last = parts[-1]
        if len(last.encode()) > MAX_NAME_BYTES:
            raise FsError(ENAMETOOLONG)
        return node, last, trailing

    def _step(self, directory: Node, name: str) -> Node:
        if name == "..":
            if directory is self.root:
                raise FsError(ENOTCAPABLE)
            assert directory.parent is not None
            return directory.parent
        if len(name.encode()) > MAX_NAME_BYTES:
            raise FsError(ENAMETOOLONG)
        child = (directory.entries or {}).get(name)
        if child is None:
            raise FsError(ENOENT)
        if not child.is_dir:
            raise FsError(ENOTDIR)
        return child

    def _resolve(self, dirfd: int, path: bytes) -> Node:
        parent, name, trailing = self._lookup(dirfd, path)
        node = self._child(parent, name)
        if trailing and not node.is_dir:
            raise FsError(ENOTDIR)
        return node

    def _child(self, parent: Node, name: str) -> Node:
        if name == ".":
            return parent
        if name == "..":
            return self._step(parent, "..")
        child = (parent.entries or {}).get(name)
        if child is None:
            raise FsError(ENOENT)
        return child

    def _create(self, parent: Node, name: str, *, directory: bool) -> Node:
        if not parent.writable:
            raise FsError(EROFS)
        if name in (".", ".."):
            raise FsError(EEXIST)
        # From a descriptor of a deep directory, a short relative path could reach past
        # what a lookup from the root can name: the rule is on the whole path.
        self._check_shape(parent, name)
        if self.created_nodes >= self.caps.max_nodes:
            self._drop(parent, f"creating {name!r} refused: over the cap of "
                       f"{self.caps.max_nodes} files and directories (ENOSPC)")
            raise FsError(ENOSPC)
        node = Node(writable=True, parent=parent, name=name,
                    entries={} if directory else None, data=None if directory else bytearray())
        parent.children[name] = node
        parent.mtime_ns = time.time_ns()
        self.created_nodes += 1
        return node

    # -- the WASI operations ---------------------------------------------------------------
    def open(self, dirfd: int, path: bytes, oflags: int, rights: int, fdflags: int) -> int:
        self.generation += 1
        parent, name, trailing = self._lookup(dirfd, path)
        readable = bool(rights & RIGHT_FD_READ)
        writable = bool(rights & RIGHT_FD_WRITE) or bool(oflags & OFLAG_TRUNC)
        try:
            node = self._child(parent, name)
            if oflags & OFLAG_CREAT and oflags & OFLAG_EXCL:
                raise FsError(EEXIST)
        except FsError as error:
            if error.errno != ENOENT or not oflags & OFLAG_CREAT or trailing:
                raise
            node = self._create(parent, name, directory=False)
        if oflags & OFLAG_DIRECTORY and not node.is_dir:
            raise FsError(ENOTDIR)
        if node.is_dir and (writable or oflags & OFLAG_TRUNC):
            raise FsError(EISDIR)
        if writable and not node.writable:
            raise FsError(EROFS if not parent.writable else EACCES)
        if oflags & OFLAG_TRUNC and node.data:
            self._resize(node, 0)
        return self._new_fd(Handle(node, readable or node.is_dir, writable,
                                   append=bool(fdflags & FDFLAG_APPEND)))

    def read(self, fd: int, length: int, offset: int | None = None) -> bytes:
        self.generation += 1
        handle = self.handle(fd)
        if handle.node.is_dir:
            raise FsError(EISDIR)
        if not handle.readable:
            raise FsError(EBADF)
        start = handle.offset if offset is None else offset
        data = handle.node.data or bytearray()
        chunk = bytes(data[start : start + max(length, 0)])
        if offset is None:
            handle.offset = start + len(chunk)
        return chunk

    def check_write(self, fd: int, length: int, offset: int | None = None) -> None:
        """Raise what `write` of `length` bytes would raise for a cap, before the bytes are
        copied out of the guest."""
        _, node, start = self._write_target(fd, offset)
        self._check_room(node, start + length)

    def write(self, fd: int, chunk: bytes, offset: int | None = None) -> int:
        self.generation += 1
        handle, node, start = self._write_target(fd, offset)
        assert node.data is not None
        end = start + len(chunk)
        if end > len(node.data):
            self._resize(node, end)
        node.data[start:end] = chunk
        node.version += 1
        node.mtime_ns = time.time_ns()
        if offset is None:
            handle.offset = end
        return len(chunk)

    def _write_target(self, fd: int, offset: int | None) -> tuple[Handle, Node, int]:
        """The handle, its file and where a write at `offset` (None: the handle's position,
        or the end in append mode) lands."""
        handle = self.handle(fd)
        node = handle.node
        if node.is_dir:
            raise FsError(EISDIR)
        if not handle.writable:
            raise FsError(EBADF)
        if offset is not None:
            return handle, node, offset
        return handle, node, node.size if handle.append else handle.offset

    def _check_room(self, node: Node, size: int) -> None:
        """EFBIG past the per-file cap, ENOSPC past the total one (and say so)."""
        if size > self.caps.max_file_bytes:
            self._drop(node, f"a write past the per-file cap of {self.caps.max_file_bytes} "
                       "bytes was refused (EFBIG)")
            raise FsError(EFBIG)
        growth = size - node.size
        if growth > 0 and self.created_bytes + growth > self.caps.max_total_bytes:
            self._drop(node, f"a write past the total cap of {self.caps.max_total_bytes} "
                       "bytes was refused (ENOSPC)")
            raise FsError(ENOSPC)

    def _resize(self, node: Node, size: int) -> None:
        assert node.data is not None
        self._check_room(node, size)
        growth = size - len(node.data)
        if growth > 0:
            node.data.extend(bytes(growth))
        else:
            del node.data[size:]
        self.created_bytes += growth
        node.version += 1
        node.mtime_ns = time.time_ns()

    def seek(self, fd: int, delta: int, whence: int) -> int:
        self.generation += 1
        handle = self.handle(fd)
        if handle.node.is_dir:
            raise FsError(EISDIR)
        base = {0: 0, 1: handle.offset, 2: handle.node.size}.get(whence)
        if base is None or base + delta < 0:
            raise FsError(EINVAL)
        handle.offset = base + delta
        return handle.offset

    def set_size(self, fd: int, size: int) -> None:
        self.generation += 1
        handle = self.handle(fd)
        if handle.node.is_dir:
            raise FsError(EISDIR)
        if not handle.writable:
            raise FsError(EBADF)
        if size < 0:
            raise FsError(EINVAL)
        self._resize(handle.node, size)

    def set_append(self, fd: int, append: bool) -> None:
        self.generation += 1
        self.handle(fd).append = append

    def stat(self, dirfd: int, path: bytes) -> Node:
        return self._resolve(dirfd, path)

    def readdir(self, fd: int, cookie: int) -> list[tuple[int, str, Node]]:
        """(next cookie, name, node) of the directory's entries from `cookie` on: "." and
        "..", then the names in sorted order."""
        node = self.handle(fd).node
        if not node.is_dir:
            raise FsError(ENOTDIR)
        assert node.parent is not None
        listing = [(".", node), ("..", node.parent), *sorted((node.entries or {}).items())]
        window = listing[cookie : cookie + MAX_READDIR_ENTRIES] if cookie >= 0 else []
        return [(cookie + i + 1, name, child) for i, (name, child) in enumerate(window)]

    def mkdir(self, dirfd: int, path: bytes) -> None:
        self.generation += 1
        parent, name, _ = self._lookup(dirfd, path)
        if name in (parent.entries or {}) or name in (".", ".."):
            raise FsError(EEXIST)
        self._create(parent, name, directory=True)

    def remove(self, dirfd: int, path: bytes, *, directory: bool) -> None:
        self.generation += 1
        parent, name, trailing = self._lookup(dirfd, path)
        node = self._child(parent, name)
        if name in (".", "..") or node is self.root:
            raise FsError(EINVAL if name == "." else ENOTEMPTY)
        if directory and not node.is_dir:
            raise FsError(ENOTDIR)
        if not directory and (node.is_dir or trailing):
            raise FsError(EISDIR if node.is_dir else ENOTDIR)
        if not parent.writable or not node.writable:
            raise FsError(EROFS if not parent.writable else EPERM)
        if node.is_dir and node.entries:
            raise FsError(ENOTEMPTY)
        self._detach(parent, name, node)

    def _detach(self, parent: Node, name: str, node: Node) -> None:
        del parent.children[name]
        parent.mtime_ns = time.time_ns()
        node.parent = None
        if not any(handle.node is node for handle in self.handles.values()):
            self._forget(node)

    def _forget(self, node: Node) -> None:
        """Give back the caps' room a node held (once no descriptor can reach it)."""
        self.created_nodes -= 1
        self.created_bytes -= node.size

    def rename(self, old_fd: int, old_path: bytes, new_fd: int, new_path: bytes) -> None:
        self.generation += 1
        old_parent, old_name, _ = self._lookup(old_fd, old_path)
        node = self._child(old_parent, old_name)
        new_parent, new_name, _ = self._lookup(new_fd, new_path)
        if old_name in (".", "..") or new_name in (".", ".."):
            raise FsError(EINVAL)
        if not old_parent.writable or not new_parent.writable or not node.writable:
            raise FsError(EROFS)
        ancestor = new_parent
        while ancestor is not self.root:
            if ancestor is node:
                raise FsError(EINVAL)  # a directory into itself
            assert ancestor.parent is not None
            ancestor = ancestor.parent
        target = (new_parent.entries or {}).get(new_name)
        if target is node:
            return
        # A rename makes a path for every node of the moved subtree: the same rule as
        # creating them (two trees within the bounds, one renamed into the other, are not).
        self._check_shape(new_parent, new_name, _subtree_extent(node))
        if target is not None:
            if target.is_dir != node.is_dir:
                raise FsError(EISDIR if target.is_dir else ENOTDIR)
            if target.is_dir and target.entries:
                raise FsError(ENOTEMPTY)
            self._detach(new_parent, new_name, target)
        del old_parent.children[old_name]
        new_parent.children[new_name] = node
        node.parent = new_parent
        node.name = new_name
        node.version += 1


def _subtree_extent(node: Node) -> tuple[int, int]:
    """The most (parts, bytes) a path below `node` adds to its own (0, 0 for a file).
    Bounded work: a writable subtree holds at most the node cap's nodes."""
    deepest = longest = 0
    pending = [(node, 0, 0)]
    while pending:
        current, depth, length = pending.pop()
        deepest, longest = max(deepest, depth), max(longest, length)
        for name, child in (current.entries or {}).items():
            pending.append((child, depth + 1, length + 1 + len(name.encode())))
    return deepest, longest


@dataclass(frozen=True)
class FsState:
    """A tree and its descriptors as plain data: what a session's checkpoint and snapshot
    keep. `nodes` are (path, is_dir, writable, data) in creation order (parents first);
    `handles` are (fd, path, readable, writable, append, offset)."""

    nodes: tuple[tuple[str, bool, bool, bytes], ...]
    handles: tuple[tuple[int, str, bool, bool, bool, int], ...]

    @property
    def stored_bytes(self) -> int:
        return sum(len(data) for _, _, _, data in self.nodes)


def freeze(fs: MemoryFS) -> FsState:
    """`fs` as an FsState. The bytes of a file unchanged since the last freeze are shared
    with it, not copied again; a tree nothing could have changed since (`generation`) is
    the last freeze's. Descriptors of files removed while open are not kept."""
    if fs.frozen_state is not None and fs.frozen_state[0] == fs.generation:
        return fs.frozen_state[1]
    frozen: dict[int, tuple[int, bytes]] = {}
    nodes: list[tuple[str, bool, bool, bytes]] = []
    paths: dict[int, str] = {}
    pending: list[tuple[str, Node]] = [("", fs.root)]
    while pending:
        prefix, directory = pending.pop()
        for name, node in sorted((directory.entries or {}).items()):
            path = f"{prefix}/{name}"
            paths[node.ino] = path
            if node.is_dir:
                nodes.append((path, True, node.writable, b""))
                pending.append((path, node))
                continue
            version, data = fs.frozen.get(node.ino, (-1, b""))
            if version != node.version:
                data = bytes(node.data or b"")
            frozen[node.ino] = (node.version, data)
            nodes.append((path, False, node.writable, data))
    fs.frozen = frozen
    handles = tuple(
        (fd, paths[h.node.ino], h.readable, h.writable, h.append, h.offset)
        for fd, h in sorted(fs.handles.items())
        if fd != ROOT_FD and h.node.ino in paths
    )
    state = FsState(tuple(nodes), handles)
    fs.frozen_state = (fs.generation, state)
    return state


def check_layout(nodes: Iterable[tuple[str, bool, bool, int]], caps: FileCaps) -> None:
    """Raise ValueError unless `nodes` ((path, is_dir, writable, size), parents first) is a
    tree a live filesystem under `caps` could hold: every path under /input, /output or
    /tmp and within MAX_DEPTH parts and MAX_PATH_BYTES bytes, /input's read-only and the
    rest writable, each written file and all of them within the caps, as many nodes as the
    caps allow. Only the sizes are needed: a snapshot is checked by its header before a
    byte of its body is inflated."""
    directories = {"/" + name for name in ROOT_NAMES}
    seen: set[str] = set()
    written_nodes = written_bytes = input_nodes = input_files = input_bytes = 0
    for path, is_dir, writable, size in nodes:
        # Counted first, so that a header listing a million nodes is refused at the cap's.
        if written_nodes > caps.max_nodes or input_nodes > caps.max_input_files * MAX_DEPTH:
            break
        parts = path.split("/")
        if parts[0] != "" or len(parts) < 2 or parts[1] not in ROOT_NAMES:
            raise ValueError(f"filesystem node {path[:200]!r} is outside /input, /output "
                             "and /tmp")
        if any(part in ("", ".", "..") or "\x00" in part
               or len(part.encode()) > MAX_NAME_BYTES for part in parts[1:]):
            raise ValueError(f"filesystem node {path[:200]!r} has an invalid name")
        if len(parts) - 1 > MAX_DEPTH or len(path.encode()) - 1 > MAX_PATH_BYTES:
            raise ValueError(f"filesystem node {path[:200]!r} is deeper than {MAX_DEPTH} "
                             f"parts or longer than {MAX_PATH_BYTES} bytes")
        area_writable = parts[1] != "input"
        if len(parts) == 2:
            if not is_dir or writable != area_writable:
                raise ValueError(f"filesystem node {path!r} is not the root's directory")
            continue
        if path in seen or "/".join(parts[:-1]) not in directories:
            raise ValueError(f"filesystem node {path[:200]!r} has no parent directory (or "
                             "comes twice)")
        seen.add(path)
        if writable != area_writable or (is_dir and size):
            raise ValueError(f"filesystem node {path[:200]!r} is "
                             f"{'writable' if writable else 'read-only'} under /{parts[1]}")
        if is_dir:
            directories.add(path)
        if writable:
            written_nodes += 1
            written_bytes += size
            if size > caps.max_file_bytes:
                raise ValueError(f"file {path[:200]!r} holds {size} bytes, over the per-file "
                                 f"cap of {caps.max_file_bytes}")
        else:
            input_nodes += 1
            input_files += not is_dir
            input_bytes += size
    if written_nodes > caps.max_nodes or written_bytes > caps.max_total_bytes:
        raise ValueError(f"the written files are {written_nodes} nodes and {written_bytes} "
                         f"bytes, over the caps of {caps.max_nodes} and "
                         f"{caps.max_total_bytes}")
    # An input's directories are only its files' parents: at most MAX_DEPTH per file.
    if (input_files > caps.max_input_files or input_bytes > caps.max_input_bytes
            or input_nodes > caps.max_input_files * MAX_DEPTH):
        raise ValueError(f"the input files are {input_files} files and {input_bytes} bytes, "
                         f"over the caps of {caps.max_input_files} and "
                         f"{caps.max_input_bytes}")


def thaw(state: FsState, caps: FileCaps) -> MemoryFS:
    """A tree equal to `state`. Raises ValueError for a state that a live tree under `caps`
    could not hold (`check_layout`), or whose descriptors do not fit it."""
    check_layout(((path, is_dir, writable, len(data))
                  for path, is_dir, writable, data in state.nodes), caps)
    if len(state.handles) > caps.max_open:
        raise ValueError(f"{len(state.handles)} open descriptors, over the cap of "
                         f"{caps.max_open}")
    fs = MemoryFS(caps=caps)
    by_path: dict[str, Node] = {"": fs.root}
    for name in ROOT_NAMES:
        by_path["/" + name] = fs.root.children[name]
    for path, is_dir, writable, data in state.nodes:
        if path.count("/") == 1:
            continue  # the root's own directories
        parent_path, _, name = path.rpartition("/")
        parent = by_path[parent_path]
        node = Node(writable=writable, parent=parent, name=name,
                    entries={} if is_dir else None, data=None if is_dir else bytearray(data))
        parent.children[name] = node
        by_path[path] = node
        if writable:
            fs.created_nodes += 1
            fs.created_bytes += node.size
    for fd, path, readable, writable, append, offset in state.handles:
        handle_node = by_path.get(path)
        if handle_node is None or fd < FIRST_FILE_FD or fd in fs.handles or offset < 0:
            raise ValueError(f"descriptor {fd} of {path[:200]!r} does not fit the tree")
        if writable and (handle_node.is_dir or not handle_node.writable):
            raise ValueError(f"descriptor {fd} would write the read-only {path[:200]!r}")
        fs.handles[fd] = Handle(handle_node, readable, writable, append, offset)
    return fs
