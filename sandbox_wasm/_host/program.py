"""The guest program: a runtime compiled and linked once, run in live instances.

- `GuestProgram`: the runtime linked with the host functions (`wasi`), ready to instantiate
  many times; its idle instances, reused after a reset to the image (`MAX_IDLE_INSTANCES`,
  `MAX_RESET_BYTES`, `RESET_BUDGET_SHARE`, `REUSE_INSTANCES`), and the pristine memory those
  resets read.
- `LiveInstance`: one instance in a Store of its own (a one-shot run, a reused instance or a
  session's), entered under each call's limits.
- The run machinery: a run's two phases (the audit's budget until its answer, then the
  user's limits), the run state set for the host functions (`hostcall.run_state`), entering
  the guest, measuring its fuel and memory, and collecting its output into a `GuestOutcome`.
- `classify_trap`: a wasmtime trap as a `TrapKind`.

Traps and exits are translated here into a `GuestOutcome`; nothing above `_host/` inspects
wasmtime types.
"""

from __future__ import annotations

import ctypes
import os
import re
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import wasmtime

from .._errors import InvalidRequestError
from .._fs.tree import MemoryFS
from .._lifetime import Closeable
from .._models import MIB, Limits
from .._runtimes.artifacts import RuntimeFile
from .._tools import ToolChannel
from .._wire import ANSWER_AREA_EXPORT
from .calls import call_entry, memory_extent, watch_epochs
from .engine import EngineHost
from .hostcall import Interrupt, on_epoch, run_state
from .memory import WASM_PAGE, MemoryReset, memory_address, thread_faults
from .output import CappedOutput, GuestOutcome, OutputCallback, TrapKind, text_relay
from .stdin import StdinStream
from .wasi import define_host_functions, epoch_deadline

if TYPE_CHECKING:
    from .._network.channel import NetworkChannel

# A C stack that overflows the stock region at the bottom of linear memory wraps below
# address 0: its fault address lies in the top of the 32-bit address space.
_WRAPPED_STACK_FAULT = 0xFFF0_0000
_FAULT_ADDRESS = re.compile(r"memory fault at wasm address (0x[0-9a-fA-F]+)")

#: Idle instances a program keeps for reuse, and the most memory one may have written to
#: be reused (copying it back must stay cheaper than a fresh instance's page faults): 4 MiB,
#: or an eighth of the runtime's image when that is more. A data-runtime run (pandas, a
#: chart) writes 5-15 MiB: freed at 4 MiB, the next run paid ~2,000-2,900 copy-on-write
#: faults (15-20 ms on a VM where one costs ~6 us) where the copy takes 1-3 ms. Idle
#: instances hold at most MAX_IDLE_INSTANCES x the budget of written memory.
MAX_IDLE_INSTANCES = 8
MAX_RESET_BYTES = 4 * MIB
RESET_BUDGET_SHARE = 8
#: A run under this much fuel is a small one: after a few of them in a row, an instance
#: that wrote more than MAX_RESET_BYTES gives its written pages back (`MemoryReset`), so
#: that small runs stop copying back what a big one wrote (print('hi') ~1 M, a pandas
#: one-liner ~2 M, a small minimize or regression 11-13 M; a chart ~500 M, data-corpus
#: scripts mostly 15-300 M).
SMALL_RUN_FUEL = 20_000_000
#: $SANDBOX_WASM_REUSE_INSTANCES=0 gives every one-shot run an instance of its own.
REUSE_INSTANCES = os.environ.get("SANDBOX_WASM_REUSE_INSTANCES") != "0"
#: The runtime's export of the area a run's request is left in, and the most bytes it takes
#: (sandbox_entry.c's SANDBOX_AREA_CAPACITY; a longer request comes on stdin).
REQUEST_AREA_EXPORT = "sandbox_request"
REQUEST_AREA_BYTES = 64 * 1024
#: Why a run started from inside a run on the same thread is refused (`LiveInstance.call`).
NESTED_RUN_MESSAGE = ("a sandbox run cannot start on the thread of a run in progress (from "
                      "an on_output callback or an inline tool): start it on another thread")


class _ThisThread(threading.local):
    #: Whether this thread is inside a run (in the guest, or in a host call it made).
    in_run = False


_this_thread = _ThisThread()


class GuestProgram(Closeable):
    """A runtime compiled and linked, ready to instantiate many times (one InstancePre).

    A runtime whose entry returns to rest (`RuntimeFile.returns_to_rest`) has its one-shot
    runs served by reused instances: after a run that came back to rest, the instance's
    memory is put back to the image (`MemoryReset`), which makes it indistinguishable from
    a fresh one, and it waits for the next run. A run that trapped, exited, grew its memory
    or wrote more than its `reset_budget()` leaves its instance to be freed;
    $SANDBOX_WASM_REUSE_INSTANCES=0 turns reuse off.

    `release()` drops the compiled module (later runs report a host error); the engine host
    calls it at interpreter exit, a `Sandbox` when it is closed."""

    def __init__(self, host: EngineHost, runtime: RuntimeFile, argv: list[str]) -> None:
        self.host = host
        self.runtime = runtime
        self.argv = argv
        # The module and its stack pointer both come from the bytes that hashed to
        # `runtime.sha256` (never from the file again: it may have changed since).
        module, _, stack_top = host.load(runtime.path, runtime.sha256)
        linker = wasmtime.Linker(host.engine)
        linker.define_wasi()
        define_host_functions(linker)
        self._pre: wasmtime.InstancePre | None = linker.instantiate_pre(module)
        self._entry = "_start" if runtime.kind == "command" else "sandbox_resume"
        #: Whether runs get the in-memory filesystem (`RuntimeFile.has_filesystem`).
        self.has_filesystem = runtime.has_filesystem
        #: Where the C stack ends (it grows down from here); 0 when unknown.
        self.stack_top = stack_top
        #: Whether one-shot runs reuse instances: the entry returns to rest, and the C stack
        #: pointer is the module's only mutable global (so memory is all the state).
        self.reuses_instances = (REUSE_INSTANCES and runtime.returns_to_rest
                                 and self.stack_top > 0)
        self._idle_instances: list[tuple[LiveInstance, MemoryReset]] = []
        # Guards the idle instances, the pristine instance and the resets reading it.
        self._idle = threading.Condition()
        self._pristine: tuple[wasmtime.Store, wasmtime.Memory] | None = None
        self._resets = 0
        self._image_copy: bytes | None = None
        memory_type = next((e.type for e in module.exports if e.name == "memory"), None)
        #: The linear memory the runtime starts with (its snapshot's heap): a smaller memory
        #: cap cannot even instantiate it.
        self.memory_floor_bytes = (memory_type.limits.min * WASM_PAGE
                                   if isinstance(memory_type, wasmtime.MemoryType) else 0)
        # The entry is called unchecked (`calls.call_entry`): its type must be () -> (), or
        # () -> (i32) for a resume entry returning the request's exit status.
        entry_type = next((e.type for e in module.exports if e.name == self._entry), None)
        if not (isinstance(entry_type, wasmtime.FuncType) and not entry_type.params
                and [str(t) for t in entry_type.results] in ([], ["i32"])):
            raise wasmtime.WasmtimeError(f"the runtime exports no {self._entry}() -> () "
                                         "or -> (i32)")
        #: Whether the entry returns the exit status of a request that came back to rest.
        self.entry_returns_status = bool(entry_type.results)
        #: Where a run's request goes in the guest's memory (`sandbox_request`, read by the
        #: resume entry), found at the first instantiation; None: unknown or none (the
        #: request then comes on stdin).
        self.request_address: int | None = None
        #: Where a tool's answer goes for the guest (`sandbox_answer`); None: unknown or
        #: none (the guest then reads every answer from the tool channel).
        self.answer_address: int | None = None
        exported = {e.name for e in module.exports}
        self._has_request_area = REQUEST_AREA_EXPORT in exported
        self._has_answer_area = ANSWER_AREA_EXPORT in exported
        host.register(self)

    def check_memory_cap(self, memory_cap_bytes: int) -> None:
        """Raise InvalidRequestError for a memory cap under what the runtime starts with."""
        if memory_cap_bytes < self.memory_floor_bytes:
            floor_mb = -(-self.memory_floor_bytes // MIB)
            raise InvalidRequestError(
                f"the {self.runtime.name} runtime needs at least {floor_mb} MiB of memory to "
                f"start; memory_mb={memory_cap_bytes // MIB} is below that",
                field="limits.memory_mb")

    def release(self) -> None:
        """At interpreter exit, before wasmtime's own teardown: as `close()`."""
        self.close()

    def _release(self) -> None:
        """Drop the compiled module and the idle instances; later runs report a host
        error."""
        with self._idle:
            self._pre = None
            idle, self._idle_instances = self._idle_instances, []
            # A reset still reading the pristine memory finishes first (it is quick).
            self._idle.wait_for(lambda: self._resets == 0, timeout=10)
            pristine, self._pristine = self._pristine, None
        for instance, _ in idle:
            instance.close()
        if pristine is not None:
            pristine[0].close()

    def run(
        self,
        payload: bytes,
        limits: Limits,
        *,
        argv: list[str] | None = None,
        audit_budget: Limits | None = None,
        fs: MemoryFS | None = None,
        tools: ToolChannel | None = None,
        network: NetworkChannel | None = None,
        interrupt: Interrupt | None = None,
        on_output: OutputCallback | None = None,
        stdin: bytes | StdinStream = b"",
    ) -> GuestOutcome:
        """Run the guest once with `payload` as its stdin (then `stdin`, the user's code's
        own, as `LiveInstance.call` says), under `limits` (memory cap,
        output caps, deadline, fuel), with this program's argv unless another is given: in
        a brand-new Store, or in an idle instance put back to the image (see the class).
        Setting `interrupt` stops the run (`LiveInstance.call`); `on_output` gets the
        output as it is written.

        With `audit_budget`, stdout starts with the guest's framed audit answer (returned
        apart, not counted against the cap): the guest runs under the budget's deadline and
        fuel until it has answered and under `limits` after it, so the user's limits apply
        to the user's code whatever the audit cost."""
        if not self.reuses_instances or argv not in (None, self.argv):
            instance = LiveInstance(self, limits.memory_mb * MIB, argv or self.argv, fs=fs)
            try:
                return instance.call(payload, limits, audit_budget=audit_budget, tools=tools,
                                     network=network, interrupt=interrupt,
                                     on_output=on_output, stdin=stdin)
            finally:
                instance.close()
        self.check_memory_cap(limits.memory_mb * MIB)
        instance, reset = self._take_idle(limits.memory_mb * MIB)
        instance.fs = fs
        kept = False
        try:
            faults = thread_faults()
            outcome = instance.call(payload, limits, audit_budget=audit_budget, tools=tools,
                                    network=network, interrupt=interrupt,
                                    on_output=on_output, stdin=stdin)
            faulted = faults is None or thread_faults() != faults
            if outcome.at_rest and outcome.host_error is None:
                kept = self._keep(instance, reset, faulted=faulted,
                                  small=outcome.fuel_consumed < SMALL_RUN_FUEL)
            return outcome
        finally:
            if not kept:
                instance.close()

    def _take_idle(self, memory_cap_bytes: int) -> tuple[LiveInstance, MemoryReset | None]:
        """An idle instance and its reset, or a new instance (its reset is made when it
        first comes back), under this memory cap."""
        with self._idle:
            idle = self._idle_instances.pop() if self._idle_instances else None
        if idle is None:
            return LiveInstance(self, memory_cap_bytes, self.argv), None
        idle[0].set_memory_cap(memory_cap_bytes)
        return idle

    def _keep(self, instance: LiveInstance, reset: MemoryReset | None, *, faulted: bool,
              small: bool = False) -> bool:
        """Put the memory of an instance at rest back to the image and make it idle;
        False when it cannot be reused (see `MemoryReset.reset`) or is not wanted."""
        if instance.memory is None:
            return False
        with self._idle:
            if self._pre is None:
                return False
            self._resets += 1  # release() waits: the pristine memory is read below
        try:
            if reset is None:
                reset = MemoryReset(*self.pristine_memory(), self.reset_budget(),
                                    shrink_above=MAX_RESET_BYTES)
            if not reset.reset(instance.memory, instance.store, faulted=faulted, small=small):
                return False
        except wasmtime.WasmtimeError:  # released meanwhile
            return False
        finally:
            with self._idle:
                self._resets -= 1
                self._idle.notify_all()
        instance.fs = None
        with self._idle:
            if self._pre is None or len(self._idle_instances) >= MAX_IDLE_INSTANCES:
                return False
            self._idle_instances.append((instance, reset))
        return True

    def idle_instances(self) -> list[tuple[LiveInstance, MemoryReset]]:
        """The instances waiting for a run, with their resets (a copy of the list)."""
        with self._idle:
            return list(self._idle_instances)

    def reset_budget(self) -> int:
        """The most memory an instance may have written and still be reused (see
        MAX_RESET_BYTES)."""
        return max(MAX_RESET_BYTES, self.pristine_memory()[1] // RESET_BUDGET_SHARE)

    def pristine_memory(self) -> tuple[int, int]:
        """(address, size) of the linear memory of an instance that is never entered: the
        runtime's image as every fresh instance starts with it, read (never written) by
        every reset. Created on first use; freed by `release()`."""
        with self._idle:
            if self._pristine is None:
                store = wasmtime.Store(self.host.engine)
                try:
                    memory, _ = self.instantiate(store)
                except BaseException:
                    store.close()
                    raise
                if memory is None:
                    store.close()
                    raise wasmtime.WasmtimeError("the runtime exports no memory")
                self._pristine = (store, memory)
            store, memory = self._pristine
            return memory_address(memory, store), memory.data_len(store)

    def fresh_image(self) -> bytes:
        """A copy of the linear memory of a fresh instance (made once; only the
        memory-state comparison fallback needs it)."""
        if self._image_copy is None:
            self._image_copy = ctypes.string_at(*self.pristine_memory())
        return self._image_copy

    def instantiate(self, store: wasmtime.Store) -> tuple[wasmtime.Memory | None, wasmtime.Func]:
        """A new instance of the runtime in `store`: its memory and entry point."""
        if self._pre is None:
            raise wasmtime.WasmtimeError("the runtime was released (sandbox closed or "
                                         "interpreter exiting)")
        exports = self._pre.instantiate(store).exports(store)
        exported_memory = exports["memory"]
        memory = exported_memory if isinstance(exported_memory, wasmtime.Memory) else None
        entry = exports[self._entry]
        assert isinstance(entry, wasmtime.Func)
        if self._has_request_area and self.request_address is None:
            self.request_address = _data_address(exports[REQUEST_AREA_EXPORT], store)
        if self._has_answer_area and self.answer_address is None:
            self.answer_address = _data_address(exports[ANSWER_AREA_EXPORT], store)
        return memory, entry


def _data_address(export: object, store: wasmtime.Store) -> int | None:
    """The address of a data symbol's export: an immutable i32 global holding it, the same
    in every instance of the module; None for an export of another kind."""
    if isinstance(export, wasmtime.Global) and str(export.type(store).content) == "i32" \
            and not export.type(store).mutable:
        return int(export.value(store))
    return None


class LiveInstance(Closeable):
    """One instance of a guest program in a Store of its own, entered once (a one-shot
    run) or many times (a session: the guest returns to rest after each request, and its
    linear memory carries the state to the next).

    The memory cap covers the instance's whole life; fuel, deadline and output caps are
    each call's. Instantiation failures surface on the first call, as a host error."""

    def __init__(
        self, program: GuestProgram, memory_cap_bytes: int, argv: list[str],
        *, fs: MemoryFS | None = None,
    ) -> None:
        program.check_memory_cap(memory_cap_bytes)
        self.program = program
        #: The guest's filesystem (None: no descriptor beyond stdio).
        self.fs = fs
        self.store = wasmtime.Store(program.host.engine)
        wasi = wasmtime.WasiConfig()
        # No preopened directories and no environment: the guest sees no host state.
        wasi.argv = argv
        self.store.set_wasi(wasi)
        # The run's deadline and interrupt are decided every tick (`hostcall.on_epoch`).
        watch_epochs(self.store, on_epoch)
        self.set_memory_cap(memory_cap_bytes)
        self.memory: wasmtime.Memory | None = None
        self._entry: wasmtime.Func | None = None

    def set_memory_cap(self, memory_cap_bytes: int) -> None:
        """The most linear memory the instance may grow to from now on."""
        self.store.set_limits(memory_size=memory_cap_bytes)

    def start(self) -> None:
        """Instantiate now (a call does it when needed); raises WasmtimeError."""
        if self._entry is None:
            self.memory, self._entry = self.program.instantiate(self.store)

    def call(
        self, payload: bytes, limits: Limits, *, audit_budget: Limits | None = None,
        tools: ToolChannel | None = None, network: NetworkChannel | None = None,
        interrupt: Interrupt | None = None,
        on_output: OutputCallback | None = None,
        stdin: bytes | StdinStream = b"",
    ) -> GuestOutcome:
        """Enter the guest with `payload` as its stdin under `limits` (and `audit_budget`
        until its audit answer, as `GuestProgram.run` describes), with `tools` answering
        its tool calls; never raises for what the guest does. Setting `interrupt` (from any
        thread) stops the guest within a tick or two, wherever it is: the outcome's trap is
        then "interrupted". `stdin` follows the request on descriptor 0, for the user's
        code (`sys.stdin`): the guest reads its request until a short or empty read, so
        the host ends the request with one (`wasi._fd_read`) before serving these bytes,
        or the reads of a `StdinStream` as the code makes them. `on_output(stream, text)`
        is called on this thread with the user's output as the guest writes it (what the
        caps keep, in the order written)."""
        if _this_thread.in_run:
            # Called back from inside a run on this thread (an `on_output` callback, an
            # inline tool): the thread's run state is that run's, which it returns to, and
            # wasmtime aborts the process when a Store is entered inside another's call.
            raise RuntimeError(NESTED_RUN_MESSAGE)
        stdout = CappedOutput(limits.max_stdout_bytes, audit_answer=audit_budget is not None,
                              relay=on_output and text_relay("stdout", on_output))
        stderr = CappedOutput(limits.max_stderr_bytes, error_channel=True,
                              relay=on_output and text_relay("stderr", on_output))
        outcome = GuestOutcome()
        phases = _Phases(limits, audit_budget, self.program.host.flags.consume_fuel)
        started = time.perf_counter()
        fs = self.fs
        outputs_before = fs.mark() if fs is not None else None
        if fs is not None:
            fs.dropped.clear()  # each call reports its own
        try:
            if self._closed:
                raise wasmtime.WasmtimeError("the instance was closed")
            if phases.metered:
                self.store.set_fuel(phases.first_fuel)
            self.store.set_epoch_deadline(epoch_deadline(phases.first_timeout_ms))
            self.start()
            left_in_memory = self._leave_request(payload)
            _reset_run_state(b"" if left_in_memory else payload, phases, (stdout, stderr),
                             self.fs, tools, network, interrupt, stdin)
            # Host functions use this handle with their Caller (same store) instead of
            # looking the export up on every call.
            run_state.memory = self.memory
            run_state.answer_address = self.program.answer_address
            if self.memory is not None:
                outcome.initial_memory_bytes = self.memory.size(self.store) * WASM_PAGE
            assert self._entry is not None
            _this_thread.in_run = True
            try:
                _enter(self._entry, self.store, outcome, self.program.entry_returns_status)
            finally:
                _this_thread.in_run = False
        except wasmtime.WasmtimeError as error:
            outcome.host_error = str(error).splitlines()[0][:300]
        finally:
            outcome.elapsed_ms = (time.perf_counter() - started) * 1000
            _measure(self.store, self.memory, phases, outcome)
            run_state.fs = run_state.tools = run_state.network = run_state.interrupt = None
            run_state.stdin_stream = None
        _collect_output(outcome, stdout, stderr, started)
        if fs is not None:
            outcome.files = fs.outputs(since=outputs_before)
            outcome.files_dropped = list(fs.dropped)
        if tools is not None:
            outcome.tool_calls = list(tools.calls)
        if network is not None:
            outcome.network_calls = list(network.calls)
        return outcome

    def _leave_request(self, payload: bytes) -> bool:
        """Write `payload` where the resume entry takes the request from (`sandbox_request`:
        a 4-byte little-endian length, then the bytes), which saves the guest the host call
        of reading it from stdin. False when the runtime has no such area or the request
        does not fit in it: the request then comes on stdin."""
        address = self.program.request_address
        if address is None or self.memory is None or not 0 < len(payload) <= REQUEST_AREA_BYTES:
            return False
        base, size = memory_extent(self.store, self.memory)
        if address + 4 + len(payload) > size:
            return False
        ctypes.memmove(base + address + 4, payload, len(payload))
        ctypes.memmove(base + address, len(payload).to_bytes(4, "little"), 4)
        return True

    def _release(self) -> None:
        """Free the Store (the instance and its memory)."""
        self.memory = self._entry = None
        self.store.close()


@dataclass(frozen=True)
class _Phases:
    """The limits of a run's two phases: the audit's budget until its answer, then the
    user's limits (one phase, the user's, when there is no audit answer to wait for).
    `metered`: whether the engine meters fuel (always, but for `engine.use_engine_flags`'s
    measurements)."""

    user: Limits
    audit: Limits | None
    metered: bool = True

    @property
    def first_fuel(self) -> int:
        return (self.audit or self.user).effective_fuel

    @property
    def first_timeout_ms(self) -> int:
        return (self.audit or self.user).timeout_ms


def _reset_run_state(
    payload: bytes, phases: _Phases, outputs: tuple[CappedOutput, CappedOutput],
    fs: MemoryFS | None = None,
    tools: ToolChannel | None = None,
    network: NetworkChannel | None = None,
    interrupt: Interrupt | None = None,
    stdin: bytes | StdinStream = b"",
) -> None:
    """This thread's run state, as the host functions read it during the run."""
    run_state.interrupt = interrupt
    run_state.interrupted = False
    run_state.fs = fs
    run_state.tools = tools
    run_state.network = network
    user = phases.user
    run_state.next_phase = (
        (user.effective_fuel, user.timeout_ms) if phases.audit is not None else None
    )
    run_state.first_phase_fuel = phases.first_fuel
    run_state.fuel_metered = phases.metered
    run_state.audit_fuel_used = None
    run_state.exit_code = None
    run_state.deadline_hit = False
    given = stdin if isinstance(stdin, bytes) else b""
    run_state.stdin = memoryview(payload + given if given else payload)
    run_state.stdin_stream = stdin if isinstance(stdin, StdinStream) else None
    run_state.stdin_offset = 0
    run_state.request_end = len(payload)
    run_state.request_end_due = False
    run_state.deadline = time.monotonic() + phases.first_timeout_ms / 1000
    run_state.outputs = outputs
    run_state.closed = set()


def _enter(entry: wasmtime.Func, store: wasmtime.Store, outcome: GuestOutcome,
           returns_status: bool) -> None:
    """Run the guest's entry point and record how it ended (`returns_status`: the entry
    returns the exit status of a request that came back to rest)."""
    try:
        status = call_entry(entry, store, returns=returns_status)
        outcome.exit_code = status or 0
        outcome.status_record = status
        outcome.at_rest = True
    except wasmtime.Trap as trap:
        classify_trap(outcome, trap)
    except wasmtime.WasmtimeError as error:
        outcome.trap = "crash"
        outcome.trap_detail = str(error).splitlines()[0][:300]
    if outcome.trap is None or outcome.trap == "crash":
        recorded = getattr(run_state, "exit_code", None)
        if recorded is not None:
            outcome.trap, outcome.trap_detail = None, ""
            outcome.exit_code = recorded
    if run_state.interrupted:
        # Seen by the host during the run (an Event set after the guest ended is not).
        outcome.trap, outcome.trap_detail, outcome.exit_code = "interrupted", "", None
    elif run_state.deadline_hit:
        # A host call cut short by the deadline (a sleep, a huge write): the guest may have
        # ended before the epoch trap caught up; it still timed out.
        outcome.trap, outcome.trap_detail, outcome.exit_code = "deadline", "", None


def _measure(
    store: wasmtime.Store, memory: wasmtime.Memory | None, phases: _Phases,
    outcome: GuestOutcome,
) -> None:
    """Fuel used (both phases) and the final memory size, read before the Store closes."""
    try:
        audit_used = getattr(run_state, "audit_fuel_used", None)
        if not phases.metered:
            pass  # nothing to read: fuel_consumed stays 0
        elif audit_used is None:  # still in the first phase
            outcome.fuel_consumed = phases.first_fuel - store.get_fuel()
        else:
            outcome.fuel_consumed = audit_used + phases.user.effective_fuel - store.get_fuel()
        if memory is not None:
            outcome.peak_memory_bytes = memory.size(store) * WASM_PAGE
    except wasmtime.WasmtimeError:
        pass


def _collect_output(
    outcome: GuestOutcome, stdout: CappedOutput, stderr: CappedOutput, started: float
) -> None:
    outcome.stdout, outcome.stderr = stdout.data(), stderr.data()
    outcome.stdout_text, outcome.stdout_truncated = stdout.text()
    outcome.stderr_text, outcome.stderr_truncated = stderr.text()
    outcome.stdout_bytes, outcome.stderr_bytes = stdout.total, stderr.total
    outcome.error_record = stderr.error_record
    outcome.findings_record = stderr.findings_record
    outcome.value_record = stderr.value_record
    outcome.audit_answer = stdout.audit_answer
    outcome.answer_too_large = stdout.answer_too_large
    if stdout.answer_at is not None:
        outcome.audit_answer_ms = (stdout.answer_at - started) * 1000


def classify_trap(outcome: GuestOutcome, trap: wasmtime.Trap) -> None:
    code = trap.trap_code
    if code == wasmtime.TrapCode.INTERRUPT:
        outcome.trap = "deadline"
    elif code == wasmtime.TrapCode.OUT_OF_FUEL:
        outcome.trap = "fuel"
    elif code == wasmtime.TrapCode.MEMORY_OUT_OF_BOUNDS:
        outcome.trap, outcome.trap_detail = _out_of_bounds_kind(str(trap))
    elif code == wasmtime.TrapCode.STACK_OVERFLOW:
        outcome.trap = "stack_overflow"  # wasm call stack (deeply nested C iterators)
    else:
        outcome.trap = "crash"
        outcome.trap_detail = code.name if code is not None else "unknown trap"


def _out_of_bounds_kind(message: str) -> tuple[TrapKind, str]:
    """An out-of-bounds access is a C stack overflow only when it wrapped below address 0
    (the stock C stack sits at the bottom of memory); any other address is a wild access."""
    match = _FAULT_ADDRESS.search(message)
    if match is None:
        return "memory_out_of_bounds", "at an unknown address"
    address = int(match.group(1), 16)
    if address >= _WRAPPED_STACK_FAULT:
        return "c_stack_overflow", f"at {match.group(1)}"
    return "memory_out_of_bounds", f"at {match.group(1)}"
