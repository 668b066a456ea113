"""The data corpus: model-style data-analysis scripts run on the data runtime.

Every script in ``tests/runtime/data_corpus/`` is what an LLM writes when asked for a small data
analysis: pandas groupby/agg, merge and join, pivot tables, melt and crosstab, rolling,
expanding and ewm windows, resampling on a DatetimeIndex, time zones, ``.str`` methods,
categoricals, missing data, CSV and JSON in and out, numpy linear algebra, seeded random
numbers, statistics, FFT, polynomial fits and histograms; scipy (optimize, linprog/milp,
stats, integrate, linalg, interpolate, signal, sparse and graphs, spatial, cluster, fft,
special, ndimage), scikit-learn (pipelines, regression, classification, clustering, PCA,
grid search, text features, imputation) and statsmodels (OLS and GLMs through formulas, ARIMA
and SARIMAX, decomposition and smoothing, statistical tests, robust, quantile and mixed
models). A script reads the files named on its ``# inputs:`` line from ``/input`` (given here
from ``data_corpus/inputs/``), or builds its data itself, works in ``/output`` (the working
directory) and prints its results.

Each was run natively by ``data_corpus/record.py`` (CPython 3.13 with exactly the data
runtime's numpy, pandas, scipy, scikit-learn, statsmodels and their pure-Python dependencies,
twice, with two hash seeds), and its stdout and the files it wrote were recorded in
``expected.json``. Here each runs on the ``python-data`` runtime under the default (balanced)
policy and limits, and must succeed and print and write exactly the same. The scripts print
nothing that legitimately differs between 64-bit Linux and wasm32 (``np.intp`` is int32
there), and round what BLAS or libm computes to fewer digits than either may differ in; a
difference is a bug of the runtime.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest

import sandbox_wasm

CORPUS = Path(__file__).parent / "data_corpus"
EXPECTED: dict[str, dict[str, object]] = json.loads(
    (CORPUS / "expected.json").read_text(encoding="utf-8"))
RUNTIME = "python-data"
TIMEOUT_MS = 20_000
INPUTS_LINE = re.compile(r"^# inputs: (.+)$", re.M)
#: What a script here does not import: charts (their pixels differ by FreeType version;
#: test_data_runtime.py checks them as PNGs), packages the native recording does not hold, and
#: what the data runtime does not ship (pyarrow, numexpr, bottleneck).
ABSENT_MODULES = re.compile(
    r"^\s*(?:import|from)\s+(?:matplotlib|seaborn|tabulate|pyarrow"
    r"|numexpr|bottleneck|openpyxl)\b", re.M)

# What each category means in the sources (a script may count for several), with its minimum.
COVERAGE: dict[str, tuple[str, int]] = {
    "groupby": (r"\.groupby\(", 50),
    "merge / join / concat": (
        r"\.merge\(|pd\.merge|merge_asof|merge_ordered|\.join\(|pd\.concat\(", 20),
    "pivot / melt / crosstab / stack": (
        r"pivot_table|\.pivot\(|\.melt\(|pd\.crosstab|\.unstack\(|\.stack\(|wide_to_long", 20),
    "rolling / expanding / ewm": (r"\.rolling\(|\.expanding\(|\.ewm\(", 10),
    "resample / date ranges / periods": (
        r"\.resample\(|date_range\(|bdate_range\(|period_range\(|pd\.Grouper\(|to_period\(", 20),
    "time zones": (r"tz_localize|tz_convert|utc=True|tz=", 6),
    "string methods": (r"\.str\.", 20),
    "categorical / binning": (r"categor|Categorical|pd\.cut\(|pd\.qcut\(|factorize", 15),
    "missing data": (r"fillna|interpolate\(|dropna\(|\.isna\(|ffill\(|bfill\(", 30),
    "apply / map / transform / pipe": (r"\.apply\(|\.map\(|\.transform\(|\.pipe\(", 20),
    "sort / rank / nlargest": (
        r"sort_values|sort_index|\.rank\(|nlargest|nsmallest|np\.sort|argsort|lexsort", 40),
    "describe / value_counts": (r"describe\(|value_counts\(", 20),
    "CSV in or out": (r"read_csv\(|to_csv\(|csv\.writer|savetxt|loadtxt", 60),
    "JSON in or out": (r"read_json\(|to_json\(|json_normalize|json\.dump|json\.load", 20),
    "files under /input": (r"[\"']/input/", 60),
    "numpy linear algebra": (r"np\.linalg\.", 15),
    "seeded random numbers": (
        r"default_rng\(|np\.random\.seed\(|RandomState\(|random_state=|SeedSequence\(", 20),
    "statistics": (
        r"\bstatistics\.|np\.(?:nan)?(?:mean|median|std|var|percentile|quantile|corrcoef|cov"
        r"|average)\(|\.corr\(|\.cov\(|\.std\(|\.var\(|\.quantile\(", 25),
    "fft": (r"np\.fft\.", 4),
    "polynomial fits": (r"polyfit|polyval|Polynomial|poly1d|Chebyshev", 5),
    "histograms / bincount": (r"np\.histogram|np\.digitize|np\.bincount", 4),
    "cumulative sums": (r"cumsum\(|cumprod\(|cummax\(|accumulate\(", 10),
    "unique / duplicates": (r"np\.unique|\.unique\(\)|nunique\(|duplicated\(|drop_duplicates", 15),
    "where / select / mask": (r"np\.where\(|np\.select\(|\.where\(|\.mask\(", 8),
    "broadcasting": (r"\[:, None|\[None, :|None\]|np\.newaxis|broadcast", 8),
    "scipy.optimize": (r"from scipy(?:\.optimize)? import (?:.*\b)?optimize|scipy\.optimize", 3),
    "scipy.stats": (r"from scipy(?:\.stats)? import (?:.*\b)?stats|scipy\.stats", 3),
    "scipy.integrate / linalg / interpolate / signal": (
        r"scipy(?:\.| import )(?:integrate|linalg|interpolate|signal)", 4),
    "scipy.sparse / spatial / cluster / fft / special / ndimage": (
        r"scipy(?:\.| import )(?:sparse|spatial|cluster|fft|special|ndimage)", 2),
    "scikit-learn fit / predict": (r"\.fit\(|\.predict\(", 5),
    "scikit-learn pipelines and model selection": (
        r"Pipeline|make_pipeline|GridSearchCV|cross_val_score|train_test_split", 4),
    "statsmodels models": (r"smf\.(?:ols|logit|glm|quantreg|mixedlm)\(|sm\.(?:OLS|RLM|WLS|Probit)\("
                           r"|ARIMA\(|SARIMAX\(|ExponentialSmoothing\(", 5),
    "statsmodels tests and time-series tools": (
        r"anova_lm|adfuller|kpss|acorr_ljungbox|multipletests|proportions_ztest|seasonal_decompose"
        r"|STL\(|lowess\(", 3),
}


def _source(name: str) -> str:
    return (CORPUS / name).read_text(encoding="utf-8")


def _input_names(source: str) -> list[str]:
    match = INPUTS_LINE.search(source)
    return match.group(1).replace(",", " ").split() if match else []


def _inputs(source: str) -> dict[str, bytes]:
    return {name: (CORPUS / "inputs" / name).read_bytes() for name in _input_names(source)}


def _as_recorded(data: bytes) -> str:
    """A written file as record.py stores it: its text, or base64 when it is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return "base64:" + base64.b64encode(data).decode("ascii")


@pytest.fixture(scope="module")
def data_box():
    """One Sandbox on the data runtime for the whole corpus; the module is skipped when that
    runtime is not installed (found the way every execution finds it, by `warm_up()`)."""
    try:
        box = sandbox_wasm.Sandbox(runtime=RUNTIME)
    except TypeError:
        pytest.skip("this sandbox_wasm has no runtime= parameter: no data runtime to run on")
    with box:
        try:
            box.warm_up()
        except sandbox_wasm.RuntimeNotFoundError as exc:
            pytest.skip(f"the {RUNTIME} runtime is not installed: {exc}")
        yield box


@pytest.mark.parametrize("name", [pytest.param(n, id=n) for n in sorted(EXPECTED)])
def test_script_matches_native_run(data_box: sandbox_wasm.Sandbox, name: str) -> None:
    expected = EXPECTED[name]
    source = _source(name)
    result = data_box.execute(source, files=_inputs(source), timeout_ms=TIMEOUT_MS)
    assert result.audit.safety_verdict != "blocked", result.audit
    detail = f"status={result.status} error={result.error}\nstderr:\n{result.stderr[-3000:]}"
    assert result.status == "succeeded", detail
    assert not result.stdout_truncated, detail
    assert result.stdout == expected["stdout"], detail
    assert not result.files_dropped, result.files_dropped
    written = {path: _as_recorded(data) for path, data in result.files.items()}
    assert written == expected["files"], detail


def test_corpus_size_and_coverage() -> None:
    scripts = sorted(p.name for p in CORPUS.glob("[0-9][0-9][0-9]_*.py"))
    assert len(scripts) >= 160
    assert sorted(EXPECTED) == scripts, "expected.json is stale: run data_corpus/record.py"
    sources = {n: _source(n) for n in scripts}
    short = {}
    for category, (pattern, minimum) in COVERAGE.items():
        count = sum(1 for text in sources.values() if re.search(pattern, text))
        if count < minimum:
            short[category] = (count, minimum)
    assert not short, f"categories below their minimum (count, minimum): {short}"
    assert sum(1 for e in EXPECTED.values() if e["files"]) >= 30, "too few scripts write files"
    limits = sandbox_wasm.Limits()
    for name, text in sources.items():
        assert not ABSENT_MODULES.search(text), f"{name} imports what the data runtime lacks"
        assert "to_markdown(" not in text, f"{name}: to_markdown needs tabulate"
        assert len(text.encode()) < limits.max_source_bytes, name
        for input_name in _input_names(text):
            assert (CORPUS / "inputs" / input_name).is_file(), f"{name}: no inputs/{input_name}"
        stdout = EXPECTED[name]["stdout"]
        assert isinstance(stdout, str) and stdout, f"{name} prints nothing"
        assert len(stdout.encode()) < limits.max_stdout_bytes, name
