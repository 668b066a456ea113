"""Ships the runtime build recipe in the wheel: scripts/cpython_wasi/, copied byte for byte
into sandbox_wasm/_recipe/ so that an installed package's `wasm-exec runtime install` builds
with the same stage keys (and so reuses the same build cache,
~/.cache/sandbox-wasm/cpython-wasi) as a checkout. build.py finds
the guest bootstrap two levels up (sandbox_wasm/_guest/bootstrap.py), which holds in both layouts.

Everything else is configured in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
RECIPE_FILES = [
    # The recipe (the stages' keys cover these files) and its installer.
    *(f"scripts/cpython_wasi/{name}" for name in (
        "build.sh", "build.py", "data_stack.py", "plot_stack.py", "sci_stack.py",
        "sandbox_entry.c", "sandbox_audit.c", "ast_children.py",
        "stdlib_finder.py",
        "make_stdlib_blob.py", "install.py",
    )),
    # CPython's own patches, applied at the links.
    *(str(path.relative_to(HERE)) for path in sorted(
        (HERE / "scripts" / "cpython_wasi").glob("cpython-*.patch"))),
    # The data runtime's patches, compiler wrapper, tables and C/C++ stand-ins (kept in
    # _recipe/data/, data/wasi-include/ included).
    *(str(path.relative_to(HERE)) for path in sorted(
        (HERE / "scripts" / "cpython_wasi" / "data").rglob("*")) if path.is_file()),
]


class BuildWithRecipe(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install runs from the checkout, which has scripts/
        target = Path(self.build_lib) / "sandbox_wasm" / "_recipe"
        target.mkdir(parents=True, exist_ok=True)
        for name in RECIPE_FILES:
            relative = Path(name).relative_to("scripts/cpython_wasi")
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(HERE / name, target / relative)


setup(cmdclass={"build_py": BuildWithRecipe})
