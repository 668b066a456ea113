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
    from ._auth import hash_key
    from ._gateway_tools import ToolConfigError
    from ._http import create_app
    from ._jobs import InMemoryJobStore, JobStore
    from ._mcp import create_mcp_server
    from ._mcp_bridge import BridgeError, McpBridge, McpServerSpec, McpToolError
    from ._mcp_stdio import serve_stdio
    from ._schemas import (
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
    from ._sessions import SessionCaps
    from ._settings import ConfigFileError, GatewaySettings, load_settings, settings_from_env

_EXPORTS = {
    "hash_key": "._auth",
    "ToolConfigError": "._gateway_tools",
    "create_app": "._http",
    "InMemoryJobStore": "._jobs",
    "JobStore": "._jobs",
    "create_mcp_server": "._mcp",
    "BridgeError": "._mcp_bridge",
    "McpBridge": "._mcp_bridge",
    "McpServerSpec": "._mcp_bridge",
    "McpToolError": "._mcp_bridge",
    "serve_stdio": "._mcp_stdio",
    "ErrorResponse": "._schemas",
    "HostTool": "._schemas",
    "HostToolList": "._schemas",
    "Job": "._schemas",
    "JobAccepted": "._schemas",
    "SafeExecLimits": "._schemas",
    "SafeExecRequest": "._schemas",
    "SandboxToolRequest": "._schemas",
    "SandboxToolResult": "._schemas",
    "SessionCreateRequest": "._schemas",
    "SessionExecuteRequest": "._schemas",
    "SessionInfo": "._schemas",
    "SessionCaps": "._sessions",
    "ConfigFileError": "._settings",
    "GatewaySettings": "._settings",
    "load_settings": "._settings",
    "settings_from_env": "._settings",
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
