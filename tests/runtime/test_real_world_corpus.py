"""The real-world corpus: model-style scripts with their own tests, run in the sandbox.

Every script in ``tests/runtime/real_world_corpus/`` is what an LLM writes when asked for a small
program *and its tests* (unittest or doctest) using files in the working directory,
``os.path``, ``tempfile``, ``shutil``, ``glob``, ``pathlib``, ``sqlite3``, CSV and JSON
round trips, ``datetime``, dataclasses, logging, argparse and dynamic ``getattr``. Each was
run natively with CPython 3.13 (``record.py``, twice, in a fresh empty working directory)
and its stdout and exit code recorded in ``expected.json``. Here each runs under the default
(balanced) policy and must succeed, not be blocked, and print exactly the same stdout.

Scripts listed in ``NEEDS_TZDATA.txt`` use ``zoneinfo.ZoneInfo`` and need the IANA time-zone
database, which the runtime does not ship yet: they are expected failures (not strict).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import sandbox_wasm

CORPUS = Path(__file__).parent / "real_world_corpus"
EXPECTED: dict[str, dict[str, object]] = json.loads((CORPUS / "expected.json").read_text())
NEEDS_TZDATA = {
    line.strip()
    for line in (CORPUS / "NEEDS_TZDATA.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
}
TIMEOUT_MS = 10_000
#: Scripts that pass natively and not in the sandbox for a reason of WASI itself.
KNOWN_DIFFERENCES = {
    "245_shutil_which_free_tools.py": "WASI has no permission bits: os.chmod is accepted "
    "and st_mode keeps only the file type",
}

# What each category means in the sources (a script may count for several).
COVERAGE: dict[str, tuple[str, int]] = {
    "working directory (relative paths)": (
        r"""open\(\s*f?["'][^/"'{]|os\.makedirs\(\s*["'][^/]|Path\(\s*["'][^/"']"""
        r"""|Path\.cwd\(\)|os\.getcwd\(\)|os\.listdir\(\s*["']\.["']|glob\.glob\(\s*["'][^/]""",
        20,
    ),
    "os.path": (r"\bos\.path\.", 20),
    "tempfile": (r"\btempfile\.", 20),
    "shutil": (r"\bshutil\.", 20),
    "glob": (r"\bglob\.glob\(|\bglob\.iglob\(|\.r?glob\(", 20),
    "pathlib": (r"\bpathlib\b", 20),
    "csv round trip": (
        r"\bcsv\.(?:writer|DictWriter)\b[\s\S]*\bcsv\.(?:reader|DictReader)\b"
        r"|\bcsv\.(?:reader|DictReader)\b[\s\S]*\bcsv\.(?:writer|DictWriter)\b",
        20,
    ),
    "json round trip": (
        r"\bjson\.dumps?\([\s\S]*\bjson\.loads?\(|\bjson\.loads?\([\s\S]*\bjson\.dumps?\(",
        20,
    ),
    "datetime": (r"\bdatetime\b", 20),
    "dataclasses": (r"@dataclass\b|\bdataclasses\b", 20),
    "logging": (r"\bimport logging\b", 20),
    "argparse": (r"\bargparse\.ArgumentParser\(", 20),
    "dynamic getattr": (r"\bgetattr\(", 20),
    "sqlite3": (r"\bimport sqlite3\b", 15),
    "doctest": (r"\bdoctest\.testmod\(", 100),
    "unittest": (r"\bunittest\.main\(", 150),
}


def _source(name: str) -> str:
    return (CORPUS / name).read_text(encoding="utf-8")


def _params() -> list[object]:
    params = []
    for name in sorted(EXPECTED):
        marks = []
        if name in NEEDS_TZDATA:
            marks.append(pytest.mark.xfail(
                reason="no IANA time-zone database in the lean runtime yet", strict=True))
        elif name in KNOWN_DIFFERENCES:
            marks.append(pytest.mark.xfail(reason=KNOWN_DIFFERENCES[name], strict=True))
        params.append(pytest.param(name, id=name, marks=marks))
    return params


@pytest.fixture(scope="module")
def box():
    with sandbox_wasm.Sandbox() as sandbox:
        yield sandbox


@pytest.mark.parametrize("name", _params())
def test_script_matches_native_run(box: sandbox_wasm.Sandbox, name: str) -> None:
    expected = EXPECTED[name]
    result = box.execute(_source(name), timeout_ms=TIMEOUT_MS)
    assert result.audit.safety_verdict != "blocked", result.audit
    detail = f"status={result.status} error={result.error}\nstderr:\n{result.stderr[-3000:]}"
    if expected["exit_code"] == 0:
        assert result.status == "succeeded", detail
    else:
        assert result.exit_code == expected["exit_code"], detail
    assert result.stdout == expected["stdout"], detail


def test_corpus_size_and_coverage() -> None:
    scripts = sorted(p.name for p in CORPUS.glob("[0-9][0-9][0-9]_*.py"))
    assert len(scripts) >= 300
    assert sorted(EXPECTED) == scripts, "expected.json is stale: run real_world_corpus/record.py"
    assert set(scripts) >= NEEDS_TZDATA
    assert len(NEEDS_TZDATA) <= 10
    zoneinfo_users = {n for n in scripts if re.search(r"\bZoneInfo\(", _source(n))}
    assert zoneinfo_users <= NEEDS_TZDATA
    sources = {n: _source(n) for n in scripts}
    short = {}
    for category, (pattern, minimum) in COVERAGE.items():
        count = sum(1 for text in sources.values() if re.search(pattern, text))
        if count < minimum:
            short[category] = (count, minimum)
    assert not short, f"categories below their minimum (count, minimum): {short}"
    for name, text in sources.items():
        assert "unittest.main(" in text or "doctest.testmod(" in text, name
        assert len(text.encode()) < 10_000, name
