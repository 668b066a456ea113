"""Prometheus metrics of the gateway, in a registry of its own (one per app)."""

from __future__ import annotations

import typing
from collections.abc import Callable

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from ..._models import ExecutionResult, Status
from ..._tools import tool_thread_usage
from ..state.budget import ByteBudget
from ..state.jobs import InMemoryJobStore
from ..state.sessions import SessionRegistry
from .pool import WorkerPool

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
REJECTION_REASONS = (
    "invalid_request", "source_too_large", "body_too_large", "rate_limited", "overloaded",
    "sessions_full", "session_busy",
)
#: What became of a session after a call: kept its new state, rolled back, or closed.
SESSION_CALL_OUTCOMES = ("kept", "rolled_back", "closed")
CONTENT_TYPE = CONTENT_TYPE_LATEST


class GatewayMetrics:
    """Executions by status, their latency and fuel, refused requests, and sessions."""

    def __init__(
        self, pool: WorkerPool, *, bodies: ByteBudget | None = None, jobs: object = None
    ) -> None:
        self.registry = CollectorRegistry()
        self.executions = Counter(
            "sandbox_executions", "Executions finished, by outcome status.",
            ["status"], registry=self.registry,
        )
        self.latency = Histogram(
            "sandbox_execution_duration_seconds",
            "Time on a worker per execution (audit and run).",
            buckets=LATENCY_BUCKETS, registry=self.registry,
        )
        self.fuel = Counter(
            "sandbox_fuel_consumed", "WebAssembly fuel consumed by executions.",
            registry=self.registry,
        )
        self.network_requests = Counter(
            "sandbox_network_requests", "HTTP(S) requests the host made for guests "
            "(network=), by outcome: ok (an answer, any status) or the guest's error type "
            "(PermissionError: refused by the policy).", ["outcome"], registry=self.registry,
        )
        self.network_bytes = Counter(
            "sandbox_network_bytes", "Body bytes of the guests' requests, by direction.",
            ["direction"], registry=self.registry,
        )
        self.rejected = Counter(
            "sandbox_rejected_requests", "Requests refused before running, by reason.",
            ["reason"], registry=self.registry,
        )
        busy = Gauge(
            "sandbox_workers_busy", "Executions running now.", registry=self.registry
        )
        busy.set_function(lambda: pool.busy)
        queued = Gauge(
            "sandbox_queue_depth", "Executions waiting for a worker.", registry=self.registry
        )
        queued.set_function(lambda: pool.queued)
        Gauge("sandbox_workers", "Worker threads.", registry=self.registry).set(pool.workers)
        self._budgets(bodies, jobs)
        self.session_calls = Counter(
            "sandbox_session_calls", "Calls in sessions (also counted as executions), by "
            "what became of the session.", ["outcome"], registry=self.registry,
        )
        # Every label value is exported from the start, so dashboards see zeros, not gaps.
        for status in typing.get_args(Status):
            self.executions.labels(status=status)
        for reason in REJECTION_REASONS:
            self.rejected.labels(reason=reason)
        for outcome in SESSION_CALL_OUTCOMES:
            self.session_calls.labels(outcome=outcome)

    def _budgets(self, bodies: ByteBudget | None, jobs: object) -> None:
        """What clients make this process hold, next to each budget."""
        def gauge(name: str, text: str, read: Callable[[], float]) -> None:
            Gauge(name, text, registry=self.registry).set_function(read)

        if bodies is not None:
            gauge("sandbox_request_memory_bytes", "Host memory taken by request bodies being "
                  "read and handled (each at 3 times its size).", lambda: bodies.used)
            gauge("sandbox_request_memory_budget_bytes", "The budget of request bodies "
                  "(max_request_memory_mb).", lambda: bodies.capacity)
        if isinstance(jobs, InMemoryJobStore):
            gauge("sandbox_job_store_bytes", "Host memory held by the results of finished "
                  "async jobs.", lambda: jobs.bytes_held)
            gauge("sandbox_job_store_budget_bytes", "The budget of finished async jobs "
                  "(max_job_store_mb).", lambda: jobs.max_bytes)
        gauge("sandbox_tool_threads_busy", "Host threads held by sync tool calls (those "
              "abandoned after a timeout included).", lambda: tool_thread_usage()[0])
        gauge("sandbox_tool_threads_abandoned", "Host threads held by sync tool calls whose "
              "caller timed out.", lambda: tool_thread_usage()[1])
        gauge("sandbox_network_threads_busy", "Host threads held by guests' network "
              "requests (those given up at a deadline included, until their socket closes).",
              lambda: _network_threads()[0])
        gauge("sandbox_network_threads_budget", "Host threads network requests may hold.",
              lambda: _network_threads()[1])
        gauge("sandbox_tool_threads_budget", "Host threads sync tool calls may hold at once.",
              lambda: tool_thread_usage()[2])

    def track_sessions(self, sessions: SessionRegistry) -> None:
        live = Gauge("sandbox_sessions", "Live sessions.", registry=self.registry)
        live.set_function(lambda: sessions.live)
        reserved = Gauge(
            "sandbox_session_reserved_bytes",
            "Host memory reserved by live sessions (each its worst case).",
            registry=self.registry,
        )
        reserved.set_function(lambda: sessions.reserved_bytes)

    def observe(self, result: ExecutionResult, seconds: float) -> None:
        self.executions.labels(status=result.status).inc()
        self.latency.observe(seconds)
        self.fuel.inc(result.metrics.fuel_consumed)
        for call in result.network_calls:
            self.network_requests.labels(outcome=call.error or "ok").inc()
            self.network_bytes.labels(direction="sent").inc(call.bytes_sent)
            self.network_bytes.labels(direction="received").inc(call.bytes_received)

    def observe_session_call(self, result: ExecutionResult, seconds: float) -> None:
        self.observe(result, seconds)
        call = result.session
        outcome = "kept"
        if call is not None and call.closed:
            outcome = "closed"
        elif call is not None and call.rolled_back:
            outcome = "rolled_back"
        self.session_calls.labels(outcome=outcome).inc()

    def reject(self, reason: str) -> None:
        self.rejected.labels(reason=reason).inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)


def _network_threads() -> tuple[int, int]:
    from ..._network.fetch import fetch_thread_usage  # only imported once scraped

    return fetch_thread_usage()
