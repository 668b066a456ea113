"""Sessions: one interpreter whose state (globals, imports, functions) lives across calls.

A session is one instance of the Python snapshot kept in a Store of its own. Each call
sends a `session` request: the guest audits the code, runs it in the session's __main__ and
returns to rest, so the instance's linear memory is the whole state between calls. Each
call has its own deadline, fuel and output caps; the memory cap covers the session's life.

A call that does not come back to rest (deadline, fuel, a wasm stack overflow, a crash,
os._exit) leaves the interpreter between two instructions. It is never reused: the session
is rebuilt from its checkpoint (the memory pages written since the runtime's image, taken
after every call that came back, `_host.memory`) in a fresh instance, and the result says
`session.rolled_back`. With `on_trap="close"` no checkpoint is kept (calls are cheaper)
and such a call closes the session instead. The same memory state, compressed and signed
or digested, is `snapshot()`; `Session.restore()` puts it into a fresh instance anywhere
the same runtime runs.
"""

from __future__ import annotations

import concurrent.futures
import functools
import heapq
import itertools
import threading
import time
import uuid
import weakref
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Literal

from .._audit.cache import look_up
from .._audit.policy import AuditPolicy, PolicyLike
from .._errors import InvalidRequestError, SandboxError, SessionClosedError, SnapshotError
from .._fs.tree import FileCaps, freeze, thaw
from .._host.hostcall import Interrupt, InterruptFlag
from .._host.memory import MemoryStateError, WrittenPages, apply, capture, thread_faults
from .._host.output import GuestOutcome
from .._host.program import LiveInstance
from .._host.write_tracking import WriteTracker, track, tracked_update
from .._lifetime import Closeable
from .._models import (
    MIB,
    ExecutionResult,
    Limits,
    OutputChunk,
    SessionCall,
    TimeoutProfile,
    construct,
    set_fields,
)
from .._outcome import ResultBuilder
from .._request import (
    FileContent,
    audit_budget,
    check_language,
    coerce_files,
    coerce_source,
    resolve_limits,
)
from .._sandbox import (
    Sandbox,
    in_thread_cancellable,
    network_channel,
    new_filesystem,
    resolve_network,
    runtime_sandbox,
    tool_channel,
)
from .._streaming import OutputForwarder, StreamItem, stream_in_task, stream_in_thread
from .._tools import ToolsLike, build_tools
from .._wire import MODE_SESSION, request_payload
from .snapshot import (
    SessionImage,
    SessionState,
    encode,
    open_snapshot,
)

OnTrap = Literal["rollback", "close"]
#: Idle time after which a session is closed (its memory freed), unless told otherwise.
DEFAULT_IDLE_TIMEOUT_S = 600.0
#: A rollback session whose checkpoint holds more than this many bytes has the kernel track
#: the pages each call writes (`_host.write_tracking`), and its checkpoints copy only those.
#: Below it, copying every written page costs less: tracking costs each page a call writes
#: a fault (~1.4 us; an `x += 1` writes ~90 pages) and each checkpoint a scan, ~0.3-0.7 ms
#: a call in all on a 2-core VM, against ~0.17 ms per MiB for the copy.
TRACK_WRITES_ABOVE = 2 * MIB

if TYPE_CHECKING:
    from .._network.policy import NetworkLike


class Session(Closeable):
    """A Python interpreter whose state lives across `execute()` calls.

    Each call is audited and runs under its own deadline and fuel; globals, imports and
    functions stay for the next call. `limits.memory_mb` caps the session's memory over its
    whole life. A call that traps is rolled back (see `on_trap`). Thread-safe: calls on one
    session run one at a time; `interrupt()` (from another thread) stops the call in
    progress, which is rolled back like a trap. `runtime` picks the Python runtime
    ("python", the default, or "python-data": numpy and pandas already imported).

    Example:
        with Session(policy="balanced") as session:
            session.execute("import json; data = [1, 2, 3]")
            print(session.execute("print(sum(data))").stdout)  # 6
            saved = session.snapshot()
        restored = Session.restore(saved)  # in this process or another one
    """

    def __init__(
        self,
        *,
        limits: Limits | Mapping[str, object] | None = None,
        policy: PolicyLike | None = None,
        language: str = "python",
        timeout_ms: int | None = None,
        memory_mb: int | None = None,
        profile: TimeoutProfile | str | None = None,
        idle_timeout_s: float | None = DEFAULT_IDLE_TIMEOUT_S,
        on_trap: OnTrap = "rollback",
        sandbox: Sandbox | None = None,
        runtime: str | None = None,
        tools: ToolsLike | None = None,
        network: NetworkLike | None = None,
        _image: SessionImage | None = None,
    ) -> None:
        if check_language(language) != "python":
            raise InvalidRequestError("sessions run Python only", field="language")
        if on_trap not in ("rollback", "close"):
            raise InvalidRequestError(
                f"on_trap must be 'rollback' or 'close', not {on_trap!r}", field="on_trap"
            )
        if idle_timeout_s is not None and not idle_timeout_s > 0:
            raise InvalidRequestError("idle_timeout_s must be positive (or None: never)",
                                      field="idle_timeout_s")
        if sandbox is not None and runtime is not None:
            raise InvalidRequestError("give either a sandbox or a runtime, not both",
                                      field="runtime")
        self._sandbox = sandbox or runtime_sandbox(runtime)
        self.limits = resolve_limits(
            limits if limits is not None else self._sandbox.limits,
            profile=profile, timeout_ms=timeout_ms, memory_mb=memory_mb,
        )
        self.policy: AuditPolicy
        self.policy, self._policy_line = self._sandbox.request_policy(policy)
        #: Host tools every call offers (`execute(tools=...)` replaces them for one call).
        self.tools = self._sandbox.tools if tools is None else build_tools(tools)
        #: The network policy of every call (`execute(network=...)` replaces it for one).
        self.network = self._sandbox.network if network is None else resolve_network(network)
        self.on_trap: OnTrap = on_trap
        self.idle_timeout_s = idle_timeout_s
        self._program = self._sandbox._program("python")
        self.id = uuid.uuid4().hex
        self.calls = 0
        self._lock = threading.RLock()
        #: The cancel Event of the call in progress (set by `interrupt()`).
        self._running: Interrupt | None = None
        self._checkpoint: SessionState | None = None
        #: The checkpoint of the last call, if not taken yet (`_after_call`).
        self._pending: _PendingCheckpoint | None = None
        #: A checkpoint left to the session's next use on its own thread (a call back to
        #: back with the last), by its `same_pages` (None: none).
        self._deferred: bool | None = None
        #: The pages of the instance's memory pagemap reported written at the last
        #: checkpoint (None: unknown); reused while no call took a page fault.
        self._written: WrittenPages | None = None
        #: The kernel's record of the pages written since the last checkpoint, once the
        #: checkpoint passed TRACK_WRITES_ABOVE (None: not tracked).
        self._tracker: WriteTracker | None = None
        #: Whether pagemap still tells this instance's written pages (no longer once they
        #: were write-protected: protected pages read as swapped).
        self._pagemap_trusted = True
        self._instance = self._new_instance(_image.state if _image else None)
        #: Whether user code may have run in the instance's interpreter (a restored
        #: snapshot's did): its audit answers are then the session's own (`look_up`).
        self._user_code_ran = _image is not None
        if _image is not None:
            self.calls = _image.calls
        if on_trap == "rollback":
            self._checkpoint = self._capture()
        self.last_used = time.monotonic()
        self._program.host.register(self)
        _reaper.watch(self)

    # -- lifetime ------------------------------------------------------------------------
    @property
    def memory_bytes(self) -> int:
        """The session's linear memory now (it never shrinks)."""
        with self._lock:
            self._check_open()
            self._settle()
            memory = self._instance.memory
            return memory.data_len(self._instance.store) if memory is not None else 0

    # `close()` (Closeable) frees the session's instance, after a call in progress has
    # finished (it holds the lock); later calls raise SessionClosedError.
    def _lifetime_lock(self) -> threading.RLock:
        return self._lock

    def _release(self) -> None:
        with self._lock:
            self._free()

    def _free(self) -> None:
        self._deferred = None
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.cancel()  # not needed any more (waited for if being taken: it reads)
        self._checkpoint = None
        self._close_instance()

    def _close_instance(self) -> None:
        if self._tracker is not None:
            self._tracker.close()  # before the memory is unmapped
            self._tracker = None
        self._instance.close()

    def _settle(self) -> None:
        """Take the checkpoint the last call left, or wait for the checkpoint thread taking
        it (every use of the instance does this first: the checkpoint reads it)."""
        if self._deferred is not None:
            same_pages, self._deferred = self._deferred, None
            self._checkpoint = self._capture(same_pages=same_pages)
        pending, self._pending = self._pending, None
        if pending is not None:
            self._checkpoint = pending.result()

    def release(self) -> None:
        """Free the instance at interpreter exit, before wasmtime's own teardown (without
        the lock: a call still running then holds it)."""
        if not self._closed:
            self._closed = True
            self._free()

    def _check_open(self) -> None:
        if self._closed:
            raise SessionClosedError(f"session {self.id} is closed")

    def _idle_expired(self, now: float) -> bool:
        return self.idle_timeout_s is not None and now - self.last_used >= self.idle_timeout_s

    # -- calls ---------------------------------------------------------------------------
    def execute(
        self,
        code: str | bytes,
        *,
        timeout_ms: int | None = None,
        limits: Limits | Mapping[str, object] | None = None,
        profile: TimeoutProfile | str | None = None,
        files: Mapping[str, FileContent] | None = None,
        tools: ToolsLike | None = None,
        network: NetworkLike | None = None,
        cancel: threading.Event | None = None,
        on_output: Callable[[OutputChunk], object] | None = None,
    ) -> ExecutionResult:
        """Audit `code` and run it in the session (its globals persist for the next call).
        `timeout_ms`, `profile` and `limits` override the session's limits for this call;
        the memory cap is the session's and cannot change. `files` are added to (or
        replace files in) the session's /input; `result.files` holds what this call
        created or changed under /output. The session's filesystem (/tmp included) lives
        as long as the session.

        `interrupt()`, or setting `cancel` (a `threading.Event`), interrupts the call: it
        ends at once with status `interrupted` and is rolled back like a trap (the session
        keeps the state it had before the call, and stays usable). `on_output` gets the
        output as it is written, as in `Sandbox.execute`; `stream()` iterates instead.

        Raises InvalidRequestError for invalid input and SessionClosedError when the
        session is closed; anything the code does is reported in the result."""
        effective = resolve_limits(
            limits if limits is not None else self.limits,
            profile=profile, timeout_ms=timeout_ms,
        )
        if effective.memory_mb != self.limits.memory_mb:
            raise InvalidRequestError(
                f"a session's memory cap is fixed at {self.limits.memory_mb} MiB for its life",
                field="limits.memory_mb",
            )
        source = coerce_source(code, effective.max_source_bytes)
        inputs = coerce_files(files, effective.max_input_bytes)
        offered = self.tools if tools is None else build_tools(tools)
        allowed = self.network if network is None else resolve_network(network)
        with self._lock:
            self._check_open()
            # Once the session's own code has run in its interpreter, the answers it gives
            # are kept for this session alone (`_audit/cache.py`).
            cache_key, known = look_up(self._program.runtime.sha256, self._policy_line,
                                       self.policy.name, source,
                                       scope=self.id if self._user_code_ran else "")
            payload = request_payload(MODE_SESSION, offered, self._policy_line, source,
                                      known=known is not None)
            # Calls coming this close together take their checkpoints themselves (below).
            back_to_back = time.monotonic() - self.last_used < BACK_TO_BACK_S
            self._settle()
            fs = self._instance.fs
            assert fs is not None
            # The session's /input as a whole stays within the input cap, however many
            # calls added to it.
            if inputs:
                held = fs.input_sizes()
                total = sum(held.values()) + sum(
                    len(data) - held.get(name, 0) for name, data in inputs.items())
                if total > self.limits.max_input_bytes:
                    raise InvalidRequestError(
                        f"the session's input files would hold {total} bytes, over the limit "
                        f"of {self.limits.max_input_bytes}", field="files")
                count = len(held.keys() | inputs.keys())
                if count > fs.caps.max_input_files:
                    raise InvalidRequestError(
                        f"the session's input files would be {count} files, over the limit "
                        f"of {fs.caps.max_input_files}", field="files")
            for name, data in inputs.items():
                try:
                    fs.add_input(name, data)
                except ValueError as error:
                    raise InvalidRequestError(str(error), field=f"files.{name}") from None
            self.calls += 1
            self._user_code_ran = True
            builder = ResultBuilder("python", effective, self._program.runtime)
            self._running = cancel if cancel is not None else InterruptFlag()
            forward = None if on_output is None else OutputForwarder(on_output, self._running)
            # Only a rollback checkpoint asks whether the call wrote new pages.
            faults = thread_faults() if self.on_trap == "rollback" else None
            try:
                outcome = self._instance.call(
                    payload, effective, audit_budget=audit_budget(effective.memory_mb),
                    tools=tool_channel(offered, effective), network=network_channel(allowed),
                    interrupt=self._running, on_output=forward,
                )
            finally:
                self._running = None
            # A page of the guest's memory becomes written only through a fault of the
            # thread writing it, and the guest and the host calls writing its memory run on
            # this one: without a fault the checkpoint's pages are the last one's.
            same_pages = faults is not None and thread_faults() == faults
            came_to_rest = _came_to_rest(outcome)
            result = builder.from_python_run(
                outcome, self.policy, offered.keys(),
                allowed.summary() if allowed is not None else None,
                known=known, cache_key=cache_key)
            session = self._after_call(came_to_rest, same_pages=same_pages,
                                       back_to_back=back_to_back)
            self.last_used = time.monotonic()
        if forward is not None:
            forward.raise_error()
        set_fields(result, session=session)  # the result is this call's own: no copy
        return result

    async def execute_async(self, code: str | bytes, **options: object) -> ExecutionResult:
        """`execute()` in a worker thread, so the event loop keeps running meanwhile.
        Cancelling the task interrupts the call (rolled back); the task raises
        CancelledError once the guest has stopped."""
        return await in_thread_cancellable(self.execute, code, options)

    def stream(self, code: str | bytes, **options: object) -> Iterator[StreamItem]:
        """`execute()` yielding `OutputChunk`s as the code writes them, then the result (as
        `Sandbox.stream`); leaving the loop early interrupts the call (rolled back)."""
        return stream_in_thread(self.execute, code, options)

    def stream_async(self, code: str | bytes, **options: object) -> AsyncIterator[StreamItem]:
        """`stream()` for asyncio; closing the iterator or cancelling its task interrupts
        the call (rolled back)."""
        return stream_in_task(self.execute, code, options)

    def interrupt(self) -> bool:
        """Interrupt the call in progress, from any thread: it ends within a tick or two
        with status `interrupted` and is rolled back. Returns whether a call was running
        (a call that starts later is not affected)."""
        running = self._running
        if running is None:
            return False
        running.set()
        return True

    def _after_call(self, came_to_rest: bool, *, same_pages: bool = False,
                    back_to_back: bool = False) -> SessionCall:
        """Keep the state the call left (checkpointing it), or put back the one before.

        The checkpoint is taken after the result goes back to the caller: by the checkpoint
        thread (an agent's next call usually comes much later), or, when this call came
        right after the last (`back_to_back`), by the session's next use, on its own thread
        (`_settle`): calls in a loop then do not have two threads taking turns at the GIL
        (on a 2-core VM `x += 1` back to back took 0.55 ms with the thread, 0.40 without,
        0.29 with no checkpoint). A call that took no page fault left the written pages as
        they were: its checkpoint copies them without reading pagemap (`capture`)."""
        rolled_back = False
        if not came_to_rest:
            if self._checkpoint is not None:
                rolled_back = True
                self._close_instance()
                try:
                    self._instance = self._new_instance(self._checkpoint)
                except SandboxError:
                    # The tree's rules make every checkpoint restorable; should one still
                    # not be, the session ends here, closed and said so, never half-open.
                    self._closed = True
                    self._checkpoint = None
                    rolled_back = False
            else:
                self._closed = True
                self._free()
        memory_bytes = 0
        if not self._closed and self._instance.memory is not None:
            memory_bytes = self._instance.memory.data_len(self._instance.store)
        if came_to_rest and self.on_trap == "rollback":
            if back_to_back:
                self._deferred = same_pages
            else:
                self._pending = _PendingCheckpoint(
                    functools.partial(self._capture, same_pages=same_pages))
                _checkpointer.submit(self._pending.in_background)
        return construct(SessionCall, id=self.id, call=self.calls, rolled_back=rolled_back,
                         closed=self._closed, memory_bytes=memory_bytes)

    def _new_instance(self, state: SessionState | None) -> LiveInstance:
        """A fresh instance of the runtime with a filesystem, holding `state` if given."""
        try:
            fs = new_filesystem({}, self.limits) if state is None else thaw(
                state.fs, FileCaps.of(self.limits))
        except ValueError as error:
            raise SnapshotError(f"session snapshot holds an unusable filesystem ({error})") \
                from None
        # A new instance: its written pages are not known yet.
        self._written, self._pagemap_trusted = None, True
        instance = LiveInstance(self._program, self.limits.memory_mb * MIB,
                                self._program.argv, fs=fs)
        try:
            instance.start()
            if state is not None:
                assert instance.memory is not None
                apply(state.memory, instance.memory, instance.store)
        except MemoryStateError as error:
            instance.close()
            raise SnapshotError(str(error)) from None
        except Exception as error:
            instance.close()
            raise SandboxError(f"the session's instance could not start: {error}") from None
        return instance

    def _capture(self, *, same_pages: bool = False) -> SessionState:
        """The session's state now (`same_pages`: no page of its memory became written
        since the last capture, whose pages are then copied again without asking pagemap).
        A tracked session's is its last checkpoint updated with the pages written since."""
        memory, fs = self._instance.memory, self._instance.fs
        assert memory is not None and fs is not None
        store, stack_top = self._instance.store, self._program.stack_top
        state = None
        if self._tracker is not None and self._checkpoint is not None:
            state = tracked_update(self._tracker, self._checkpoint.memory, memory, store,
                                   stack_top=stack_top)
            if state is None:  # the tracker could not say, and is closed
                self._tracker = None
        if state is None:
            state, self._written = capture(
                memory, store, self._program.fresh_image, stack_top=stack_top,
                written=self._written if same_pages else None,
                pagemap=self._pagemap_trusted)
            if (self.on_trap == "rollback" and self._tracker is None
                    and self._written is not None
                    and self._written.total_bytes > TRACK_WRITES_ABOVE):
                self._tracker = track(memory, store, stack_top=stack_top)
                # Protected pages read as swapped in pagemap from now on.
                self._pagemap_trusted = self._tracker is None
        return SessionState(state, freeze(fs))

    # -- snapshots -----------------------------------------------------------------------
    def snapshot(self, *, key: bytes | None = None) -> bytes:
        """The session's whole state as compressed bytes, bound to this runtime's SHA-256
        and integrity-checked (HMAC-signed with `key` when given). Taken between calls."""
        with self._lock:
            self._check_open()
            self._settle()
            # With rollback, the checkpoint already is the state now (nothing ran since).
            state = self._checkpoint if self._checkpoint is not None else self._capture()
            image = SessionImage(
                runtime_sha256=self._program.runtime.sha256,
                runtime_name=self._program.runtime.name,
                limits=self.limits.model_dump(exclude_unset=True),
                policy=self.policy.model_dump(mode="json"),
                session_id=self.id,
                calls=self.calls,
                state=state,
            )
        return encode(image, key=key)

    @classmethod
    def restore(
        cls,
        data: bytes,
        *,
        key: bytes | None = None,
        limits: Limits | Mapping[str, object] | None = None,
        policy: PolicyLike | None = None,
        idle_timeout_s: float | None = DEFAULT_IDLE_TIMEOUT_S,
        on_trap: OnTrap = "rollback",
        sandbox: Sandbox | None = None,
        runtime: str | None = None,
        tools: ToolsLike | None = None,
        network: NetworkLike | None = None,
    ) -> Session:
        """A new session holding the state `data` (from `snapshot()`) was taken with, under
        the snapshot's limits and policy unless others are given. Raises SnapshotError
        (an InvalidRequestError) for a foreign, tampered, truncated or wrongly keyed
        snapshot, and for one that carries more than the session's caps allow (memory;
        the files' paths, sizes and counts), signed or not; the snapshot's own limits are
        validated as a caller's would be. `runtime` (or `sandbox`) must be the runtime the
        snapshot was taken on (default: "python")."""
        if sandbox is not None and runtime is not None:
            raise InvalidRequestError("give either a sandbox or a runtime, not both",
                                      field="runtime")
        box = sandbox or runtime_sandbox(runtime)
        program = box._program("python")
        opened = open_snapshot(data, key=key, runtime_sha256=program.runtime.sha256)
        if limits is None:
            # The snapshot's own limits: the header's word, so validated like a caller's
            # (out of range is the snapshot's fault: a SnapshotError, like every defect
            # of a snapshot).
            try:
                limits = resolve_limits(opened.limits)
            except InvalidRequestError as error:
                raise SnapshotError(f"session snapshot names invalid limits ({error})") \
                    from None
        else:
            limits = resolve_limits(limits)
        # Every cap of the session it becomes applies to what the snapshot carries, signed
        # or not, before anything of it is inflated.
        image = opened.inflate(max_memory_bytes=limits.memory_mb * MIB,
                               caps=FileCaps.of(limits))
        if policy is None:
            try:
                policy = AuditPolicy.model_validate(image.policy)
            except ValueError:
                raise SnapshotError("session snapshot names an invalid policy") from None
        return cls(limits=limits, policy=policy, idle_timeout_s=idle_timeout_s,
                   on_trap=on_trap, sandbox=box, tools=tools, network=network, _image=image)


def _came_to_rest(outcome: GuestOutcome) -> bool:
    """Whether the guest finished the request and returned to rest (its state is sound):
    the entry returned the request's exit status, which no guest code can fake (what it
    writes before os._exit does not count)."""
    return outcome.host_error is None and outcome.trap is None and outcome.at_rest \
        and outcome.status_record is not None


class _IdleReaper:
    """Closes sessions idle past their timeout, from one daemon thread for all of them."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, weakref.ref[Session]]] = []
        self._counter = itertools.count()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    def watch(self, session: Session) -> None:
        if session.idle_timeout_s is None:
            return
        with self._wake:
            heapq.heappush(self._heap, (time.monotonic() + session.idle_timeout_s,
                                        next(self._counter), weakref.ref(session)))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="sandbox-wasm-reaper",
                                                daemon=True)
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._heap or self._heap[0][0] > time.monotonic():
                    timeout = self._heap[0][0] - time.monotonic() if self._heap else None
                    self._wake.wait(timeout)
                _, _, ref = heapq.heappop(self._heap)
            session = ref()
            if session is None or session.closed:
                continue
            self._expire(session)

    def _expire(self, session: Session) -> None:
        now = time.monotonic()
        # A busy session (a call in progress) is not idle: look again after its timeout.
        if session._lock.acquire(blocking=False):
            try:
                if session._idle_expired(now):
                    session.close()
                    return
            finally:
                session._lock.release()
        assert session.idle_timeout_s is not None
        # Used since it was queued, or busy now: look again when it could next expire.
        next_check = max(session.last_used + session.idle_timeout_s, now + 1.0)
        with self._wake:
            heapq.heappush(self._heap, (next_check, next(self._counter), weakref.ref(session)))


class _PendingCheckpoint:
    """A checkpoint to take, by whichever comes first: the checkpoint thread
    (`in_background`) or the session's next use (`result`)."""

    def __init__(self, take: Callable[[], SessionState]) -> None:
        self._take = take
        self._lock = threading.Lock()
        self._claimed = False
        self._done = threading.Event()
        self._state: SessionState | None = None
        self._error: BaseException | None = None

    def in_background(self) -> None:
        if self._claim():
            self._run()

    def result(self) -> SessionState:
        """The checkpoint: taken here if nothing has started taking it, else awaited."""
        if self._claim():
            self._run()
        self._done.wait()
        if self._error is not None:
            raise self._error
        assert self._state is not None
        return self._state

    def cancel(self) -> None:
        """Not to be taken; waits for it if it is being taken (it reads the instance)."""
        if not self._claim():
            self._done.wait()

    def _claim(self) -> bool:
        with self._lock:
            claimed, self._claimed = self._claimed, True
        return not claimed

    def _run(self) -> None:
        try:
            self._state = self._take()
        except BaseException as error:  # raised where the checkpoint is asked for
            self._error = error
        finally:
            self._done.set()


#: A call that starts less than this long after the last one returned is taken for part of
#: a loop of calls: its checkpoint is left to the next call (`Session._after_call`).
BACK_TO_BACK_S = 0.002
_reaper = _IdleReaper()
# Checkpoints are taken here, between a call's return and the next use of its session.
_checkpointer = concurrent.futures.ThreadPoolExecutor(
    max_workers=2, thread_name_prefix="sandbox-wasm-checkpoint")
