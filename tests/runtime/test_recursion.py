"""Recursion through C code ends in RecursionError, never a crash (relocated C stack), and
exit statuses outside WASI's 0..125 are reported faithfully."""

from __future__ import annotations

import pytest

import sandbox_wasm as sw


def test_memoised_recursion_150_deep(open_sandbox: sw.Sandbox) -> None:
    code = (
        "import functools\n"
        "@functools.lru_cache(maxsize=None)\n"
        "def fib(n):\n"
        "    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
        "print(fib(150))\n"
    )
    result = open_sandbox.execute(code)
    assert (result.status, result.stdout) == ("succeeded", "9969216677189303386214405760200\n")


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("class A:\n    def __getattr__(self, n):\n        return self.x\nA().y",
                     id="getattr"),
        pytest.param("class A:\n    def __str__(self):\n        return str(self)\nstr(A())",
                     id="str"),
        pytest.param("class A:\n    def __repr__(self):\n        return repr(self)\nrepr(A())",
                     id="repr"),
        pytest.param("class A:\n    def __eq__(self, o):\n        return self == o\nA() == 1",
                     id="eq"),
        pytest.param("import functools\n@functools.lru_cache\ndef f(n): return f(n + 1)\nf(0)",
                     id="lru-cache-unbounded"),
        pytest.param("import sys\nsys.setrecursionlimit(10**6)\nimport functools\n"
                     "@functools.lru_cache\ndef f(n): return f(n + 1)\nf(0)",
                     id="lru-cache-raised-limit"),
        pytest.param("def f(x): return list(map(f, [x]))\nf(1)", id="map"),
        pytest.param("class A:\n    def __format__(self, s):\n        return format(self, s)\n"
                     "format(A(), 'x')", id="format"),
    ],
)
def test_recursion_through_c_is_a_recursion_error(open_sandbox: sw.Sandbox, code: str) -> None:
    result = open_sandbox.execute(code)
    assert (result.status, result.exit_code) == ("failed", 1)
    assert result.error is not None and result.error.type == "RecursionError"
    assert "RecursionError" in result.stderr


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("x = []\nfor _ in range(100000):\n    x = [x]\nrepr(x)", id="repr"),
        pytest.param("import json\nx = []\nfor _ in range(100000):\n    x = [x]\njson.dumps(x)",
                     id="json-dumps"),
        pytest.param("import copy\nx = []\nfor _ in range(100000):\n    x = [x]\ncopy.deepcopy(x)",
                     id="deepcopy"),
        pytest.param("a, b = [], []\nfor _ in range(100000):\n    a, b = [a], [b]\na == b",
                     id="comparison"),
    ],
)
def test_deep_nesting_is_a_recursion_error(open_sandbox: sw.Sandbox, code: str) -> None:
    result = open_sandbox.execute(code)
    assert result.status == "failed"
    assert result.error is not None and result.error.type == "RecursionError"


def test_nested_c_iterators_fail_cleanly(open_sandbox: sw.Sandbox) -> None:
    code = "it = iter([1])\nfor _ in range(100000):\n    it = map(abs, it)\nprint(list(it))"
    result = open_sandbox.execute(code)
    assert (result.status, result.exit_code) == ("failed", 1)
    assert result.error is not None and result.error.type == "RecursionError"


@pytest.mark.parametrize(
    ("code", "exit_code"),
    [
        pytest.param("raise KeyboardInterrupt", 130, id="keyboard-interrupt"),
        pytest.param("import sys\nsys.exit(-1)", 255, id="sys-exit-minus-1"),
        pytest.param("import sys\nsys.exit(126)", 126, id="sys-exit-126"),
        pytest.param("import os\nos._exit(200)", 200, id="os-exit-200"),
        pytest.param("import sys\nsys.exit(256)", 0, id="sys-exit-256-wraps"),
    ],
)
def test_exit_status_outside_wasi_range(
    open_sandbox: sw.Sandbox, code: str, exit_code: int
) -> None:
    result = open_sandbox.execute(code)
    assert result.exit_code == exit_code
    assert result.status == ("succeeded" if exit_code == 0 else "failed")
