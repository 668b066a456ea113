"""The value of the code's last statement when it is an expression (`result.value`), as a
notebook cell shows it: in sessions and one-shot runs, bounded, read as untrusted."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import sandbox_wasm as sw
from sandbox_wasm._wire import MAX_VALUE_REPR_CHARS


@pytest.fixture(scope="module")
def session() -> Iterator[sw.Session]:
    with sw.Session() as live:
        yield live


@pytest.mark.parametrize(("code", "shown"), [
    pytest.param("1 + 1", ("int", "2", 2), id="expression"),
    pytest.param("x = 5", None, id="assignment"),
    pytest.param("x = 3\nx * 2", ("int", "6", 6), id="after-statements"),
    pytest.param("None", None, id="none"),
    pytest.param("print('hi')", None, id="call-returning-none"),
    pytest.param("'caf\u00e9'", ("str", "'caf\u00e9'", "caf\u00e9"), id="text"),
    pytest.param("{'a': [1, 2.5, None], 'b': (True,)}",
                 ("dict", "{'a': [1, 2.5, None], 'b': (True,)}",
                  {"a": [1, 2.5, None], "b": [True]}), id="json-container"),
    pytest.param("def f():\n    return 7\nf()", ("int", "7", 7), id="function-result"),
    pytest.param("for i in range(3):\n    i", None, id="expression-inside-a-block"),
])
def test_one_shot_runs_report_the_last_expression(code: str, shown: tuple | None) -> None:
    result = sw.execute(code)
    assert result.status == "succeeded", result.stderr
    if shown is None:
        assert result.value is None
        return
    assert result.value is not None
    assert (result.value.type, result.value.repr, result.value.json_value) == shown
    assert result.value.repr_truncated is False and result.value.json_error is None


def test_a_session_answers_like_a_notebook(session: sw.Session) -> None:
    assert session.execute("total = 40").value is None
    value = session.execute("total + 2").value
    assert value is not None and (value.type, value.repr, value.json_value) == ("int", "42", 42)
    # `_` is the last value, as at Python's prompt; a global `_` shadows it.
    assert session.execute("_ * 2").value.json_value == 84  # type: ignore[union-attr]
    assert session.execute("None").value is None
    assert session.execute("_").value.json_value == 84  # type: ignore[union-attr]
    assert session.execute("import math\nmath.pi").value.repr == repr(3.141592653589793)  # type: ignore[union-attr]


def test_values_that_are_not_json_have_a_repr_only() -> None:
    result = sw.execute("class Point:\n    def __repr__(self):\n        return 'Point(1, 2)'\n"
                        "Point()")
    assert result.value is not None
    assert (result.value.type, result.value.repr) == ("__main__.Point", "Point(1, 2)")
    assert result.value.json_value is None and result.value.json_error is None
    nan = sw.execute("float('nan')").value
    assert nan is not None and nan.repr == "nan" and nan.json_value is None
    assert nan.json_error == "not representable as JSON"
    keys = sw.execute("{(1, 2): 3}").value
    assert keys is not None and keys.json_error == "not representable as JSON"


def test_a_value_holding_itself_has_a_repr_only_and_the_next_one_encodes(
        session: sw.Session) -> None:
    # The guest's one JSON encoder marks the containers it is in; a failed encoding (a
    # cycle here) must leave none marked for the next value of the same instance.
    circular = session.execute("v = [1]\nv.append(v)\nv").value
    assert circular is not None and circular.repr == "[1, [...]]"
    assert circular.json_value is None and circular.json_error == "not representable as JSON"
    again = session.execute("v.pop()\n[v, v, {'v': v}]").value
    assert again is not None and again.json_value == [[1], [1], {"v": [1]}]


def test_large_values_are_bounded() -> None:
    long_text = sw.execute("'ab' * 40_000").value
    assert long_text is not None and long_text.repr_truncated is True
    assert len(long_text.repr) == MAX_VALUE_REPR_CHARS
    assert long_text.json_value is None
    assert long_text.json_error is not None and "larger than" in long_text.json_error
    # JSON the guest made but the result's encoder cannot nest that deep: the repr only.
    deep = sw.execute("v = []\nfor _ in range(300):\n    v = [v]\nv").value
    assert deep is not None and deep.json_value is None and len(deep.repr) == 602
    assert deep.json_error == "not representable in the result (nested too deeply)"
    # Deeper than repr can go: as at Python's prompt, the RecursionError is the run's.
    deeper = sw.execute("v = []\nfor _ in range(5000):\n    v = [v]\nv")
    assert deeper.status == "failed" and deeper.error is not None
    assert deeper.error.type == "RecursionError" and deeper.value is None
    assert deeper.stderr == ("RecursionError: maximum recursion depth exceeded while getting "
                             "the repr of an object\n")  # no frame of the user's: list's repr


def test_no_value_when_the_run_fails() -> None:
    failed = sw.execute("x = 1\n1 / 0")
    assert failed.status == "failed" and failed.value is None
    exited = sw.execute("import sys\nsys.exit(3)")
    assert exited.exit_code == 3 and exited.value is None
    timed_out = sw.execute("while True:\n    pass\n1", timeout_ms=200)
    assert timed_out.status == "timeout" and timed_out.value is None
    bad_repr = sw.execute("class R:\n    def __repr__(self):\n        raise ValueError('no')\n"
                          "R()")
    assert bad_repr.status == "failed" and bad_repr.error is not None
    assert bad_repr.error.type == "ValueError" and bad_repr.value is None
    # The traceback shows the user's frames only, never the bootstrap's runners.
    assert bad_repr.stderr == ('Traceback (most recent call last):\n  File "<sandbox>", line 3, '
                               "in __repr__\nValueError: no\n")


def test_the_value_comes_after_the_output_it_follows() -> None:
    result = sw.execute("import sys\nprint('out')\nsys.stderr.write('err\\n')\n'done'")
    assert (result.stdout, result.stderr) == ("out\n", "err\n")
    assert result.value is not None and result.value.json_value == "done"


def test_the_value_is_in_the_json_result() -> None:
    result = sw.execute("[1, 'two']")
    dumped = result.model_dump(mode="json")
    assert dumped["value"] == {"type": "list", "repr": "[1, 'two']", "repr_truncated": False,
                               "json_value": [1, "two"], "json_error": None}
    assert sw.ExecutionResult.model_validate_json(result.model_dump_json()).value == result.value
