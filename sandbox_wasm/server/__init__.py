"""The gateways: an HTTP service (FastAPI) and an MCP server around the sandbox.

Needs the `server` extra: `pip install 'sandbox-wasm[server]'`. Start them with
`wasm-exec serve` and `wasm-exec mcp`, or build the apps here to embed them. `McpBridge`
turns MCP servers' tools into host tools for either gateway or for `execute(tools=...)`.
Names are loaded on first use, so the HTTP side never imports the MCP SDK (unless it
bridges MCP servers) and vice versa.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .bridge.mcp import BridgeError, McpBridge, McpServerSpec, McpToolError
    from .bridge.tools import ToolConfigError
    from .http.app import create_app
    from .http.schemas import (
        ErrorResponse,
        HostTool,
        HostToolList,
        Job,
        JobAccepted,
        SafeExecLimits,
        SafeExecRequest,
        SandboxToolRequest,
        SandboxToolResult,
        SessionCreateRequest,
        SessionExecuteRequest,
        SessionInfo,
    )
    from .mcp.server import create_mcp_server
    from .mcp.stdio import serve_stdio
    from .ops.auth import hash_key
    from .settings import ConfigFileError, GatewaySettings, load_settings, settings_from_env
    from .state.jobs import InMemoryJobStore, JobStore
    from .state.sessions import SessionCaps

_EXPORTS = {
    "hash_key": ".ops.auth",
    "ToolConfigError": ".bridge.tools",
    "create_app": ".http.app",
    "InMemoryJobStore": ".state.jobs",
    "JobStore": ".state.jobs",
    "create_mcp_server": ".mcp.server",
    "BridgeError": ".bridge.mcp",
    "McpBridge": ".bridge.mcp",
    "McpServerSpec": ".bridge.mcp",
    "McpToolError": ".bridge.mcp",
    "serve_stdio": ".mcp.stdio",
    "ErrorResponse": ".http.schemas",
    "HostTool": ".http.schemas",
    "HostToolList": ".http.schemas",
    "Job": ".http.schemas",
    "JobAccepted": ".http.schemas",
    "SafeExecLimits": ".http.schemas",
    "SafeExecRequest": ".http.schemas",
    "SandboxToolRequest": ".http.schemas",
    "SandboxToolResult": ".http.schemas",
    "SessionCreateRequest": ".http.schemas",
    "SessionExecuteRequest": ".http.schemas",
    "SessionInfo": ".http.schemas",
    "SessionCaps": ".state.sessions",
    "ConfigFileError": ".settings",
    "GatewaySettings": ".settings",
    "load_settings": ".settings",
    "settings_from_env": ".settings",
}

__all__ = [
    "BridgeError",
    "ConfigFileError",
    "ErrorResponse",
    "GatewaySettings",
    "HostTool",
    "HostToolList",
    "InMemoryJobStore",
    "Job",
    "JobAccepted",
    "JobStore",
    "McpBridge",
    "McpServerSpec",
    "McpToolError",
    "SafeExecLimits",
    "SafeExecRequest",
    "SandboxToolRequest",
    "SandboxToolResult",
    "SessionCaps",
    "SessionCreateRequest",
    "SessionExecuteRequest",
    "SessionInfo",
    "ToolConfigError",
    "create_app",
    "create_mcp_server",
    "hash_key",
    "load_settings",
    "serve_stdio",
    "settings_from_env",
]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name], __name__), name)
