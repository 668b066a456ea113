"""The host's capture of a run's stdout: the audit answer that precedes the user's output
is taken whole or in pieces, however the guest splits its writes."""

from __future__ import annotations

import pytest

from sandbox_wasm._host.output import ANSWER_LENGTH_BYTES, MAX_ANSWER_BYTES, CappedOutput

ANSWER = b'{"known":true,"ran":true}'
FRAMED = len(ANSWER).to_bytes(ANSWER_LENGTH_BYTES, "little") + ANSWER


@pytest.mark.parametrize("cuts", [(), (3,), (ANSWER_LENGTH_BYTES,), (5, 9),
                                  (len(FRAMED),), (len(FRAMED) - 1, len(FRAMED) + 2)])
def test_the_answer_is_taken_from_any_split_of_the_writes(cuts: tuple[int, ...]) -> None:
    stream = FRAMED + b"hello\n"
    output = CappedOutput(100, audit_answer=True)
    edges = [0, *cuts, len(stream)]
    for start, end in zip(edges, edges[1:], strict=False):
        output.write(stream[start:end], end - start)
    assert output.audit_answer == ANSWER and not output.answer_too_large
    assert output.answer_at is not None
    assert output.text() == ("hello\n", False) and output.total == 6


def test_an_answer_over_its_cap_is_not_kept() -> None:
    length = MAX_ANSWER_BYTES + 1
    output = CappedOutput(100, audit_answer=True)
    output.write(length.to_bytes(ANSWER_LENGTH_BYTES, "little") + b"x" * length + b"out",
                 ANSWER_LENGTH_BYTES + length + 3)
    assert output.answer_too_large and output.audit_answer == b""
    assert output.text() == ("out", False)
