"""The WASI filesystem calls, answered from the run's in-memory tree (`_fs.tree.MemoryFS`).

Every call wasmtime's own WASI would have answered for a descriptor is shadowed here, so the
guest's filesystem is the tree and nothing else: descriptor 3 is its root, 0-2 are stdio
(answered as wasmtime answers them: an unseekable stream without a file behind it), and a
run without a tree has no descriptor beyond stdio. Each function reads its arguments from
guest memory within bounds (EFAULT outside it), does bounded work (one read or write at most
copies the iovecs' bytes, capped by the tree's caps before anything is copied), and returns
a WASI errno; `hostcall.wasi_shim` (applied in `wasi.define_host_functions`) adds the
deadline check and keeps exceptions out of wasmtime. The run's tree, memory and tool channel
come from `hostcall.run_state`, its iovec lists from `hostcall.io_vectors`.

- `FsCalls`: the shims, one method per WASI call (and the tool channel on `TOOLS_FD`, the
  network channel on `NETWORK_FD`).
- `SIGNATURES`: each call's parameter types, and whether it takes the Caller.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import wasmtime

from .._fs import tree as vfs
from .._fs.tree import FsError, MemoryFS
from .._tools import ToolChannel
from .._wire import ANSWER_AREA_BYTES, NETWORK_FD, TOOLS_FD
from .hostcall import ERRNO_FAULT, ERRNO_SUCCESS, io_vectors, run_state
from .view import GuestMemory, MemoryFault

if TYPE_CHECKING:
    from .._network.channel import NetworkChannel

PRESTAT = struct.Struct("<BxxxI")
FDSTAT = struct.Struct("<BxHxxxxQQ")
FILESTAT = struct.Struct("<QQBxxxxxxxQQQQQ")
DIRENT = struct.Struct("<QQIBxxx")
STDIO_RIGHTS = (vfs.RIGHT_FD_READ, vfs.RIGHT_FD_WRITE, vfs.RIGHT_FD_WRITE)


#: fst_flags of the set-times calls: set the modification time to `mtim`, or to now.
FSTFLAGS_MTIM, FSTFLAGS_MTIM_NOW = 4, 8


def _set_mtime(node: vfs.Node, mtim: int, flags: int) -> None:
    """os.utime: the tree keeps one time per node (access and change times read as it)."""
    if flags & FSTFLAGS_MTIM_NOW:
        node.mtime_ns = time.time_ns()
    elif flags & FSTFLAGS_MTIM:
        node.mtime_ns = mtim


def _path(memory: GuestMemory, address: int, length: int) -> bytes:
    """A path argument: ENAMETOOLONG before anything is copied when it is too long."""
    if length > vfs.MAX_PATH_BYTES:
        raise FsError(vfs.ENAMETOOLONG)
    return memory.read(address, length)


class FsCalls:
    """The shims; each finds the run it serves in `run_state` (this thread's run)."""

    # -- helpers ---------------------------------------------------------------------------
    def _fs(self) -> MemoryFS:
        fs: MemoryFS | None = run_state.fs
        if fs is None:
            raise FsError(vfs.EBADF)
        return fs

    def _memory(self, caller: wasmtime.Caller) -> GuestMemory:
        return GuestMemory(caller, run_state.memory)

    def _stdio(self, fd: int) -> bool:
        if 0 <= fd <= 2:
            if fd in run_state.closed:
                raise FsError(vfs.EBADF)
            return True
        return False

    @staticmethod
    def _call(body: Callable[[], None]) -> int:
        try:
            body()
        except FsError as error:
            return error.errno
        except MemoryFault:
            return ERRNO_FAULT
        return ERRNO_SUCCESS

    # -- preopens and descriptor state ---------------------------------------------------
    def fd_prestat_get(self, caller: wasmtime.Caller, fd: int, out: int) -> int:
        def body() -> None:
            if fd != vfs.ROOT_FD or vfs.ROOT_FD not in self._fs().handles:
                raise FsError(vfs.EBADF)
            self._memory(caller).write(out, PRESTAT.pack(0, 1))
        return self._call(body)

    def fd_prestat_dir_name(self, caller: wasmtime.Caller, fd: int, out: int, length: int) -> int:
        def body() -> None:
            if fd != vfs.ROOT_FD or vfs.ROOT_FD not in self._fs().handles:
                raise FsError(vfs.EBADF)
            if length < 1:
                raise FsError(vfs.EINVAL)
            self._memory(caller).write(out, b"/")
        return self._call(body)

    def fd_fdstat_get(self, caller: wasmtime.Caller, fd: int, out: int) -> int:
        def body() -> None:
            if self._stdio(fd):
                rights = STDIO_RIGHTS[fd]
                self._memory(caller).write(out, FDSTAT.pack(0, 0, rights, rights))
                return
            handle = self._fs().handle(fd)
            if handle.node.is_dir:
                record = FDSTAT.pack(vfs.FILETYPE_DIRECTORY, 0, vfs.ALL_RIGHTS, vfs.ALL_RIGHTS)
            else:
                rights = (vfs.ALL_RIGHTS & ~(vfs.RIGHT_FD_READ | vfs.RIGHT_FD_WRITE)
                          | (vfs.RIGHT_FD_READ if handle.readable else 0)
                          | (vfs.RIGHT_FD_WRITE if handle.writable else 0))
                record = FDSTAT.pack(vfs.FILETYPE_REGULAR_FILE,
                                     vfs.FDFLAG_APPEND if handle.append else 0, rights, 0)
            self._memory(caller).write(out, record)
        return self._call(body)

    def fd_fdstat_set_flags(self, fd: int, flags: int) -> int:
        def body() -> None:
            if self._stdio(fd):
                raise FsError(vfs.EBADF)
            self._fs().set_append(fd, bool(flags & vfs.FDFLAG_APPEND))
        return self._call(body)

    def _filestat(self, node: vfs.Node) -> bytes:
        return FILESTAT.pack(1, node.ino, node.filetype, 1, node.size, node.mtime_ns,
                             node.mtime_ns, node.mtime_ns)

    def fd_filestat_get(self, caller: wasmtime.Caller, fd: int, out: int) -> int:
        def body() -> None:
            if self._stdio(fd):
                self._memory(caller).write(out, bytes(FILESTAT.size))
                return
            self._memory(caller).write(out, self._filestat(self._fs().handle(fd).node))
        return self._call(body)

    def fd_filestat_set_size(self, fd: int, size: int) -> int:
        def body() -> None:
            if self._stdio(fd):
                raise FsError(vfs.EBADF)
            self._fs().set_size(fd, size)
        return self._call(body)

    def fd_filestat_set_times(self, fd: int, _atim: int, mtim: int, flags: int) -> int:
        def body() -> None:
            if self._stdio(fd):
                raise FsError(vfs.EBADF)
            _set_mtime(self._fs().handle(fd).node, mtim, flags)
        return self._call(body)

    def fd_sync(self, fd: int) -> int:
        def body() -> None:
            if self._stdio(fd):
                raise FsError(vfs.EBADF)
            self._fs().handle(fd)  # nothing to flush: the tree is the storage
        return self._call(body)

    fd_datasync = fd_sync

    def fd_advise(self, fd: int, _offset: int, _length: int, _advice: int) -> int:
        return self.fd_sync(fd)

    def fd_close(self, fd: int) -> int:
        """For descriptors beyond stdio (stdio's close is `wasi._fd_close`)."""
        return self._call(lambda: self._fs().close(fd))

    # -- bytes -------------------------------------------------------------------------
    def read_file(self, caller: wasmtime.Caller, fd: int, iovs: int, count: int,
                  offset: int | None) -> int:
        """Bytes read from `fd` into the guest's iovecs (fd_read, fd_pread)."""
        fs = self._fs()
        memory = self._memory(caller)
        total = 0
        for address, length in io_vectors(memory, iovs, count):
            chunk = fs.read(fd, length, None if offset is None else offset + total)
            memory.write(address, chunk)
            total += len(chunk)
            if len(chunk) < length:
                break
        return total

    def write_file(self, caller: wasmtime.Caller, fd: int, iovs: int, count: int,
                   offset: int | None) -> int:
        """Bytes written to `fd` from the guest's iovecs (fd_write, fd_pwrite)."""
        fs = self._fs()
        memory = self._memory(caller)
        total = 0
        for address, length in io_vectors(memory, iovs, count):
            fs.check_write(fd, length, None if offset is None else offset + total)
            fs.write(fd, memory.read(address, length),
                     None if offset is None else offset + total)
            total += length
        return total

    def read_file_errno(self, caller: wasmtime.Caller, fd: int, iovs: int, count: int,
                        out: int) -> int:
        """fd_read of a descriptor beyond stdio (the tool channel's answer, or a file)."""
        def body() -> None:
            if fd == TOOLS_FD:
                total = self._read_answer(caller, iovs, count, self._channel())
            elif fd == NETWORK_FD:
                total = self._read_answer(caller, iovs, count, self._network())
            else:
                total = self.read_file(caller, fd, iovs, count, None)
            self._memory(caller).write(out, struct.pack("<I", total))
        return self._call(body)

    def write_file_errno(self, caller: wasmtime.Caller, fd: int, iovs: int, count: int,
                         out: int) -> int:
        """fd_write of a descriptor beyond stdio (a tool call, or a file)."""
        def body() -> None:
            if fd == TOOLS_FD:
                total = self._tool_call(caller, iovs, count)
            elif fd == NETWORK_FD:
                total = self._network_request(caller, iovs, count)
            else:
                total = self.write_file(caller, fd, iovs, count, None)
            self._memory(caller).write(out, struct.pack("<I", total))
        return self._call(body)

    def _channel(self) -> ToolChannel:
        channel: ToolChannel | None = run_state.tools
        if channel is None:
            raise FsError(vfs.EBADF)
        return channel

    def _tool_call(self, caller: wasmtime.Caller, iovs: int, count: int) -> int:
        """One write is one request; the tool runs now. Its answer is left in the guest's
        answer area when the runtime has one and it fits (the guest's stub takes it from
        there: no second host call), else it waits for the reads."""
        channel = self._channel()
        memory = self._memory(caller)
        vectors = io_vectors(memory, iovs, count)
        total = sum(length for _, length in vectors)
        if total > channel.limits.max_bytes:
            channel.refuse_oversized(total)
        else:
            channel.write(b"".join(memory.read(address, length) for address, length in vectors))
        area: int | None = run_state.answer_address
        if area is not None:
            answer = channel.take_answer(ANSWER_AREA_BYTES)
            if answer:
                memory.write(area + 4, answer)
            # The length last, and always: a stale answer must never be taken for this one.
            memory.write(area, len(answer).to_bytes(4, "little"))
        return total

    def _network(self) -> NetworkChannel:
        channel: NetworkChannel | None = run_state.network
        if channel is None:  # no network= policy: the descriptor does not exist
            raise FsError(vfs.EBADF)
        return channel

    def _network_request(self, caller: wasmtime.Caller, iovs: int, count: int) -> int:
        """One write is one request, carried out now (by `fetch`, which gives up at the
        run's deadline); its answer waits for the reads. A request over the policy's body
        cap is refused before its bytes are copied."""
        channel = self._network()
        memory = self._memory(caller)
        vectors = io_vectors(memory, iovs, count)
        total = sum(length for _, length in vectors)
        if total > channel.max_request_bytes:
            channel.refuse_oversized(total)
        else:
            channel.write(b"".join(memory.read(address, length) for address, length in vectors))
        return total

    def _read_answer(self, caller: wasmtime.Caller, iovs: int, count: int,
                     channel: ToolChannel | NetworkChannel) -> int:
        memory = self._memory(caller)
        total = 0
        for address, length in io_vectors(memory, iovs, count):
            chunk = channel.read(length)
            memory.write(address, chunk)
            total += len(chunk)
            if len(chunk) < length:
                break
        return total

    def fd_pread(self, caller: wasmtime.Caller, fd: int, iovs: int, count: int, offset: int,
                 out: int) -> int:
        def body() -> None:
            if self._stdio(fd):
                raise FsError(vfs.ESPIPE if fd == 0 else vfs.EBADF)
            if offset < 0:
                raise FsError(vfs.EINVAL)
            total = self.read_file(caller, fd, iovs, count, offset)
            self._memory(caller).write(out, struct.pack("<I", total))
        return self._call(body)

    def fd_pwrite(self, caller: wasmtime.Caller, fd: int, iovs: int, count: int, offset: int,
                  out: int) -> int:
        def body() -> None:
            if self._stdio(fd):
                raise FsError(vfs.EBADF if fd == 0 else vfs.ESPIPE)
            if offset < 0:
                raise FsError(vfs.EINVAL)
            total = self.write_file(caller, fd, iovs, count, offset)
            self._memory(caller).write(out, struct.pack("<I", total))
        return self._call(body)

    def fd_seek(self, caller: wasmtime.Caller, fd: int, delta: int, whence: int,
                out: int) -> int:
        def body() -> None:
            if self._stdio(fd):
                raise FsError(vfs.ESPIPE)
            position = self._fs().seek(fd, delta, whence)
            self._memory(caller).write(out, struct.pack("<Q", position))
        return self._call(body)

    def fd_tell(self, caller: wasmtime.Caller, fd: int, out: int) -> int:
        return self.fd_seek(caller, fd, 0, 1, out)

    def fd_readdir(self, caller: wasmtime.Caller, fd: int, buf: int, buf_len: int,
                   cookie: int, out: int) -> int:
        def body() -> None:
            if self._stdio(fd):
                raise FsError(vfs.EBADF)
            memory = self._memory(caller)
            if buf_len < 0 or buf + buf_len > memory.size:
                raise FsError(ERRNO_FAULT)
            listing = bytearray()
            for next_cookie, name, node in self._fs().readdir(fd, cookie):
                encoded = name.encode()
                listing += DIRENT.pack(next_cookie, node.ino, len(encoded), node.filetype)
                listing += encoded
                if len(listing) >= buf_len:
                    break
            used = bytes(listing[:buf_len])
            memory.write(buf, used)
            memory.write(out, struct.pack("<I", len(used)))
        return self._call(body)

    # -- paths -------------------------------------------------------------------------
    def path_open(self, caller: wasmtime.Caller, fd: int, _dirflags: int, path: int,
                  path_len: int, oflags: int, rights: int, _inheriting: int, fdflags: int,
                  out: int) -> int:
        def body() -> None:
            memory = self._memory(caller)
            opened = self._fs().open(fd, _path(memory, path, path_len), oflags, rights, fdflags)
            try:
                memory.write(out, struct.pack("<I", opened))
            except MemoryFault:
                self._fs().close(opened)
                raise
        return self._call(body)

    def path_filestat_get(self, caller: wasmtime.Caller, fd: int, _flags: int, path: int,
                          path_len: int, out: int) -> int:
        def body() -> None:
            memory = self._memory(caller)
            node = self._fs().stat(fd, _path(memory, path, path_len))
            memory.write(out, self._filestat(node))
        return self._call(body)

    def path_filestat_set_times(self, caller: wasmtime.Caller, fd: int, _flags: int, path: int,
                                path_len: int, _atim: int, mtim: int, fst: int) -> int:
        return self._call(lambda: _set_mtime(
            self._fs().stat(fd, _path(self._memory(caller), path, path_len)), mtim, fst))

    def path_create_directory(self, caller: wasmtime.Caller, fd: int, path: int,
                              path_len: int) -> int:
        return self._call(lambda: self._fs().mkdir(fd, _path(self._memory(caller), path, path_len)))

    def path_remove_directory(self, caller: wasmtime.Caller, fd: int, path: int,
                              path_len: int) -> int:
        return self._call(lambda: self._fs().remove(
            fd, _path(self._memory(caller), path, path_len), directory=True))

    def path_unlink_file(self, caller: wasmtime.Caller, fd: int, path: int,
                         path_len: int) -> int:
        return self._call(lambda: self._fs().remove(
            fd, _path(self._memory(caller), path, path_len), directory=False))

    def path_rename(self, caller: wasmtime.Caller, fd: int, old: int, old_len: int,
                    new_fd: int, new: int, new_len: int) -> int:
        def body() -> None:
            memory = self._memory(caller)
            self._fs().rename(fd, _path(memory, old, old_len), new_fd, _path(memory, new, new_len))
        return self._call(body)

    def path_readlink(self, caller: wasmtime.Caller, fd: int, path: int, path_len: int,
                      _buf: int, _buf_len: int, _out: int) -> int:
        def body() -> None:
            self._fs().stat(fd, _path(self._memory(caller), path, path_len))
            raise FsError(vfs.EINVAL)  # it exists, and is not a link: there are none
        return self._call(body)

    def path_symlink(self, *_args: int) -> int:
        return vfs.ENOTSUP

    def path_link(self, *_args: int) -> int:
        return vfs.ENOTSUP


#: name -> (parameter types as "i"/"I" for i32/i64, takes the Caller)
SIGNATURES: dict[str, tuple[str, bool]] = {
    "fd_prestat_get": ("ii", True),
    "fd_prestat_dir_name": ("iii", True),
    "fd_fdstat_get": ("ii", True),
    "fd_fdstat_set_flags": ("ii", False),
    "fd_filestat_get": ("ii", True),
    "fd_filestat_set_size": ("iI", False),
    "fd_filestat_set_times": ("iIIi", False),
    "fd_sync": ("i", False),
    "fd_datasync": ("i", False),
    "fd_advise": ("iIIi", False),
    "fd_pread": ("iiiIi", True),
    "fd_pwrite": ("iiiIi", True),
    "fd_seek": ("iIii", True),
    "fd_tell": ("ii", True),
    "fd_readdir": ("iiiIi", True),
    "path_open": ("iiiiiIIii", True),
    "path_filestat_get": ("iiiii", True),
    "path_filestat_set_times": ("iiiiIIi", True),
    "path_create_directory": ("iii", True),
    "path_remove_directory": ("iii", True),
    "path_unlink_file": ("iii", True),
    "path_rename": ("iiiiii", True),
    "path_readlink": ("iiiiii", True),
    "path_symlink": ("iiiii", False),
    "path_link": ("iiiiiii", False),
}
