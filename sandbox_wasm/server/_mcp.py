"""The MCP server: `execute_python_sandbox` and `audit_python_code` on the official SDK.

Both tools are read-only for the host (the guest has no capability to touch it),
idempotent and closed-world (no network), and say so in their annotations.
"""

import functools
from typing import Annotated

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from .._errors import InvalidRequestError, SandboxError
from .._models import AuditReport, TimeoutProfile
from .._sandbox import Sandbox
from .._version import __version__
from ._schemas import (
    AUDIT_DESCRIPTION,
    AUDIT_SCRIPT_DESCRIPTION,
    DEFAULT_PROFILE,
    EXECUTE_DESCRIPTION,
    MAX_SCRIPT_CHARS,
    PROFILE_DESCRIPTION,
    SCRIPT_DESCRIPTION,
    SandboxToolResult,
)

INSTRUCTIONS = (
    "Runs untrusted Python 3.13 in a fresh WebAssembly sandbox with no host files, network "
    "or environment. Call execute_python_sandbox to compute something and read its "
    "simulated_stdout; call audit_python_code to check a script against the policy without "
    "running it."
)

_SAFE = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)

Script = Annotated[str, Field(max_length=MAX_SCRIPT_CHARS, description=SCRIPT_DESCRIPTION)]
AuditedScript = Annotated[
    str, Field(max_length=MAX_SCRIPT_CHARS, description=AUDIT_SCRIPT_DESCRIPTION)
]


def create_mcp_server(sandbox: Sandbox | None = None, *, workers: int = 2) -> MCPServer:
    """An MCP server whose tools run on `sandbox`, at most `workers` executions at once
    (each on a thread, so the server keeps answering meanwhile)."""
    sandbox = sandbox or Sandbox()
    limiter = anyio.CapacityLimiter(workers)
    server = MCPServer(
        "sandbox-wasm", title="sandbox-wasm", version=__version__, instructions=INSTRUCTIONS
    )

    async def on_worker(fn, *args, **kwargs):  # type: ignore[no-untyped-def]
        try:
            return await anyio.to_thread.run_sync(
                functools.partial(fn, *args, **kwargs), limiter=limiter
            )
        except InvalidRequestError as exc:
            raise ToolError(str(exc)) from None
        except SandboxError as exc:
            raise ToolError(f"the sandbox runtime is unavailable: {exc}") from None

    @server.tool(
        name="execute_python_sandbox", title="Run Python in a sandbox",
        description=EXECUTE_DESCRIPTION, annotations=_SAFE, structured_output=True,
    )
    async def execute_python_sandbox(
        python_script: Script,
        timeout_profile: Annotated[
            TimeoutProfile, Field(description=PROFILE_DESCRIPTION)
        ] = DEFAULT_PROFILE,
    ) -> SandboxToolResult:
        result = await on_worker(sandbox.execute, python_script, profile=timeout_profile)
        return SandboxToolResult.of(result)

    @server.tool(
        name="audit_python_code", title="Audit Python without running it",
        description=AUDIT_DESCRIPTION, annotations=_SAFE, structured_output=True,
    )
    async def audit_python_code(python_script: AuditedScript) -> AuditReport:
        return await on_worker(sandbox.audit, python_script)

    return server
