"""The host tools a gateway offers: Python callables (given, or named by entry points
`module:attribute`) and the tools of bridged MCP servers, with what a client or a model
needs to know about each (its signature and description).

Both gateways share this: the MCP server offers every tool to every run and lists them in
execute_python_sandbox's description; the HTTP gateway offers a request only the tools it
names. The MCP SDK is imported only when there are servers to bridge.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..._errors import InvalidRequestError
from ..._tools import Tool, ToolsLike, build_tools

if TYPE_CHECKING:
    from .mcp import McpBridge, McpServerSpec

#: How much of a tool's description the model's listing quotes.
MAX_LISTED_DESCRIPTION = 2_000


class ToolConfigError(Exception):
    """The gateway's tools could not be set up: an entry point that does not load or does
    not name tools, two tools with one name, or an MCP server that cannot be started,
    reached or listed."""


class UnknownToolError(InvalidRequestError):
    """A request named tools this gateway does not offer."""

    def __init__(self, names: Sequence[str], offered: Iterable[str]) -> None:
        self.names = list(names)
        known = ", ".join(sorted(offered)) or "none"
        listed = ", ".join(repr(name[:100]) for name in self.names[:10])
        super().__init__(f"no tool named {listed} on this server (it offers: {known})",
                         field="tools")


def load_entry_point(spec: str) -> dict[str, Tool]:
    """The tools named by `module:attribute` (a list of callables, a name -> callable
    mapping, or one callable). The current directory is importable, as with uvicorn."""
    module_name, colon, attribute = spec.partition(":")
    if not colon or not module_name or not attribute:
        raise ToolConfigError(f"--tools {spec!r}: give module:attribute (e.g. "
                              "my_tools:TOOLS)")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        value: Any = importlib.import_module(module_name)
    except Exception as error:
        raise ToolConfigError(f"--tools {spec}: cannot import {module_name} "
                              f"({type(error).__name__}: {error})") from None
    for part in attribute.split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            raise ToolConfigError(f"--tools {spec}: {module_name} has no {attribute}") from None
    if callable(value) and not isinstance(value, (Mapping, list, tuple)):
        value = [value]
    if not isinstance(value, (Mapping, list, tuple)):
        raise ToolConfigError(f"--tools {spec}: {attribute} is a {type(value).__name__}, "
                              "not a list of callables or a name -> callable mapping")
    try:
        return build_tools(value)
    except InvalidRequestError as error:
        raise ToolConfigError(f"--tools {spec}: {error}") from None


class GatewayTools:
    """The tools a gateway offers: given ones, those of entry points, and those of bridged
    MCP servers (connected by `start`, closed by `close`; see `bridge.mcp` for how their
    tools are named)."""

    def __init__(
        self, tools: ToolsLike | None = None, *, entry_points: Iterable[str] = (),
        bridges: Iterable[McpServerSpec] = (),
    ) -> None:
        try:
            local = build_tools(tools)
        except InvalidRequestError as error:
            raise ToolConfigError(str(error)) from None
        for spec in entry_points:
            for name, tool in load_entry_point(spec).items():
                if name in local:
                    raise ToolConfigError(f"--tools {spec}: a tool named {name!r} is "
                                          "already configured")
                local[name] = tool
        #: Tools by name (the bridged ones once started).
        self.tools: dict[str, Tool] = dict(local)
        #: Where each tool comes from: "python", or "mcp:<server>".
        self.sources: dict[str, str] = dict.fromkeys(local, "python")
        self.bridge: McpBridge | None = None
        specs = list(bridges)
        if specs:
            from .mcp import McpBridge

            self.bridge = McpBridge(specs, reserved=local)

    def __enter__(self) -> GatewayTools:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def start(self) -> GatewayTools:
        """Connect the bridged MCP servers and add their tools (once: again is a no-op).
        Raises BridgeError."""
        if self.bridge is not None and not self.bridge.started:
            self.bridge.start()
            for name, tool in self.bridge.tools.items():
                self.tools[name] = tool
                self.sources[name] = "mcp:" + self.bridge.origins[name][0]
        return self

    def close(self) -> None:
        """Close the bridged servers' sessions (and stop those this process started)."""
        if self.bridge is not None:
            self.bridge.close()

    def select(self, names: Sequence[str]) -> list[Tool]:
        """The tools named, in order; raises UnknownToolError naming those it lacks."""
        unknown = [name for name in names if name not in self.tools]
        if unknown:
            raise UnknownToolError(unknown, self.tools)
        return [self.tools[name] for name in dict.fromkeys(names)]

    def listing(self) -> list[dict[str, str]]:
        """Each tool's name, signature, description and source."""
        return [{"name": name, "signature": signature_text(tool),
                 "description": tool.description, "source": self.sources.get(name, "python")}
                for name, tool in self.tools.items()]


def signature_text(tool: Tool) -> str:
    """`name(params) -> result`, with the annotations the tool declares."""
    try:
        signature = inspect.signature(tool.function, eval_str=True)
    except Exception:
        try:
            signature = inspect.signature(tool.function)
        except (TypeError, ValueError):
            return f"{tool.name}(...)"
    return tool.name + str(signature)


def tools_description(tools: Mapping[str, Tool]) -> str:
    """The paragraph a model reads to know which host tools its script can call."""
    if not tools:
        return ""
    lines = [
        "Host tools: the script can `import tools` and call these functions (arguments and "
        "results are JSON values; bad arguments raise TypeError or ValueError, a failing "
        "tool raises in the script, e.g. tools.ToolError; result.tool_calls lists the "
        "calls). Call them in loops and combine their results in the script rather than "
        "one call per message:"
    ]
    for tool in tools.values():
        about = tool.description.strip()
        if len(about) > MAX_LISTED_DESCRIPTION:
            about = about[:MAX_LISTED_DESCRIPTION] + "..."
        entry = f"- tools.{signature_text(tool)}"
        if about:
            entry += ": " + about.replace("\n", "\n  ")
        lines.append(entry)
    return "\n".join(lines)
