"""The Sandbox: request -> audit -> sandbox run -> result, for Python and JavaScript.

`execute()` reads top to bottom: the request is validated (`_request`), the policy named
(`_audit.policy`), the guest program run once in a fresh instance that audits and then runs
(`_host.program`), and the outcome turned into a result (`_outcome`).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from ._audit.cache import look_up
from ._audit.policy import (
    DEFAULT_POLICY,
    AuditPolicy,
    PolicyLike,
    allowing_modules,
    resolve_policy,
)
from ._audit.report import build_report
from ._errors import InvalidRequestError, SandboxClosedError, SandboxError
from ._fs.tree import FileCaps, MemoryFS
from ._host.engine import engine_host
from ._host.hostcall import run_interrupted, run_time_left
from ._host.program import GuestProgram
from ._host.stdin import StdinStream
from ._lifetime import Closeable
from ._models import (
    AuditReport,
    ExecutionResult,
    Language,
    Limits,
    OutputChunk,
    RuntimeInfo,
    TimeoutProfile,
)
from ._outcome import ResultBuilder, runtime_info
from ._request import (
    FileContent,
    audit_budget,
    check_language,
    coerce_files,
    coerce_source,
    coerce_stdin,
    resolve_limits,
)
from ._runtimes import javascript
from ._runtimes.artifacts import (
    file_sha256,
    javascript_runtime_file,
    python_runtime_file,
    python_variant,
    runtime_dir,
)
from ._streaming import OutputForwarder, StreamItem, stream_in_task, stream_in_thread
from ._tools import Tool, ToolChannel, ToolLimits, ToolsLike, build_tools
from ._wire import (
    MODE_AUDIT,
    MODE_EXEC,
    image_policy_line,
    mode_line,
    parse_audit_answer,
    policy_line,
    request_payload,
)

if TYPE_CHECKING:
    from ._images.image import Image, ImageManifest
    from ._network.channel import NetworkChannel
    from ._network.policy import NetworkLike, NetworkPolicy

# A snapshot was started (with the guest bootstrap) at build time and only needs stdin.
SNAPSHOT_ARGV = ["python"]
AUDIT_CACHE_SIZE = 512


class Sandbox(Closeable):
    """Runs audited code in fresh WebAssembly instances. Thread-safe and reusable: the
    Engine and compiled runtime are shared, every execution gets a new Store.

    `runtime` names the Python runtime: "python" (the default; also settable with
    $SANDBOX_WASM_PYTHON_RUNTIME), our CPython 3.13 with the standard library, or
    "python-data", the same with numpy and pandas compiled in and already imported
    (`python_runtime` is the older name of this argument), looked up in
    `runtime_directory` (default: `wasm-exec runtime path`). A runtime that is missing or fails
    its checks raises RuntimeNotFoundError / RuntimeIntegrityError naming the command that
    fixes it, on first use (`warm_up()` to find out at once); nothing else is tried.

    `image` runs an image instead (a runtime with pure-Python packages baked in and
    imported, built by `sandbox_wasm.image.build_image` or `wasm-exec image build`): it is
    checked against its manifest here, and a tampered one is refused. Its packages join the
    allowlist of every policy this sandbox applies, unless `allow_image_packages` is False.

    `close()` (or leaving a `with Sandbox() as box:` block) releases its compiled runtimes
    and caches at once; later calls raise `SandboxClosedError`. The module-level `execute()`
    and `audit()` use a process-wide Sandbox that lives until the interpreter exits.

    Example:
        with Sandbox(limits=Limits(timeout_ms=2_000)) as box:
            print(box.execute("print(6 * 7)").stdout)
    """

    def __init__(
        self,
        *,
        policy: PolicyLike | None = None,
        limits: Limits | Mapping[str, object] | None = None,
        timeout_ms: int | None = None,
        memory_mb: int | None = None,
        profile: TimeoutProfile | str | None = None,
        runtime_directory: Path | str | None = None,
        runtime: str | None = None,
        image: Path | str | None = None,
        allow_image_packages: bool = True,
        tools: ToolsLike | None = None,
        network: NetworkLike | None = None,
        python_runtime: str | None = None,
    ) -> None:
        if runtime is not None and python_runtime is not None:
            raise InvalidRequestError("give runtime (or its older name, python_runtime), "
                                      "not both", field="runtime")
        runtime = runtime if runtime is not None else python_runtime
        if image is not None and runtime is not None:
            raise InvalidRequestError("give either an image or a runtime, not both",
                                      field="image")
        self._image: Image | None = None
        if image is not None:
            from ._images.image import load_image  # here: images are rare, and import time counts

            self._image = load_image(image)
        self._image_packages = frozenset(
            self._image.manifest.packages if self._image and allow_image_packages else ())
        self.policy = self._with_image_packages(resolve_policy(policy, DEFAULT_POLICY))
        #: The default limits of its executions (`limits` with `profile`, `timeout_ms` and
        #: `memory_mb` applied over it, as in `execute()`).
        self.limits = resolve_limits(limits, profile=profile, timeout_ms=timeout_ms,
                                     memory_mb=memory_mb)
        #: Host tools every execution offers the guest (`execute(tools=...)` replaces them).
        self.tools = build_tools(tools)
        #: The network policy of its executions (None: no network; `execute(network=...)`
        #: replaces it for one call).
        self.network = resolve_network(network)
        self._runtime_directory = Path(runtime_directory) if runtime_directory else None
        #: The Python runtime variant (checked now: an unknown name is an InvalidRequestError).
        self._python_variant = python_variant(runtime) if image is None else None
        self._programs: dict[str, GuestProgram] = {}
        self._program_lock = threading.Lock()
        self._audit_cache: OrderedDict[str, dict[str, object]] = OrderedDict()
        self._audit_lock = threading.Lock()

    # -- lifetime ------------------------------------------------------------------------
    # `close()` (Closeable) releases the compiled runtimes and the audit cache. Executions
    # already running finish (or report a host error); later calls raise SandboxClosedError.
    def _lifetime_lock(self) -> threading.Lock:
        return self._program_lock

    def _release(self) -> None:
        with self._program_lock:
            programs, self._programs = list(self._programs.values()), {}
        for program in programs:
            program.close()
        with self._audit_lock:
            self._audit_cache.clear()

    # -- runtimes ------------------------------------------------------------------------
    @property
    def image(self) -> ImageManifest | None:
        """The manifest of the image this sandbox runs (None: the installed runtime)."""
        return self._image.manifest if self._image else None

    def _with_image_packages(self, policy: AuditPolicy) -> AuditPolicy:
        if not self._image_packages:
            return policy
        return allowing_modules(policy, self._image_packages)

    def request_policy(self, policy: PolicyLike | None) -> tuple[AuditPolicy, bytes]:
        """The policy a request runs under (`policy`, else this sandbox's; an image's
        packages allowed) and its line in the request."""
        resolved = self._with_image_packages(resolve_policy(policy, self.policy))
        if self._image_packages:
            return resolved, image_policy_line(resolved, self._image_packages)
        return resolved, policy_line(resolved)

    def _program(self, language: Language) -> GuestProgram:
        program = self._programs.get(language)
        if program is None:
            with self._program_lock:
                if self._closed:
                    raise SandboxClosedError("this Sandbox is closed")
                program = self._programs.get(language)
                if program is None:
                    directory = self._runtime_directory or runtime_dir()
                    if language == "javascript":
                        runtime = javascript_runtime_file(directory)
                        argv = ["qjs"]
                    elif self._image is not None:
                        runtime = self._image.runtime
                        argv = SNAPSHOT_ARGV
                    else:
                        runtime = python_runtime_file(directory, self._python_variant)
                        argv = SNAPSHOT_ARGV
                    program = GuestProgram(engine_host(), runtime, argv)
                    self._programs[language] = program
        return program

    @property
    def python_variant(self) -> str | None:
        """The Python runtime variant this sandbox runs (None for an image)."""
        return self._python_variant

    def with_runtime(self, runtime: str) -> Sandbox:
        """A sandbox like this one (policy, limits, tools, runtime directory) on another
        Python runtime."""
        box = Sandbox(policy=self.policy, limits=self.limits,
                      runtime_directory=self._runtime_directory, runtime=runtime)
        box.tools = self.tools
        box.network = self.network
        return box

    def warm_up(self, *languages: Language) -> None:
        """Load (and if needed compile) runtimes now instead of on the first call."""
        for language in languages or ("python",):
            self._program(language)

    @property
    def runtime_info(self) -> RuntimeInfo:
        """Which runtime this sandbox runs (loads it if needed)."""
        return runtime_info(self._program("python").runtime)

    # -- execution -----------------------------------------------------------------------
    def execute(
        self,
        code: str | bytes,
        *,
        language: Language = "python",
        timeout_ms: int | None = None,
        memory_mb: int | None = None,
        limits: Limits | Mapping[str, object] | None = None,
        profile: TimeoutProfile | str | None = None,
        policy: PolicyLike | None = None,
        files: Mapping[str, FileContent] | None = None,
        tools: ToolsLike | None = None,
        network: NetworkLike | None = None,
        cancel: threading.Event | None = None,
        on_output: Callable[[OutputChunk], object] | None = None,
        stdin: str | bytes | int | None = None,
    ) -> ExecutionResult:
        """Audit `code`, run it in a fresh instance if allowed, and return the result.
        `policy` (an `AuditPolicy` or a preset's name) overrides the sandbox's for this call.
        `files` (name -> bytes or text) are the guest's read-only /input; what it writes
        under /output comes back as `result.files`. `tools` (host callables, or a name ->
        callable mapping) become the functions of the guest's `tools` module, replacing
        the sandbox's for this call; `result.tool_calls` lists the calls. `network` (a
        `NetworkPolicy`, its mapping, or rule strings such as "https://api.example.com")
        lets the guest's urllib, http.client and requests reach the hosts it allows, through
        the host, replacing the sandbox's for this call; `result.network_calls` lists the
        requests. Setting `cancel`
        (a `threading.Event`, from any thread) interrupts the run wherever the guest is
        (computing, sleeping, waiting for a tool): it ends at once with status
        `interrupted` (exit code 130); an Event already set interrupts it as it starts.
        `stdin` (text is UTF-8) is what the Python code reads from `sys.stdin`; it counts,
        with the input files, against `max_input_bytes`. An int is a file descriptor the
        code's reads are served from as it makes them (what `wasm-exec` does with its own
        stdin): code that never reads stdin takes nothing from it, a read waits for input
        within the deadline, and a read past `max_input_bytes` fails with OSError (EIO).
        `on_output` is called with each `OutputChunk` as the code writes it (the guest's
        stdout and stderr are unbuffered: in the order written, within their caps), on the
        thread running the guest: keep it quick. An exception it raises interrupts the run
        and is raised from here once the run has stopped. `stream()` iterates instead.

        Raises InvalidRequestError (or SourceTooLargeError) for invalid input and
        RuntimeNotFoundError / RuntimeIntegrityError when the runtime is unusable; anything
        the guest does is reported in the result instead.
        """
        language = check_language(language)
        effective = resolve_limits(
            limits if limits is not None else self.limits,
            profile=profile, timeout_ms=timeout_ms, memory_mb=memory_mb,
        )
        source = coerce_source(code, effective.max_source_bytes)
        inputs = coerce_files(files, effective.max_input_bytes)
        room = effective.max_input_bytes - sum(map(len, inputs.values()))
        given = coerce_stdin(stdin, room)
        program = self._program(language)
        result = ResultBuilder(language, effective, program.runtime)
        if given != b"" and language != "python":
            raise InvalidRequestError("stdin is for Python code", field="stdin")
        if inputs and not program.has_filesystem:
            raise InvalidRequestError(
                f"files are for Python code; {program.runtime.name} has no in-memory "
                "filesystem", field="files")
        allowed = self.network if network is None else resolve_network(network)
        forward = None
        if on_output is not None:
            cancel = cancel if cancel is not None else threading.Event()
            forward = OutputForwarder(on_output, cancel)
        if language == "javascript":
            if network is not None:
                raise InvalidRequestError("network is for Python code (urllib, http.client, "
                                          "requests); JavaScript runs without it",
                                          field="network")
            answer = self._execute_javascript(program, source, effective, result, cancel,
                                              forward)
            if forward is not None:
                forward.raise_error()
            return answer
        # One fresh instance audits and then runs: the guest parses the source, writes its
        # audit answer before any user code runs, and runs the code only if the policy
        # (judged by the same function as on the host) allows it.
        policy, line = self.request_policy(policy)
        offered = self.tools if tools is None else build_tools(tools)
        cache_key, known = look_up(program.runtime.sha256, line, policy.name, source)
        # The code of a source run before comes with the request; the guest is asked for
        # the code of one whose kept audit has none yet (`_audit/cache.py`).
        code = known.code if known is not None else b""
        keep_code = cache_key is not None and not code
        payload = request_payload(MODE_EXEC, offered, line, source,
                                  rest=program.runtime.returns_to_rest,
                                  known=known is not None, keep_code=keep_code, code=code)
        fs = new_filesystem(inputs, effective) if program.has_filesystem else None
        outcome = program.run(payload, effective, audit_budget=audit_budget(effective.memory_mb),
                              fs=fs, tools=tool_channel(offered, effective),
                              network=network_channel(allowed), interrupt=cancel,
                              on_output=forward,
                              stdin=StdinStream(given, room) if isinstance(given, int) else given)
        if forward is not None:
            forward.raise_error()
        return result.from_python_run(outcome, policy, offered.keys(),
                                      allowed.summary() if allowed is not None else None,
                                      known=known, cache_key=cache_key, code_asked=keep_code)

    def _execute_javascript(
        self, program: GuestProgram, source: str, limits: Limits, result: ResultBuilder,
        cancel: threading.Event | None, forward: OutputForwarder | None,
    ) -> ExecutionResult:
        # The syntax check compiles (never runs) the source in an instance of its own, under
        # the audit's fixed time budget and the request's memory cap.
        check = program.run(source.encode("utf-8"), audit_budget(limits.memory_mb),
                            argv=javascript.CHECK_ARGV, interrupt=cancel)
        refused = result.from_javascript_check(check)
        if refused is not None:
            return refused
        outcome = program.run(b"", limits, argv=javascript.run_argv(source), interrupt=cancel,
                              on_output=forward)
        return result.from_outcome(outcome)

    async def execute_async(self, code: str | bytes, **options: object) -> ExecutionResult:
        """`execute()` in a worker thread, so the event loop keeps running meanwhile (wasm
        calls release the GIL). Cancelling the task interrupts the run: the task raises
        CancelledError once the guest has stopped."""
        # `options` are execute()'s keywords, checked there as they are on a direct call.
        return await in_thread_cancellable(self.execute, code, options)

    def stream(self, code: str | bytes, **options: object) -> Iterator[StreamItem]:
        """`execute()` yielding the output as it is written: `OutputChunk`s (stdout and stderr
        in the order written), then the `ExecutionResult` (always the last item). The run
        goes on a worker thread; leaving the loop early interrupts it."""
        return stream_in_thread(self.execute, code, options)

    def stream_async(self, code: str | bytes, **options: object) -> AsyncIterator[StreamItem]:
        """`stream()` for asyncio (`async for item in sandbox.stream_async(code)`); closing
        the iterator or cancelling its task interrupts the run."""
        return stream_in_task(self.execute, code, options)

    # -- audit only ----------------------------------------------------------------------
    def audit(self, code: str | bytes, *, policy: PolicyLike | None = None) -> AuditReport:
        """Parse `code` with the guest's own grammar and apply the policy. Runs nothing
        of `code`; raises InvalidRequestError for unusable input."""
        source = coerce_source(code, self.limits.max_source_bytes)
        policy = self._with_image_packages(resolve_policy(policy, self.policy))
        return build_report(policy, self._guest_facts(source))

    def _guest_facts(self, source: str) -> dict[str, object]:
        key = hashlib.sha256(source.encode("utf-8")).hexdigest()
        with self._audit_lock:
            cached = self._audit_cache.get(key)
            if cached is not None:
                self._audit_cache.move_to_end(key)
                return cached
        answer, cacheable = self._run_audit_guest(source)
        if not cacheable:
            return answer
        with self._audit_lock:
            self._audit_cache[key] = answer
            while len(self._audit_cache) > AUDIT_CACHE_SIZE:
                self._audit_cache.popitem(last=False)
        return answer

    def _run_audit_guest(self, source: str) -> tuple[dict[str, object], bool]:
        """The guest's facts about `source`, and whether the answer may be cached."""
        budget = audit_budget(self.limits.memory_mb)
        program = self._program("python")
        mode = mode_line(MODE_AUDIT, rest=program.runtime.returns_to_rest, tools=False)
        outcome = program.run(mode + b"\n" + source.encode("utf-8"), budget, audit_budget=budget)
        if outcome.host_error is not None:
            raise SandboxError(f"the audit could not run: {outcome.host_error}")
        answer = parse_audit_answer(None if outcome.answer_too_large else outcome.audit_answer)
        if answer is not None:
            return answer, "audit_error" not in answer
        # The parser trapped (C stack) or ran out of time: the source is not something the
        # interpreter could compile either.
        return {"syntax_error": {"message": "source too complex to parse", "line": 0,
                                 "col": 0}}, False


async def in_thread_cancellable(
    execute: Callable[..., ExecutionResult], code: str | bytes, options: dict[str, object],
) -> ExecutionResult:
    """`execute(code, **options)` in a worker thread; cancelling the awaiting task sets the
    run's `cancel` Event and waits for the run to stop before the task raises
    CancelledError (the instance is never left running behind the caller's back)."""
    import asyncio  # here, not at the top: `import sandbox_wasm` stays fast

    cancel = options.pop("cancel", None)
    if cancel is None:
        cancel = threading.Event()
    if not isinstance(cancel, threading.Event):
        raise InvalidRequestError("cancel must be a threading.Event", field="cancel")
    run = asyncio.ensure_future(asyncio.to_thread(execute, code, cancel=cancel, **options))
    try:
        return await asyncio.shield(run)
    except asyncio.CancelledError:
        cancel.set()
        await asyncio.wait([run])  # within a tick or two of the Event
        if not run.cancelled():
            run.exception()  # retrieved: the caller asked for cancellation, not this
        raise


def tool_channel(tools: Mapping[str, Tool], limits: Limits) -> ToolChannel | None:
    """The run's tool channel under the limits' tool bounds (None without tools)."""
    if not tools:
        return None
    return ToolChannel(tools, ToolLimits(max_calls=limits.max_tool_calls,
                                         max_bytes=limits.max_tool_bytes,
                                         timeout_s=limits.tool_timeout_ms / 1000),
                       time_left=run_time_left, interrupted=run_interrupted)


def network_channel(policy: NetworkPolicy | None) -> NetworkChannel | None:
    """The run's network channel under `policy` (None without one)."""
    if policy is None:
        return None
    from ._network.channel import NetworkChannel  # here: `import sandbox_wasm` stays fast

    return NetworkChannel(policy, time_left=run_time_left, interrupted=run_interrupted)


def resolve_network(network: NetworkLike | None) -> NetworkPolicy | None:
    """`network=` as a policy (None: no network); see `_network.policy.resolve_network`."""
    if network is None:
        return None
    from ._network import policy  # here: `import sandbox_wasm` stays fast

    return policy.resolve_network(network)


def new_filesystem(inputs: Mapping[str, bytes], limits: Limits) -> MemoryFS:
    """The guest's in-memory filesystem: `inputs` under /input, the limits' caps."""
    return MemoryFS(inputs, FileCaps.of(limits))


_default_sandbox: Sandbox | None = None
_default_lock = threading.Lock()


def default_sandbox() -> Sandbox:
    """The process-wide Sandbox used by the module-level functions."""
    global _default_sandbox
    with _default_lock:
        if _default_sandbox is None or _default_sandbox.closed:
            _default_sandbox = Sandbox()
        return _default_sandbox


_image_sandboxes: dict[Path, tuple[str, Sandbox]] = {}


def image_sandbox(image: Path | str) -> Sandbox:
    """The process-wide Sandbox of an image (one per image file; a new one, verified again,
    when the file changed)."""
    path = Path(image).expanduser().resolve()
    try:
        key = file_sha256(path)  # remembered per stat: a changed file is hashed again
    except OSError:
        key = ""  # missing: load_image says so
    with _default_lock:
        known = _image_sandboxes.get(path)
        if known is not None and known[0] == key and not known[1].closed:
            return known[1]
        box = Sandbox(image=path)
        _image_sandboxes[path] = (key, box)
    if known is not None:
        known[1].close()
    return box


_runtime_sandboxes: dict[str, Sandbox] = {}


def runtime_sandbox(runtime: str | None) -> Sandbox:
    """The process-wide Sandbox of a Python runtime ("python", "python-data"; None: the
    default one)."""
    if runtime is None:
        return default_sandbox()
    variant = python_variant(runtime)
    if variant == python_variant(None):
        return default_sandbox()
    with _default_lock:
        box = _runtime_sandboxes.get(variant)
        if box is None or box.closed:
            box = _runtime_sandboxes[variant] = Sandbox(runtime=variant)
        return box


def execute(
    code: str | bytes,
    *,
    language: Language = "python",
    timeout_ms: int | None = None,
    memory_mb: int | None = None,
    limits: Limits | Mapping[str, object] | None = None,
    profile: TimeoutProfile | str | None = None,
    policy: PolicyLike | None = None,
    files: Mapping[str, FileContent] | None = None,
    runtime: str | None = None,
    image: Path | str | None = None,
    tools: ToolsLike | None = None,
    network: NetworkLike | None = None,
    cancel: threading.Event | None = None,
    on_output: Callable[[OutputChunk], object] | None = None,
    stdin: str | bytes | int | None = None,
) -> ExecutionResult:
    """Audit and run `code` in a fresh sandbox instance; see `Sandbox.execute`. `runtime`
    picks the Python runtime ("python", the default, or "python-data", with numpy and
    pandas); `image`, an image instead (its process-wide Sandbox, see `image_sandbox`)."""
    if image is not None and runtime is not None:
        raise InvalidRequestError("give either an image or a runtime, not both", field="image")
    sandbox = runtime_sandbox(runtime) if image is None else image_sandbox(image)
    return sandbox.execute(
        code, language=language, timeout_ms=timeout_ms, memory_mb=memory_mb,
        limits=limits, profile=profile, policy=policy, files=files, tools=tools,
        network=network, cancel=cancel, on_output=on_output, stdin=stdin,
    )


def audit(code: str | bytes, *, policy: PolicyLike | None = None) -> AuditReport:
    """Audit `code` without running it; see `Sandbox.audit`."""
    return default_sandbox().audit(code, policy=policy)
