"""Output as the guest writes it: the `on_output=` callback of a run, and the sync and async
iterators (`Sandbox.stream`, `Session.stream`, their `_async` forms) built on it.

A run calls its `on_output` on the thread that runs the guest, inside the guest's write, so
chunks arrive in the order the code wrote them across stdout and stderr. The iterators run
the call on a worker (a thread of their own, or the event loop's default executor) and hand
each chunk over through a queue; the queue needs no bound of its own, because only what the
output caps keep is passed on (at most `max_stdout_bytes + max_stderr_bytes` of text a run).
Closing an iterator early (a `break`, a cancelled task) interrupts the run and waits for it
to stop: nothing runs on behind the caller's back.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import TYPE_CHECKING, Literal

from ._errors import InvalidRequestError
from ._models import ExecutionResult, OutputChunk, construct

if TYPE_CHECKING:
    import asyncio

    from ._host.hostcall import Interrupt

#: What the iterators yield: the output's chunks, then the result (always last).
StreamItem = OutputChunk | ExecutionResult

#: Worker threads `stream()` may run at once in a process; more iterators wait for one.
MAX_STREAM_THREADS = 64
_stream_threads = threading.BoundedSemaphore(MAX_STREAM_THREADS)


class OutputForwarder:
    """A run's `on_output`: each piece of output as an `OutputChunk` to the caller's
    callback. An exception from the callback stops forwarding and interrupts the run (set
    `cancel`); `raise_error()` raises it again once the run has stopped."""

    def __init__(self, callback: Callable[[OutputChunk], object],
                 cancel: Interrupt) -> None:
        if not callable(callback):
            raise InvalidRequestError("on_output must be callable", field="on_output")
        self._callback = callback
        self._cancel = cancel
        self.error: BaseException | None = None

    def __call__(self, stream: Literal["stdout", "stderr"], text: str) -> None:
        if self.error is not None:
            return
        try:
            self._callback(construct(OutputChunk, stream=stream, text=text))
        except BaseException as exc:  # raised again on the caller's thread, after the run
            self.error = exc
            self._cancel.set()

    def raise_error(self) -> None:
        if self.error is not None:
            raise self.error


def _cancel_event(options: dict[str, object]) -> threading.Event:
    cancel = options.pop("cancel", None)
    if cancel is None:
        return threading.Event()
    if not isinstance(cancel, threading.Event):
        raise InvalidRequestError("cancel must be a threading.Event", field="cancel")
    return cancel


class _Failed:
    """The call raised: its exception, handed from the worker to the iterator."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _unwrapped(item: OutputChunk | ExecutionResult | _Failed) -> StreamItem:
    """The item to yield; the call's exception raised instead of its stand-in."""
    if isinstance(item, _Failed):
        raise item.error
    return item


def stream_in_thread(execute: Callable[..., ExecutionResult], code: str | bytes,
                     options: dict[str, object]) -> Iterator[StreamItem]:
    """`execute(code, **options)` on a worker thread, yielding its output's chunks as they
    come and then its result. The call's own errors (invalid input) are raised here."""
    if "on_output" in options:
        raise InvalidRequestError("stream() makes its own on_output", field="on_output")
    cancel = _cancel_event(options)
    items: queue.SimpleQueue[OutputChunk | ExecutionResult | _Failed] = queue.SimpleQueue()

    def work() -> None:
        try:
            items.put(execute(code, cancel=cancel, on_output=items.put, **options))
        except BaseException as exc:  # raised again by the iterator
            items.put(_Failed(exc))
        finally:
            _stream_threads.release()

    _stream_threads.acquire()
    worker = threading.Thread(target=work, name="sandbox-wasm-stream", daemon=True)
    try:
        worker.start()
    except BaseException:
        _stream_threads.release()
        raise
    finished = False
    try:
        while not finished:
            item = items.get()
            finished = isinstance(item, (ExecutionResult, _Failed))
            yield _unwrapped(item)
    finally:
        if not finished:
            cancel.set()  # the caller stopped listening: stop the run too
        worker.join()


async def stream_in_task(execute: Callable[..., ExecutionResult], code: str | bytes,
                         options: dict[str, object]) -> AsyncIterator[StreamItem]:
    """`stream_in_thread` for asyncio: the call runs in the loop's default executor; closing
    the iterator or cancelling the task that reads it interrupts the run."""
    if "on_output" in options:
        raise InvalidRequestError("stream_async() makes its own on_output", field="on_output")
    import asyncio  # here, not at the top: `import sandbox_wasm` stays fast

    cancel = _cancel_event(options)
    loop = asyncio.get_running_loop()
    items: asyncio.Queue[OutputChunk | ExecutionResult | _Failed] = asyncio.Queue()

    def hand_over(item: OutputChunk | ExecutionResult | _Failed) -> None:
        loop.call_soon_threadsafe(items.put_nowait, item)

    def work() -> None:
        # The result goes through the queue too, after every chunk scheduled before it.
        try:
            hand_over(execute(code, cancel=cancel, on_output=hand_over, **options))
        except BaseException as exc:  # raised again by the iterator
            hand_over(_Failed(exc))

    run = loop.run_in_executor(None, work)
    finished = False
    try:
        while not finished:
            item = await items.get()
            finished = isinstance(item, (ExecutionResult, _Failed))
            yield _unwrapped(item)
    finally:
        if not finished:
            cancel.set()
        await asyncio.shield(run)
