"""The value record (`result.value`) is written by the guest on stderr, where user code can
write too: the host reads it as untrusted, bounded, and never lets it change the outcome."""

from __future__ import annotations

import pytest

import sandbox_wasm as sw
from sandbox_wasm._wire import MAX_VALUE_RECORD_BYTES, MAX_VALUE_REPR_CHARS, VALUE_MARK

FORGE = "import os\nwritten = os.write(2, {mark!r} + ({record}) + b'\\n')\n"


def forged(record: bytes, then: str = "") -> str:
    """Code that writes `record` as a value record, then runs `then`."""
    return forged_from(repr(record), then)


def forged_from(expression: str, then: str = "") -> str:
    """Code that writes the bytes `expression` makes (in the guest) as a value record."""
    return FORGE.format(mark=VALUE_MARK, record=expression) + then


@pytest.mark.parametrize("record", [
    pytest.param(b"not json", id="not-json"),
    pytest.param(b'{"type": 1, "repr": "x"}', id="type-not-text"),
    pytest.param(b'["int", "2"]', id="not-an-object"),
    pytest.param(b'{"type": "int"}', id="no-repr"),
    pytest.param(b"[" * 10_000, id="nesting-bomb"),
])
def test_an_unusable_record_gives_no_value(record: bytes) -> None:
    result = sw.execute(forged(record))
    assert result.status == "succeeded", result.stderr
    assert result.value is None and result.stderr == ""


def test_a_forged_record_is_held_to_the_bounds() -> None:
    record = ("""b'{"type": "' + b"T" * 5000 + b'", "repr": "' + b"r" * 50_000"""
              """ + b'", "repr_truncated": "yes", "json": [1], "json_error": "' + b"e" * 5000"""
              """ + b'"}'""")
    result = sw.execute(forged_from(record))
    value = result.value
    assert value is not None
    assert len(value.type) == 200 and len(value.repr) == MAX_VALUE_REPR_CHARS
    assert value.repr_truncated is False  # only a real True counts
    assert value.json_value == [1] and value.json_error is not None
    assert len(value.json_error) == 200


def test_an_oversized_record_is_dropped_not_kept() -> None:
    record = f"""b'{{"type": "int", "repr": "' + b"9" * {MAX_VALUE_RECORD_BYTES + 10} + b'"}}'"""
    result = sw.execute(forged_from(record))
    assert result.status == "succeeded" and result.value is None
    assert result.stderr == "" and result.metrics.stderr_bytes == 0


def test_text_is_cleaned() -> None:
    result = sw.execute(forged(b'{"type": "x\\ud800", "repr": "\\udfff\\u0000ok", '
                               b'"json": {"\\ud800": "\\udc00"}}'))
    value = result.value
    assert value is not None
    value.model_dump_json()  # encodable: no lone surrogates left
    assert value.repr.endswith("ok")


def test_a_forged_record_cannot_make_a_failure_look_like_a_value() -> None:
    result = sw.execute(forged(b'{"type": "int", "repr": "42"}', "raise ValueError('real')\n"))
    assert result.status == "failed" and result.error is not None
    assert result.error.type == "ValueError" and result.value is None


def test_the_real_value_comes_last_and_wins() -> None:
    result = sw.execute(forged(b'{"type": "int", "repr": "42"}', "'real'"))
    assert result.value is not None and result.value.json_value == "real"


def test_a_repr_that_never_ends_is_stopped_by_the_deadline() -> None:
    result = sw.execute("class Slow:\n    def __repr__(self):\n        while True:\n"
                        "            pass\nSlow()", timeout_ms=300)
    assert result.status == "timeout" and result.value is None


def test_a_repr_that_exhausts_memory_is_contained() -> None:
    result = sw.execute("class Huge:\n    def __repr__(self):\n        return 'x' * 10**9\n"
                        "Huge()", memory_mb=64)
    assert result.status in ("failed", "memory_exceeded") and result.value is None
    assert result.error is not None and "Memory" in result.error.type


def test_a_session_survives_a_value_that_fails() -> None:
    with sw.Session() as session:
        session.execute("n = 1")
        bad = session.execute("class R:\n    def __repr__(self):\n        raise OSError\nR()")
        assert bad.status == "failed" and bad.value is None
        again = session.execute("n + 1")
        assert again.value is not None and again.value.json_value == 2
