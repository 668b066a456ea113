"""The host-tool flags `wasm-exec serve` and `wasm-exec mcp` share, spelt the same in both:
--tools (Python entry points), --bridge (MCP servers over stdio) and --bridge-url (over
streamable HTTP), each repeatable."""

from __future__ import annotations

import argparse
from collections.abc import Mapping

TOOL_FLAGS = {
    "tools": ("MODULE:ATTR", "host tools from a Python entry point: a list of callables or "
              "a name -> callable mapping (the current directory is importable)"),
    "bridge": ("[NAME=]COMMAND", "an MCP server to start and speak to over stdio (the "
               "command line is split as a shell would, never run by one; it gets only PATH, "
               "HOME and a few such variables); its tools become host tools, prefixed "
               "NAME_ (or its reported name) where names clash"),
    "bridge_url": ("[NAME=]URL", "an MCP server over streamable HTTP whose tools become "
                   "host tools, as with --bridge"),
}


def add_tool_args(
    parser: argparse.ArgumentParser, *, scope: str = "", env: Mapping[str, str] | None = None
) -> None:
    """--tools, --bridge and --bridge-url (repeatable; None when not given, so that an
    environment variable can apply). `scope` says who gets the tools; `env` names each
    flag's environment variable for the help."""
    for dest, (metavar, text) in TOOL_FLAGS.items():
        help_text = f"{text}; {scope}; repeatable" if scope else f"{text}; repeatable"
        if env and dest in env:
            help_text += f" [env {env[dest]}]"
        parser.add_argument("--" + dest.replace("_", "-"), dest=dest, action="append",
                            metavar=metavar, help=help_text)
