"""The package's layering, read from its imports (issue 29): each folder is one concept, and
these rules keep the boundaries between them where the README's layout says they are.

- Only `_host/` imports wasmtime: everything that touches an engine, a store, an instance or
  guest memory lives there.
- `_guest/` imports nothing of the package: its files run inside the sandbox.
- Only `_wire.py` takes the guest protocol from the bootstrap (its modes, options, marks and
  bounds), so the protocol's bytes are made and read in one module; `_audit/` also reads the
  bootstrap, for the policy tables and `judge_fact` the guest and the host share.
- The library's core (every module but the front ends) never imports a front end: `cli/`,
  `server/`, `batch/` and `compat.py` stand on the core, not the other way round; `server/`
  and `batch/` do not import `cli/`.
- No module takes a private name (`_name`) from a module of another folder: what a folder
  offers the others is its public names.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "sandbox_wasm"
FRONT_ENDS = ("sandbox_wasm.cli", "sandbox_wasm.server", "sandbox_wasm.batch",
              "sandbox_wasm.compat")


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the module imported from (absolute)
    name: str | None  # the name taken from it (`from target import name`), if any
    line: int

    def __str__(self) -> str:
        taken = f" import {self.name}" if self.name else ""
        return f"{self.module}:{self.line}: {self.target}{taken}"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> Iterator[Import]:
    for path in sorted(PACKAGE.rglob("*.py")):
        if "_recipe" in path.parts:  # a wheel's copy of the build recipe, not the package
            continue
        module = _module_name(path)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield Import(module, alias.name, None, node.lineno)
            elif isinstance(node, ast.ImportFrom):
                target = node.module or ""
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    target = ".".join([*base, *([node.module] if node.module else [])])
                for alias in node.names:
                    yield Import(module, target, alias.name, node.lineno)


def _folder(module: str) -> str:
    """The folder a module belongs to: `sandbox_wasm.<folder>` for the modules of a
    subpackage, `sandbox_wasm` for the top-level modules."""
    parts = module.split(".")
    if len(parts) > 1 and (PACKAGE / parts[1]).is_dir():
        return ".".join(parts[:2])
    return "sandbox_wasm"


def _within(module: str, *prefixes: str) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


IMPORTS = list(_imports())


def test_the_package_is_read() -> None:
    modules = {i.module for i in IMPORTS}
    assert {"sandbox_wasm._sandbox", "sandbox_wasm._host.program",
            "sandbox_wasm.server.http.app"} <= modules
    assert len(IMPORTS) > 500


@pytest.mark.parametrize("rule", ["wasmtime", "guest", "wire", "front-ends", "private-names"])
def test_layering(rule: str) -> None:
    broken = []
    for i in IMPORTS:
        if rule == "wasmtime":
            bad = _within(i.target, "wasmtime") and not _within(i.module, "sandbox_wasm._host")
        elif rule == "guest":
            bad = _within(i.module, "sandbox_wasm._guest") and _within(i.target, "sandbox_wasm")
        elif rule == "wire":
            bad = (_within(i.target, "sandbox_wasm._guest.bootstrap")
                   and not _within(i.module, "sandbox_wasm._wire", "sandbox_wasm._audit",
                                   "sandbox_wasm._guest"))
        elif rule == "front-ends":
            front = (_within(i.target, *FRONT_ENDS)
                     and not _within(i.module, *FRONT_ENDS, "sandbox_wasm.__main__")
                     and i.module != "sandbox_wasm")  # __init__'s lazy `execute_many`
            behind = (_within(i.module, "sandbox_wasm.server", "sandbox_wasm.batch")
                      and _within(i.target, "sandbox_wasm.cli"))
            bad = front or behind
        else:
            bad = (i.name is not None and i.name.startswith("_") and not i.name.startswith("__")
                   and _within(i.target, "sandbox_wasm")
                   and _folder(i.target) != _folder(i.module))
        if bad:
            broken.append(str(i))
    assert not broken, f"{rule}:\n" + "\n".join(broken)
