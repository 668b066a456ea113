"""The data runtime (numpy + pandas imported in the snapshot) against the lean runtime and
against native numpy/pandas of the same versions, in one run.

    .venv/bin/python benchmarks/data_runtime.py [--quick] [--native PYTHON]

- fresh-run latency (p50/p95 of whole `execute()` calls, instance reuse on as in production):
  `print('hi')` on both runtimes, and on the data runtime issue 30's pandas one-liner and
  issue 31's line chart saved to PNG, scipy minimisation, scikit-learn regression and a
  statsmodels formula regression;
- data work timed inside one execution (best of several repetitions, fuel and epoch
  interruption on) and the same code timed natively: a 100k-row groupby/aggregate, a
  300x300 matmul + solve, a line chart to PNG, a scipy minimize, a LinearRegression fit, a
  statsmodels OLS formula fit, a CSV round trip; ratio = sandbox / native;
- the data runtime's snapshot size, memory floor, and the host memory an idle session holds.

The native baseline is an interpreter with numpy 2.4.6, pandas 3.0.6, matplotlib 3.10.9,
scipy 1.18.1, scikit-learn 1.9.1 and statsmodels 0.15.0 (--native; default: the data
corpus's recording venv, which tests/runtime/data_corpus/record.py makes). Prints a table and
writes benchmarks/results/data_runtime.json.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from _timing import milliseconds, summary

import sandbox_wasm as sw
from sandbox_wasm._runtimes.artifacts import python_runtime_file

HERE = Path(__file__).resolve().parent
DEFAULT_NATIVE = Path.home() / ".cache" / "sandbox-wasm" / "data-corpus-venv" / "bin" / "python"
PANDAS_ONE_LINER = ("import pandas as pd; "
                    "print(pd.DataFrame({'a': [1, 2]}).sum().to_dict())")
#: Issue 31's chart: a line chart drawn and saved as a PNG (Agg), as model code does.
LINE_CHART = (
    "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
    "fig, ax = plt.subplots(figsize=(4, 3))\n"
    "ax.plot([1, 2, 3, 4], [3, 1, 4, 1], label='sales'); ax.set_title('Sales')\n"
    "ax.set_xlabel('month'); ax.legend()\nfig.savefig('chart.png'); plt.close(fig)\n")
#: Issue 31's scipy and scikit-learn runs: a small minimisation, a regression on 1k rows.
SCIPY_MINIMIZE = (
    "from scipy.optimize import minimize\n"
    "r = minimize(lambda x: (x[0] - 1) ** 2 + (x[1] + 2) ** 2 + x[0] * x[1], [0.0, 0.0])\n"
    "print(r.x.round(3))\n")
LINEAR_REGRESSION = (
    "import numpy as np\nfrom sklearn.linear_model import LinearRegression\n"
    "rng = np.random.default_rng(0)\nX = rng.random((1000, 3))\n"
    "y = X @ np.array([1.0, 2.0, 3.0]) + 0.5 + rng.normal(scale=0.1, size=1000)\n"
    "print(LinearRegression().fit(X, y).coef_.round(2))\n")
#: A statsmodels regression through its formula API (patsy), with its summary's numbers.
OLS_FORMULA = (
    "import numpy as np, pandas as pd\nimport statsmodels.formula.api as smf\n"
    "rng = np.random.default_rng(0)\n"
    "df = pd.DataFrame({'x': rng.random(1000), 'g': rng.choice(['a', 'b', 'c'], 1000)})\n"
    "df['y'] = 2.0 * df.x + (df.g == 'b') + rng.normal(scale=0.1, size=1000)\n"
    "fit = smf.ols('y ~ x + C(g)', data=df).fit()\n"
    "print(fit.params.round(2).to_dict(), round(fit.rsquared, 3))\n")

CASES: dict[str, str] = {
    "groupby 100k rows": (
        "import numpy as np, pandas as pd\n"
        "rng = np.random.default_rng(0)\n"
        "DF = pd.DataFrame({'k': rng.integers(0, 100, 100_000), 'v': rng.random(100_000),\n"
        "                   'w': rng.random(100_000)})\n"
        "def work():\n"
        "    DF.groupby('k').agg(v_sum=('v', 'sum'), v_mean=('v', 'mean'), w_max=('w', 'max'))\n"
    ),
    "matmul + solve 300x300": (
        "import numpy as np\n"
        "rng = np.random.default_rng(0)\n"
        "A = rng.random((300, 300)); B = rng.random((300, 300)); b = rng.random(300)\n"
        "def work():\n"
        "    np.linalg.solve(A @ B + np.eye(300) * 300, b)\n"
    ),
    "line chart to PNG": (
        "import io, matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
        "def work():\n"
        "    fig, ax = plt.subplots(figsize=(4, 3))\n"
        "    ax.plot([1, 2, 3, 4], [3, 1, 4, 1], label='sales'); ax.set_title('Sales')\n"
        "    ax.set_xlabel('month'); ax.legend()\n"
        "    fig.savefig(io.BytesIO(), format='png'); plt.close(fig)\n"
    ),
    "scipy minimize (BFGS, 2-d)": (
        "from scipy.optimize import minimize\n"
        "def work():\n"
        "    minimize(lambda x: (x[0] - 1) ** 2 + (x[1] + 2) ** 2 + x[0] * x[1], [0.0, 0.0])\n"
    ),
    "LinearRegression fit 1k rows": (
        "import numpy as np\nfrom sklearn.linear_model import LinearRegression\n"
        "rng = np.random.default_rng(0)\nX = rng.random((1000, 3))\n"
        "y = X @ np.array([1.0, 2.0, 3.0]) + 0.5\n"
        "def work():\n"
        "    LinearRegression().fit(X, y)\n"
    ),
    "statsmodels OLS formula 1k rows": (
        "import numpy as np, pandas as pd\nimport statsmodels.formula.api as smf\n"
        "rng = np.random.default_rng(0)\n"
        "DF = pd.DataFrame({'x': rng.random(1000), 'g': rng.choice(['a', 'b', 'c'], 1000)})\n"
        "DF['y'] = 2.0 * DF.x + (DF.g == 'b') + rng.normal(scale=0.1, size=1000)\n"
        "def work():\n"
        "    smf.ols('y ~ x + C(g)', data=DF).fit().rsquared\n"
    ),
    "csv round trip 20k rows": (
        "import io, numpy as np, pandas as pd\n"
        "rng = np.random.default_rng(0)\n"
        "DF = pd.DataFrame({'a': rng.random(20_000), 'b': rng.integers(0, 9, 20_000),\n"
        "                   'c': ['x%d' % i for i in range(20_000)]})\n"
        "def work():\n"
        "    pd.read_csv(io.StringIO(DF.to_csv(index=False)))\n"
    ),
}

TIMER = (
    "import time\n"
    "best = float('inf')\n"
    "for _ in range(REPEAT):\n"
    "    t = time.perf_counter(); work(); best = min(best, time.perf_counter() - t)\n"
    "print(best * 1000)\n"
)


def in_sandbox(box: sw.Sandbox, case: str, repeat: int) -> float:
    result = box.execute(case + TIMER.replace("REPEAT", str(repeat)),
                         limits={"timeout_ms": 30_000, "memory_mb": 512})
    if result.status != "succeeded":
        raise SystemExit(f"sandbox run failed: {result.status} {result.stderr[-500:]}")
    return float(result.stdout)


def native(python: Path, case: str, repeat: int) -> float:
    done = subprocess.run([str(python), "-c", case + TIMER.replace("REPEAT", str(repeat))],
                          capture_output=True, text=True, check=True,
                          env={**os.environ, "OPENBLAS_NUM_THREADS": "1",
                               "OMP_NUM_THREADS": "1"})
    return float(done.stdout)


def latency(box: sw.Sandbox, code: str, samples: int) -> dict[str, float]:
    for _ in range(5):
        box.execute(code)
    return summary([milliseconds(lambda: box.execute(code)) for _ in range(samples)])


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--native", type=Path, default=DEFAULT_NATIVE)
    args = parser.parse_args()
    samples, repeat = (30, 3) if args.quick else (200, 7)
    out: dict[str, object] = {}
    with sw.Sandbox() as lean, sw.Sandbox(runtime="python-data") as data:
        lean.warm_up()
        data.warm_up()
        out["latency_ms"] = {
            "lean print('hi')": latency(lean, "print('hi')", samples),
            "data print('hi')": latency(data, "print('hi')", samples),
            "data pandas one-liner": latency(data, PANDAS_ONE_LINER, samples),
            "data line chart to PNG": latency(data, LINE_CHART, max(20, samples // 10)),
            "data scipy minimize": latency(data, SCIPY_MINIMIZE, max(20, samples // 10)),
            "data LinearRegression 1k rows": latency(data, LINEAR_REGRESSION,
                                                     max(20, samples // 10)),
            "data statsmodels OLS formula": latency(data, OLS_FORMULA, max(20, samples // 10)),
        }
        work = {}
        for name, case in CASES.items():
            inside = in_sandbox(data, case, repeat)
            outside = native(args.native, case, repeat)
            work[name] = {"sandbox_ms": round(inside, 2), "native_ms": round(outside, 2),
                          "ratio": round(inside / outside, 2)}
        out["work"] = work
        runtime = python_runtime_file(variant="python-data")
        floor = data._program("python").memory_floor_bytes
        before = rss_kib()
        sessions = [sw.Session(sandbox=data, on_trap="close") for _ in range(10)]
        for session in sessions:
            session.execute("import pandas as pd\ndf = pd.DataFrame({'a': range(1000)})")
        per_session = (rss_kib() - before) / 10 / 1024
        for session in sessions:
            session.close()
        out["data_runtime"] = {
            "snapshot_bytes": runtime.path.stat().st_size,
            "memory_floor_mib": round(floor / 2**20, 1),
            "host_rss_per_idle_session_mib": round(per_session, 1),
        }
    print(f"{'latency (whole execute call)':34} {'p50 ms':>8} {'p95 ms':>8}")
    for name, row in out["latency_ms"].items():  # type: ignore[union-attr]
        print(f"{name:34} {row['p50_ms']:8.2f} {row['p95_ms']:8.2f}")
    print(f"\n{'work (best of ' + str(repeat) + ')':34} {'sandbox':>9} {'native':>9} {'ratio':>6}")
    for name, row in work.items():
        print(f"{name:34} {row['sandbox_ms']:9.1f} {row['native_ms']:9.1f} {row['ratio']:6.2f}")
    print("\n" + json.dumps(out["data_runtime"]))
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "data_runtime.json").write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
