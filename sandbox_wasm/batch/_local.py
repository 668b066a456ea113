"""The local batch backend: worker processes on this machine, each with its own warm
Sandbox, fed up to PIPELINE_DEPTH requests ahead (the next one waits in its pipe while it
runs one, so it never idles while we read an answer); a worker runs its requests in order,
so a death is still pinned on exactly one request, the one it was running.

Workers are plain `python -c` subprocesses speaking length-prefixed JSON over stdin/stdout,
not multiprocessing children: they never re-import the caller's __main__ (so a script
without an `if __name__ == "__main__"` guard works), and a worker that dies is seen at once
as end-of-file on its pipe.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import struct
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from .._errors import RuntimeIntegrityError, RuntimeNotFoundError, SandboxError
from .._models import RuntimeInfo
from ._items import BatchResult, Job, RuntimeBook, internal_error
from ._worker import WorkerReply, new_sandbox, run_request, runtime_infos, to_result

# A worker that has not answered this long after its request's own deadline is presumed
# hung and is killed (the request is then retried once like after a crash). The margin
# covers the audit's own 10 s budget, JavaScript's syntax check and a loaded machine.
HANG_MARGIN_S = 60.0
# A new worker loads (first time on a machine: compiles) the runtime before its first item.
STARTUP_TIMEOUT_S = 300.0
# Requests sent to a worker and not answered yet: the one it runs and the next ones, waiting
# in its pipe. Sent one at a time, a worker idled while we decoded its answer and sent the
# next request: tiny requests ran at ~half the rate two independent processes reach
# (print('hi') on 2 cores: 1 in flight ~1,130/s, 2 ~1,380/s, 4 ~1,450/s, 8 ~1,550/s, worker
# start-up included). The requests queued behind a slow one wait for it, so a worker whose
# last request took QUICK_S or longer gets one request at a time until one is quick again.
PIPELINE_DEPTH = 8
QUICK_S = 0.02

_FRAME = struct.Struct(">I")
_WORKER_BOOT = (
    "import sys; sys.path.insert(0, {path!r}); "
    "from sandbox_wasm.batch._local import worker_main; worker_main()"
)
_ERRORS_BY_NAME: dict[str, type[SandboxError]] = {
    cls.__name__: cls for cls in (RuntimeNotFoundError, RuntimeIntegrityError, SandboxError)
}


def package_parent_dir() -> Path:
    """The directory holding the sandbox_wasm package, which a worker puts on sys.path (this
    file is sandbox_wasm/batch/_local.py). The package's own directory there would make its
    _json.py shadow the standard library's C accelerator `_json` in every worker."""
    return Path(__file__).resolve().parents[2]


class _ReplyFrame(BaseModel):
    """A worker's answer frame, encoded and parsed by pydantic-core in one step (a dict
    through `json` and then validated cost the driver ~3x more per request)."""

    reply: WorkerReply


def _write_frame(stream: Any, data: dict[str, Any] | bytes) -> None:
    body = data if isinstance(data, bytes) else json.dumps(data).encode("utf-8")
    stream.write(_FRAME.pack(len(body)) + body)
    stream.flush()


def _read_body(stream: Any) -> bytes | None:
    header = stream.read(_FRAME.size)
    if len(header) < _FRAME.size:
        return None
    (size,) = _FRAME.unpack(header)
    body = stream.read(size)
    return body if len(body) == size else None


def _read_frame(stream: Any) -> dict[str, Any] | None:
    body = _read_body(stream)
    return None if body is None else json.loads(body)


def worker_main() -> None:
    """Entry point of a local batch worker process: one warm Sandbox serving requests
    read from stdin until end-of-file."""
    import signal

    # Ctrl-C in a terminal reaches the whole process group; the parent decides what stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    replies = os.fdopen(os.dup(1), "wb")
    # Anything else printed to stdout (a library warning, say) must not corrupt the frames.
    os.dup2(2, 1)
    requests = sys.stdin.buffer
    hello = _read_frame(requests)
    if hello is None:
        os._exit(0)
    try:
        sandbox = new_sandbox(hello["setup"])
        infos = {k: v.model_dump(mode="json") for k, v in runtime_infos(sandbox).items()}
        _write_frame(replies, {"ready": infos})
    except Exception as exc:
        _write_frame(replies, {"fatal": [type(exc).__name__, str(exc)]})
        os._exit(1)
    # Requests are read on a thread of their own, so the driver's writes never wait for us
    # to finish writing an answer: with both pipes full, each side would wait on the other
    # for ever. What the thread holds is bounded by the driver, which never has more than
    # PIPELINE_DEPTH requests unanswered.
    pending: queue.SimpleQueue[dict[str, Any] | None] = queue.SimpleQueue()

    def read_requests() -> None:
        while (request := _read_frame(requests)) is not None:
            pending.put(request)
        pending.put(None)

    threading.Thread(target=read_requests, name="sandbox-wasm-batch-requests",
                     daemon=True).start()
    while (payload := pending.get()) is not None:
        reply = _ReplyFrame(reply=run_request(sandbox, payload))
        _write_frame(replies, reply.model_dump_json().encode("utf-8"))
    replies.flush()
    # Skip interpreter teardown: wasmtime's threads can print a Rust panic while Python
    # finalises, and the OS reclaims everything else.
    os._exit(0)


class _WorkerDied(Exception):
    pass


class _Fatal:
    """A worker could not start at all (missing runtime, say): the whole batch stops."""

    def __init__(self, error: Exception) -> None:
        self.error = error


_STOP = object()


@dataclass
class _Worker:
    """One worker process, and when its current request is presumed hung."""

    process: subprocess.Popen[bytes]
    deadline: float | None = None
    busy: bool = False
    hung: bool = False

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()


class LocalPool:
    """Worker processes on this machine, each with its own warm Sandbox, each fed by a
    thread of ours that keeps up to PIPELINE_DEPTH requests in its pipe (run in order, so a
    death is pinned on the one it was running). Workers are started as work arrives, up to
    `workers`."""

    def __init__(self, workers: int, setup: str) -> None:
        self._max_workers = workers
        self._setup = setup  # the workers' policy and runtime (`worker_setup`)
        self._jobs: queue.Queue[Any] = queue.Queue()
        self._results: queue.Queue[tuple[int, BatchResult] | _Fatal] = queue.Queue()
        self._runtimes = RuntimeBook()
        self._threads: list[threading.Thread] = []
        self._workers: list[_Worker] = []
        self._lock = threading.Lock()
        self._idle = 0
        self._closing = False
        self._watchdog: threading.Thread | None = None

    # -- public to the driver --
    def submit(self, job: Job) -> None:
        self._jobs.put(job)
        with self._lock:
            grow = (
                len(self._threads) < self._max_workers and self._jobs.qsize() > self._idle
            )
            if grow:
                self._idle += 1  # the new feeder counts as idle until it takes a job
        if grow:
            self._start_feeder()

    def wait(self) -> list[tuple[int, BatchResult]]:
        got = [self._results.get()]
        with contextlib.suppress(queue.Empty):
            while True:
                got.append(self._results.get_nowait())
        results: list[tuple[int, BatchResult]] = []
        for item in got:
            if isinstance(item, _Fatal):
                raise item.error
            results.append(item)
        return results

    def close(self, abort: bool) -> None:
        self._closing = True
        if abort:
            with contextlib.suppress(queue.Empty):
                while True:
                    self._jobs.get_nowait()
            with self._lock:
                workers = list(self._workers)
            for worker in workers:
                worker.kill()
        for _ in self._threads:
            self._jobs.put(_STOP)
        for thread in self._threads:
            thread.join(timeout=10)

    def busy_worker_pids(self) -> list[int]:
        """Process ids of the workers running a request right now."""
        with self._lock:
            return [w.process.pid for w in self._workers if w.busy]

    # -- workers --
    def _start_feeder(self) -> None:
        thread = threading.Thread(target=self._feed, name="sandbox-wasm-batch", daemon=True)
        self._threads.append(thread)
        thread.start()
        if self._watchdog is None:
            self._watchdog = threading.Thread(
                target=self._watch, name="sandbox-wasm-batch-watchdog", daemon=True
            )
            self._watchdog.start()

    def _spawn(self) -> _Worker:
        package_parent = str(package_parent_dir())
        process = subprocess.Popen(
            [sys.executable, "-c", _WORKER_BOOT.format(path=package_parent)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )
        worker = _Worker(process, deadline=time.monotonic() + STARTUP_TIMEOUT_S)
        with self._lock:
            self._workers.append(worker)
        try:
            _write_frame(process.stdin, {"setup": self._setup})
            reply = _read_frame(process.stdout)
        except OSError:
            reply = None
        worker.deadline = None
        if reply is None:
            self._retire(worker)
            raise _WorkerDied(f"a worker process exited during start-up ({_exit_text(worker)})")
        if "fatal" in reply:
            self._retire(worker)
            name, message = reply["fatal"]
            raise _ERRORS_BY_NAME.get(name, SandboxError)(message)
        self._runtimes.learn(
            {k: RuntimeInfo.model_validate(v) for k, v in reply["ready"].items()}
        )
        return worker

    def _spawn_or_retry(self) -> _Worker:
        try:
            return self._spawn()
        except _WorkerDied:
            return self._spawn()

    def _retire(self, worker: _Worker) -> None:
        worker.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.process.wait(timeout=10)
        for stream in (worker.process.stdin, worker.process.stdout):
            with contextlib.suppress(OSError):
                if stream is not None:  # always: stdin and stdout are pipes
                    stream.close()
        with self._lock:
            if worker in self._workers:
                self._workers.remove(worker)

    def _feed(self) -> None:
        worker: _Worker | None = None
        sent: collections.deque[Job] = collections.deque()  # in `worker`'s pipe, in order
        stopping = False
        depth = PIPELINE_DEPTH
        try:
            while True:
                # Keep the worker's pipe filled; wait for work only when it holds none.
                while not stopping and len(sent) < depth:
                    try:
                        job = self._jobs.get() if not sent else self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    with self._lock:
                        self._idle -= 1
                    if job is _STOP:
                        stopping = True
                        break
                    if worker is None:
                        worker = self._spawn_or_retry()
                    self._send(worker, job)
                    sent.append(job)
                if not sent:
                    break
                assert worker is not None
                waited = time.monotonic()
                worker, index, result = self._answer(worker, sent)
                depth = PIPELINE_DEPTH if time.monotonic() - waited < QUICK_S else 1
                self._finished(index, result)
                if worker is None and sent:
                    # The worker is gone; the jobs it never started go to a fresh one.
                    if self._closing:
                        while sent:
                            job = sent.popleft()
                            self._finished(job.index, internal_error(
                                job, "the batch stopped before this request ran", None))
                    else:
                        worker = self._spawn_or_retry()
                        for waiting in sent:
                            self._send(worker, waiting)
        except _WorkerDied as exc:
            self._results.put(_Fatal(SandboxError(f"batch workers cannot start: {exc}")))
        except Exception as exc:
            self._results.put(_Fatal(exc))
        finally:
            if worker is not None:
                with contextlib.suppress(OSError):
                    if worker.process.stdin is not None:  # always: a pipe
                        worker.process.stdin.close()
                try:
                    worker.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    worker.kill()
                self._retire(worker)

    def _finished(self, index: int, result: BatchResult) -> None:
        self._results.put((index, result))
        with self._lock:
            self._idle += 1

    @staticmethod
    def _send(worker: _Worker, job: Job) -> None:
        """Put `job` in the worker's pipe (a worker that died is found by the next read).
        The worker drains its pipe on a thread of its own, so this returns promptly; the
        watchdog still covers the write, as it covers every wait on a worker."""
        waiting_for_answer = worker.deadline is not None
        if not waiting_for_answer:
            worker.deadline = time.monotonic() + HANG_MARGIN_S
        try:
            with contextlib.suppress(OSError):
                _write_frame(worker.process.stdin, job.payload())
        finally:
            if not waiting_for_answer:
                worker.deadline = None

    def _answer(
        self, worker: _Worker, sent: collections.deque[Job]
    ) -> tuple[_Worker | None, int, BatchResult]:
        """The result of the first job in `sent` (it leaves `sent`), and the worker to go on
        with (None: it is gone). If the worker dies running the job, the job is retried once
        on a fresh worker, and the jobs behind it, which the dead one never started, are
        sent to that one too."""
        while True:
            job = sent[0]
            timeout_s = job.timeout_s
            worker.deadline = time.monotonic() + timeout_s + HANG_MARGIN_S
            worker.busy = True
            try:
                body = _read_body(worker.process.stdout)
            except OSError:
                body = None
            worker.busy = False
            worker.deadline = None
            if body is not None:
                sent.popleft()
                answer = _ReplyFrame.model_validate_json(body).reply
                return worker, job.index, to_result(job, answer, self._runtimes)
            why = (
                f"did not answer within {timeout_s + HANG_MARGIN_S:.0f} s and was stopped"
                if worker.hung else f"died ({_exit_text(worker)})"
            )
            self._retire(worker)
            if self._closing:
                sent.popleft()
                return None, job.index, internal_error(
                    job, f"the batch stopped: the worker {why}", None)
            job.attempts += 1
            if job.attempts > 1:
                message = (
                    f"the worker running this request {why}, twice (retried once on a "
                    "fresh worker)"
                )
                sent.popleft()
                return None, job.index, internal_error(
                    job, message, self._runtimes.get(job.language))
            worker = self._spawn_or_retry()
            for waiting in sent:
                self._send(worker, waiting)

    def _watch(self) -> None:
        while not self._closing:
            now = time.monotonic()
            with self._lock:
                workers = list(self._workers)
            for worker in workers:
                deadline = worker.deadline
                if deadline is not None and now > deadline:
                    worker.hung = True
                    worker.kill()
            time.sleep(0.5)


def _exit_text(worker: _Worker) -> str:
    try:
        code = worker.process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        return "still running"
    if code < 0:
        return f"killed by signal {-code}"
    return f"exit status {code}"


