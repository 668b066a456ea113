"""The public surface is pinned: `sandbox_wasm.__all__` is exactly what the README's table
of public names lists, every name in it is importable, and nothing else public is exposed
(as httpx's tests/test_exported_members.py does)."""

from __future__ import annotations

import re
import types
from pathlib import Path

import sandbox_wasm as sw

README = Path(__file__).resolve().parents[2] / "README.md"


def _documented_names() -> set[str]:
    text = README.read_text("utf-8")
    table = text.split("The public names", 1)[1].split("\n\n", 2)[1]
    return set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", table))


def test_all_is_exactly_the_documented_names() -> None:
    assert set(sw.__all__) == _documented_names()
    assert len(sw.__all__) == len(set(sw.__all__))


def test_every_exported_name_is_importable() -> None:
    for name in sw.__all__:
        assert getattr(sw, name) is not None, name


def test_nothing_else_public_is_exposed() -> None:
    public = {
        name for name, value in vars(sw).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }
    # The names imported on first use are public too, whether or not used yet (the
    # version among them: reading it from the installed metadata is slow).
    assert public | set(sw._LAZY) == set(sw.__all__)


def test_lazy_names_are_the_real_objects() -> None:
    from sandbox_wasm._session.session import Session
    from sandbox_wasm.batch import execute_many

    assert sw.Session is Session and sw.execute_many is execute_many
    from sandbox_wasm._version import __version__

    assert sw.__version__ == __version__ and sw.__version__.count(".") >= 2
    try:
        sw.NoSuchName  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as error:
        assert "NoSuchName" in str(error)
    else:
        raise AssertionError("an unknown name did not raise AttributeError")
