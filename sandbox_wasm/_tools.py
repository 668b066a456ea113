"""Host tools the guest can call ("code mode"): Python callables (sync or async) offered to
the guest as the functions of a `tools` module, with their names, signatures and docstrings.

A call crosses as JSON through the guest's tool channel (`_guest/bootstrap.py` TOOLS_FD,
answered by the host: `_host/wasi_fs.py`): the guest's stub writes {"tool", "args",
"kwargs"}; the host binds the arguments to the function's signature (TypeError on a
mismatch), validates them against its type hints with pydantic (ValueError with the
validation message), runs the tool in a worker thread (an async one on the tools' event
loop) under the call's time limit and the run's deadline, or, for a sync tool made with
`tool(..., inline=True)`, on the thread running the guest (no hand-off; no time limit but
the run's deadline, checked when it returns), and answers {"result"} or
{"error": {"type", "message"}} (the exception's type name and message; no host traceback, no
host paths beyond what the message says).
Per run: at most `max_tool_calls` calls, `max_tool_bytes` per request and per answer; a tool
that overruns its time is abandoned (an async one cancelled) and the guest gets a
TimeoutError; the run's own deadline keeps running while a tool works. An interrupted run
stops waiting for its tool at once (the tool is abandoned as on a timeout).
"""

from __future__ import annotations

import inspect
import json
import keyword
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pydantic
from pydantic_core import PydanticSerializationError, to_jsonable_python

from ._errors import InvalidRequestError
from ._wire import ANSWER_LENGTH_BYTES, frame

if TYPE_CHECKING:
    import asyncio
    import concurrent.futures

#: A tool's name as the guest calls it.
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
#: Nesting that a tool's arguments or answer may have (JSON arrays and objects).
MAX_JSON_DEPTH = 64
#: Encodes answers (`json.dumps` with options builds an encoder on every call).
_ANSWER_ENCODER = json.JSONEncoder(allow_nan=False)


@dataclass(frozen=True)
class Param:
    """One parameter as the guest's stub declares it."""

    name: str
    kind: str  # inspect.Parameter kind name
    default_json: str | None = None  # JSON of the default; None: no default, or not JSON
    has_default: bool = False


@dataclass
class Tool:
    """A host callable offered to the guest."""

    name: str
    function: Callable[..., Any]
    description: str
    params: tuple[Param, ...]
    is_async: bool
    #: Binds and validates (args, kwargs); raises TypeError / ValueError for bad ones.
    validate: Callable[[list[Any], dict[str, Any]], tuple[list[Any], dict[str, Any]]]
    #: What its host threads are counted by (the callable it was made from): the same
    #: function offered to many runs shares one per-tool thread budget.
    key: object = None
    #: Run on the thread running the guest (a sync tool made with `tool(inline=True)`).
    inline: bool = False

    def __post_init__(self) -> None:
        if self.key is None:
            self.key = self.function

    def manifest(self) -> dict[str, Any]:
        """What the guest needs to build the stub."""
        return {
            "name": self.name, "doc": self.description,
            "params": [[p.name, p.kind, p.default_json, p.has_default] for p in self.params],
        }


def tool_from_callable(function: Callable[..., Any], name: str | None = None) -> Tool:
    """A Tool for a Python function (its name, signature, type hints and docstring)."""
    if not callable(function):
        raise InvalidRequestError(f"a tool must be callable, not {type(function).__name__}",
                                  field="tools")
    own_name: str = getattr(function, "__name__", "")
    tool_name = name or own_name
    check_name(tool_name, "tool name")
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError) as error:
        raise InvalidRequestError(f"tool {tool_name!r} has no signature ({error})",
                                  field="tools") from None
    params = tuple(_param(tool_name, p) for p in signature.parameters.values())
    try:
        validated = pydantic.validate_call(function)
    except pydantic.PydanticUserError as error:
        raise InvalidRequestError(f"tool {tool_name!r}: {error}", field="tools") from None

    validate = _binder(signature, params)

    try:
        hash(function)
        key: object = function
    except TypeError:  # an unhashable callable object: counted by its identity
        key = id(function)
    tool = Tool(tool_name, validated, inspect.getdoc(function) or "", params,
                inspect.iscoroutinefunction(function), validate, key)
    return tool


def tool(function: Callable[..., Any], *, name: str | None = None,
         inline: bool = False) -> Tool:
    """A host tool made from `function` (its name, signature, type hints and docstring), for
    `tools=` where a plain callable is not enough: another `name`, or `inline=True`.

    An inline tool runs on the thread that runs the guest, without the hand-off to a worker
    thread and back (~0.1 ms a call on a 2-core VM): for tools that answer at once and never
    block (lookups in memory, arithmetic). Nothing can stop it while it runs: no
    `tool_timeout_ms`, no interrupt, and the run's deadline is checked when it returns (the
    run then ends as timed out). A sandbox run it starts is refused (RuntimeError in the
    guest). Async functions cannot be inline (InvalidRequestError)."""
    made = tool_from_callable(function, name)
    if inline:
        if made.is_async:
            raise InvalidRequestError(f"tool {made.name!r} is async: only a sync tool can be "
                                      "inline", field="tools")
        made.inline = True
    return made


def check_name(name: str, what: str) -> None:
    if not _NAME.match(name) or keyword.iskeyword(name) or name in ("ToolError",):
        raise InvalidRequestError(
            f"{what} {name!r} must be an identifier of at most 64 characters, not starting "
            "with an underscore, and not a Python keyword", field="tools")


def _binder(signature: inspect.Signature, params: tuple[Param, ...]
            ) -> Callable[[list[Any], dict[str, Any]], tuple[list[Any], dict[str, Any]]]:
    """A check that (args, kwargs) bind to `signature`: `Signature.bind`'s TypeError for
    missing, unexpected or duplicate arguments. A signature of plain parameters (no
    positional-only, keyword-only or variadic ones: most tools) is checked with set
    arithmetic first, and `bind` runs only for what that does not accept."""
    names = tuple(p.name for p in params)
    plain = all(p.kind == "POSITIONAL_OR_KEYWORD" for p in params)
    required = frozenset(p.name for p in params if not p.has_default)

    def validate(args: list[Any], kwargs: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
        if plain and len(args) <= len(names):
            by_position = names[:len(args)]
            if (kwargs.keys() <= set(names[len(args):])
                    and required <= kwargs.keys() | set(by_position)):
                return args, kwargs
        signature.bind(*args, **kwargs)  # TypeError: missing, unexpected or duplicate
        return args, kwargs

    return validate


def _param(tool_name: str, parameter: inspect.Parameter) -> Param:
    check_name(parameter.name, f"parameter of tool {tool_name!r}")
    default_json = None
    has_default = parameter.default is not inspect.Parameter.empty
    if has_default:
        try:
            default_json = json.dumps(parameter.default, allow_nan=False)
        except (TypeError, ValueError):
            default_json = None  # shown as `...` in the guest; the host applies it
    return Param(parameter.name, parameter.kind.name, default_json, has_default)


#: What `tools=` accepts: callables (or Tools), or a name -> callable mapping.
ToolsLike = Iterable[Callable[..., Any] | Tool] | Mapping[str, Callable[..., Any]]


def build_tools(tools: ToolsLike | None) -> dict[str, Tool]:
    """Tools by name from callables (or a name -> callable mapping), names unique."""
    if tools is None:
        return {}
    items: Iterable[tuple[str | None, Any]] = (
        tools.items() if isinstance(tools, Mapping) else ((None, tool) for tool in tools))
    built: dict[str, Tool] = {}
    for name, item in items:
        tool = item if isinstance(item, Tool) else tool_from_callable(item, name)
        if tool.name in built:
            raise InvalidRequestError(f"two tools are named {tool.name!r}", field="tools")
        built[tool.name] = tool
    return built


@dataclass(frozen=True)
class ToolLimits:
    """Bounds on one run's tool calls."""

    max_calls: int = 100
    max_bytes: int = 1 << 20
    timeout_s: float = 10.0


@dataclass
class ToolCallRecord:
    name: str
    duration_ms: float
    ok: bool
    error: str | None = None


class _Loop:
    """The event loop async tools run on (one daemon thread, created on first use)."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def submit(self, coroutine: Any) -> concurrent.futures.Future[Any]:
        """Run `coroutine` on the loop; its result as a future this thread can wait on."""
        import asyncio  # here, not at the top: `import sandbox_wasm` stays fast

        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="sandbox-wasm-tools-loop",
                                 daemon=True).start()
                self._loop = loop
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop)


_loop = _Loop()

# Sync tools run here, never on the thread that runs the guest: a tool that itself runs a
# sandbox execution gets a thread (and per-run state) of its own.
WORKER_THREADS = 32
#: Threads one tool may hold at once, counting its calls that timed out but still run (a
#: thread cannot be stopped): a tool that hangs pins at most this many, the others keep the
#: rest of the pool.
MAX_THREADS_PER_TOOL = WORKER_THREADS // 4
_workers: concurrent.futures.ThreadPoolExecutor | None = None
_workers_lock = threading.Lock()


def _worker_pool() -> concurrent.futures.ThreadPoolExecutor:
    """The pool sync tools run on, created by the first call of one (`import sandbox_wasm`
    and runs without tools do not import concurrent.futures: start-up counts)."""
    global _workers
    with _workers_lock:
        if _workers is None:
            import concurrent.futures

            _workers = concurrent.futures.ThreadPoolExecutor(
                max_workers=WORKER_THREADS, thread_name_prefix="sandbox-wasm-tool")
        return _workers


class _ThreadBudget:
    """The host threads sync tools hold, process-wide and per tool. A slot is taken before
    a call is submitted and given back only when the call returns, also long after its
    caller timed out, so the pool can never be asked for more threads than it has and no
    call waits in its queue."""

    def __init__(self, total: int, per_tool: int) -> None:
        self._lock = threading.Condition()
        self.total = total
        self.per_tool = per_tool
        self.in_use = 0
        #: Calls whose caller gave up waiting and that still hold their thread.
        self.abandoned = 0
        self._by_tool: dict[object, int] = {}

    def acquire(self, key: object, timeout: float) -> bool:
        """Take a slot for a call of the tool `key`, waiting at most `timeout` seconds."""
        with self._lock:
            return self._lock.wait_for(
                lambda: self.in_use < self.total and self._by_tool.get(key, 0) < self.per_tool,
                timeout=max(timeout, 0.0),
            ) and self._take(key)

    def _take(self, key: object) -> bool:
        self.in_use += 1
        self._by_tool[key] = self._by_tool.get(key, 0) + 1
        return True

    def release_when_done(self, key: object, future: concurrent.futures.Future[Any]) -> None:
        future.add_done_callback(lambda _future: self.give_back(key))

    def abandon(self, future: concurrent.futures.Future[Any]) -> None:
        """The caller of `future` stopped waiting; the thread stays taken until it returns."""
        with self._lock:
            self.abandoned += 1
        future.add_done_callback(lambda _future: self._forget_abandoned())

    def _forget_abandoned(self) -> None:
        with self._lock:
            self.abandoned -= 1

    def give_back(self, key: object) -> None:
        """Return the slot of a call of `key` (when it returned, or was never started)."""
        with self._lock:
            self.in_use -= 1
            left = self._by_tool[key] - 1
            if left:
                self._by_tool[key] = left
            else:
                del self._by_tool[key]
            self._lock.notify_all()

    def held_by(self, key: object) -> int:
        with self._lock:
            return self._by_tool.get(key, 0)


_threads = _ThreadBudget(WORKER_THREADS, MAX_THREADS_PER_TOOL)


def tool_thread_usage() -> tuple[int, int, int]:
    """Host threads held by sync tool calls now, those of them whose caller timed out, and
    the process-wide cap (reported by the gateway's /metrics)."""
    return _threads.in_use, _threads.abandoned, _threads.total


@dataclass
class ToolChannel:
    """One run's side of the tool channel: requests in, answers out, the calls recorded."""

    tools: Mapping[str, Tool]
    limits: ToolLimits
    #: Seconds left before the run's deadline (read at each call).
    time_left: Callable[[], float]
    #: Whether the run has been interrupted (polled while a tool works).
    interrupted: Callable[[], bool] = lambda: False
    calls: list[ToolCallRecord] = field(default_factory=list)
    _answer: bytes = b""
    _busy: bool = False
    #: This run's timed-out sync call still running, if any: one at a time per run.
    _stuck: concurrent.futures.Future[Any] | None = None

    def refuse_oversized(self, length: int) -> None:
        """A request too large to read: answered with an error, its bytes never copied."""
        self._answer = _frame(_error("ValueError", f"tool arguments are {length} bytes, over "
                                     f"the limit of {self.limits.max_bytes}"))

    def write(self, request: bytes) -> None:
        """Handle one request (one whole write); the answer waits for `read`."""
        if self._busy:  # a tool cannot be re-entered while one runs
            self._answer = _frame(_error("RuntimeError", "a tool call is already running"))
            return
        self._busy = True
        try:
            self._answer = _frame(self._call(request))
        finally:
            self._busy = False

    def read(self, length: int) -> bytes:
        chunk, self._answer = self._answer[:length], self._answer[length:]
        return chunk

    def take_answer(self, limit: int) -> bytes:
        """The waiting answer without its frame, taken whole when it is at most `limit`
        bytes (the guest's answer area); b"" when it is longer and stays to be read."""
        body = memoryview(self._answer)[ANSWER_LENGTH_BYTES:]
        if len(body) > limit:
            return b""
        self._answer = b""
        return bytes(body)

    def _call(self, request: bytes) -> dict[str, Any]:
        if len(request) > self.limits.max_bytes:
            return _error("ValueError", f"tool arguments are {len(request)} bytes, over the "
                          f"limit of {self.limits.max_bytes}")
        try:
            message = json.loads(request)
            name, args, kwargs = message["tool"], message["args"], message["kwargs"]
            # Nesting deeper than the limit takes at least two bytes a level.
            too_deep = len(request) > 2 * MAX_JSON_DEPTH and _depth(message) > MAX_JSON_DEPTH
            if not (isinstance(name, str) and isinstance(args, list)
                    and isinstance(kwargs, dict)) or too_deep:
                raise ValueError("malformed")
        except (ValueError, KeyError, TypeError, RecursionError):
            return _error("ValueError", "a tool request must be JSON: {tool, args, kwargs}, "
                          f"nested at most {MAX_JSON_DEPTH} deep")
        tool = self.tools.get(name)
        if tool is None:
            return _error("NameError", f"no tool named {name[:100]!r}")
        if len(self.calls) >= self.limits.max_calls:
            return _error("RuntimeError", f"this run may call tools at most "
                          f"{self.limits.max_calls} times")
        started = time.perf_counter()
        answer = self._run(tool, args, kwargs)
        error = answer.get("error")
        self.calls.append(ToolCallRecord(
            name, round((time.perf_counter() - started) * 1000, 3), error is None,
            error["type"] if error else None))
        return answer

    def _run(self, tool: Tool, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        try:
            tool.validate(args, kwargs)
        except (TypeError, ValueError) as error:
            return _error(type(error).__name__, f"{tool.name}(): {_message(error)}")
        timeout = min(self.limits.timeout_s, self.time_left())
        if timeout <= 0:
            return _error("TimeoutError", "the run's deadline has passed")
        if tool.inline:
            return self._run_inline(tool, args, kwargs)
        if tool.is_async:
            future = _loop.submit(_awaited(tool.function, args, kwargs))
        else:
            if self._stuck is not None and not self._stuck.done():
                return _error("RuntimeError", "an earlier tool call of this run timed out and "
                              "is still running on the host")
            waited = time.monotonic()
            if not _threads.acquire(tool.key, timeout):
                held = _threads.held_by(tool.key)
                why = (f"{held} calls of tool {tool.name!r} still hold host threads (at most "
                       f"{_threads.per_tool} at once)" if held >= _threads.per_tool else
                       f"all {_threads.total} host threads for tools are taken")
                return _error("RuntimeError", f"no host thread free for tool {tool.name!r} "
                              f"within {timeout:.3g} s: {why}; try again later")
            timeout -= time.monotonic() - waited
            try:
                future = _worker_pool().submit(_call_sync, tool.function, args, kwargs)
            except RuntimeError:  # the pool is shut down: the process is exiting
                _threads.give_back(tool.key)
                return _error("RuntimeError", "the host is shutting down")
            _threads.release_when_done(tool.key, future)
        try:
            value = self._wait(future, timeout)
        except (_TimedOut, _Interrupted) as error:
            if not future.cancel() and not tool.is_async:
                self._stuck = future  # a running thread cannot be stopped: it keeps its slot
                _threads.abandon(future)
            if isinstance(error, _Interrupted):
                return _error("RuntimeError", "the run was interrupted")
            return _error("TimeoutError", f"tool {tool.name!r} did not answer within "
                          f"{timeout:.3g} s")
        except Exception as error:
            return _failure(tool, error)
        return _answer(tool, value, self.limits.max_bytes)

    def _run_inline(self, tool: Tool, args: list[Any], kwargs: dict[str, Any]
                    ) -> dict[str, Any]:
        """Run a sync tool on this thread, the one running the guest (a sandbox run the
        tool starts here is refused: `LiveInstance.call`)."""
        try:
            value = _call_sync(tool.function, args, kwargs)
        except Exception as error:
            return _failure(tool, error)
        return _answer(tool, value, self.limits.max_bytes)


    def _wait(self, future: concurrent.futures.Future[Any], timeout: float) -> Any:
        """The tool's answer within `timeout` seconds, looking at the run's interrupt
        every `INTERRUPT_POLL_S` (raises _TimedOut, or _Interrupted; what the tool raised,
        a TimeoutError of its own included, is raised as it is)."""
        until = time.monotonic() + max(timeout, 0.0)
        while True:
            if future.done():
                return future.result()
            if self.interrupted():
                raise _Interrupted
            left = until - time.monotonic()
            try:
                return future.result(timeout=max(min(left, INTERRUPT_POLL_S), 0.0))
            except TimeoutError:
                # The wait's own timeout, or the tool's TimeoutError: the loop's first
                # line tells them apart (a future that is done raised it).
                if left <= INTERRUPT_POLL_S and not future.done():
                    raise _TimedOut from None


def _failure(tool: Tool, error: Exception) -> dict[str, Any]:
    """The answer for what a call of `tool` raised: a bad argument as its validation
    message, anything else as the tool's own failure, by type name and message."""
    if isinstance(error, _ToolExit):
        return _error(error.kind, error.message)
    if isinstance(error, pydantic.ValidationError):
        return _error("ValueError", f"{tool.name}(): " + _validation_message(error))
    return _error(type(error).__name__, _message(error))


def _too_deep(tool: Tool) -> dict[str, Any]:
    return _error("ValueError", f"tool {tool.name!r} answered a value nested more than "
                  f"{MAX_JSON_DEPTH} deep")


def _answer(tool: Tool, value: Any, max_bytes: int) -> dict[str, Any]:
    """The answer carrying `value`, a tool's result: JSON within the bounds, else an
    error."""
    try:
        if _depth(value) > MAX_JSON_DEPTH:  # before pydantic walks it
            return _too_deep(tool)
        jsonable = to_jsonable_python(value)
        if _depth(jsonable) > MAX_JSON_DEPTH:
            return _too_deep(tool)
        encoded = _ANSWER_ENCODER.encode({"result": jsonable})
    except RecursionError:
        return _too_deep(tool)
    except (TypeError, ValueError, PydanticSerializationError) as error:
        return _error("TypeError", f"tool {tool.name!r} returned a value that is not "
                      f"JSON ({_message(error)})")
    if len(encoded) > max_bytes:
        return _error("ValueError", f"tool {tool.name!r} answered {len(encoded)} bytes, "
                      f"over the limit of {max_bytes}")
    return {"raw": encoded}


#: How often a run waiting for a tool looks whether it has been interrupted.
INTERRUPT_POLL_S = 0.01


class _Interrupted(Exception):
    """The run waiting for a tool was interrupted."""


class _TimedOut(Exception):
    """The tool did not answer within its time (not a TimeoutError the tool raised)."""


class _ToolExit(Exception):
    """A tool raised what is not an `Exception` (`SystemExit` from argparse,
    `KeyboardInterrupt`, ...): carried back as the tool's failure, so that it reaches the
    guest as an exception like any other and never unwinds the host's own thread."""

    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self.kind = type(error).__name__
        self.message = f"tool raised {self.kind}" + (f": {_message(error)}" if error.args
                                                      else "")


def _call_sync(function: Callable[..., Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
    try:
        return function(*args, **kwargs)
    except Exception:
        raise
    except BaseException as error:
        raise _ToolExit(error) from None


async def _awaited(function: Callable[..., Any], args: list[Any], kwargs: dict[str, Any]
                   ) -> Any:
    import asyncio

    try:
        return await function(*args, **kwargs)
    except (Exception, asyncio.CancelledError):
        raise
    except BaseException as error:  # would otherwise stop the tools' event loop
        raise _ToolExit(error) from None


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_JSON_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


# Host paths in a tool's error message are replaced: the guest learns what failed, not where
# the host keeps it. A path is a quoted string that starts like one (/, ~, a drive), or an
# unquoted word that does, with the words after it that hold a separator (a path with
# spaces). Any character may be in a path, so this errs towards redacting more.
_PATH_START = r"(?:[A-Za-z]:[\\/]|~[/\\]|/(?=[^\s/]))"
_QUOTED_PATH = re.compile(r"""(['"])""" + _PATH_START + r"""(?:(?!\1).)*\1""")
# After a path's first word, the words that hold a separator or look like a file name
# (`secret token.txt`) belong to it too.
_BARE_PATH = re.compile(
    r"(?:^|(?<=[\s(\[=,:;<>]))" + _PATH_START + r"[^\s'\"]*"
    r"(?: (?:[^\s'\"/\\]*[/\\][^\s'\"]*|[\w-]+\.[A-Za-z0-9]{1,8}\b))*"
)


def redact_paths(text: str) -> str:
    """`text` with every host path in it replaced by `<path>`."""
    text = _QUOTED_PATH.sub(lambda m: f"{m.group(1)}<path>{m.group(1)}", text)
    return _BARE_PATH.sub("<path>", text)


def _message(error: BaseException) -> str:
    try:
        if isinstance(error, KeyError) and len(error.args) == 1:
            text = str(error.args[0])  # str(KeyError) quotes its key
        elif isinstance(error, OSError) and error.strerror:
            text = error.strerror  # without the file name
        else:
            text = str(error)
    except Exception:
        return "<unprintable>"
    return redact_paths(text)[:1000]


def _validation_message(error: pydantic.ValidationError) -> str:
    parts = []
    for item in error.errors()[:5]:
        where = ".".join(str(p) for p in item.get("loc", ())) or "arguments"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    return "; ".join(parts)[:1000]


def _error(kind: str, message: str) -> dict[str, Any]:
    return {"error": {"type": kind[:100], "message": message[:1000]}}


def _frame(answer: dict[str, Any]) -> bytes:
    return frame(answer["raw"].encode() if "raw" in answer else json.dumps(answer).encode())
