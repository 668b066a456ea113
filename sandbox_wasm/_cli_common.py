"""Pieces shared by every `wasm-exec` subcommand: one-line usage errors (exit 2) and opening
the input file a user named."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import IO, NoReturn

EXIT_USAGE = 2


class UsageError(Exception):
    """A usage error: printed as one line, exit status 2."""


class OneLineParser(argparse.ArgumentParser):
    """argparse prints its whole usage block and exits; we promise one line and exit 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def open_input(name: str) -> IO[bytes]:
    """The file a user named (or stdin for "-"), with one-line errors for the usual
    mistakes."""
    if name == "-":
        return sys.stdin.buffer
    path = Path(name)
    if not path.exists():
        raise UsageError(f"{name}: no such file")
    if path.is_dir():
        raise UsageError(f"{name}: is a directory")
    try:
        return path.open("rb")
    except OSError as exc:
        raise UsageError(f"{name}: cannot read ({exc.strerror})") from None
