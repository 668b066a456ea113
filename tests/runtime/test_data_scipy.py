"""The scientific stack of the data runtime (scripts/cpython_wasi/sci_stack.py): scipy over
OpenBLAS's C LAPACK, and scikit-learn, compiled in. What model code does with them is the data
corpus's (tests/runtime/data_corpus/2xx_scipy_*.py, checked against native runs); here: what
is there and what is not, and what differs on wasm32-wasi by design."""

from __future__ import annotations

import sandbox_wasm as sw

SCIPY_SUBMODULES = (
    "cluster", "constants", "datasets", "differentiate", "fft", "integrate", "interpolate",
    "io", "linalg", "ndimage", "optimize", "signal", "sparse", "sparse.csgraph",
    "sparse.linalg", "spatial", "special", "stats",
)


def test_every_scipy_submodule_imports_but_odr(data_box: sw.Sandbox) -> None:
    code = (
        "import importlib, scipy\n"
        f"for name in {SCIPY_SUBMODULES!r}:\n"
        "    importlib.import_module('scipy.' + name)\n"
        "print(scipy.__version__)\n"
        "try:\n"
        "    import scipy.odr\n"
        "except ImportError as exc:\n"
        "    print(type(exc).__name__)\n")
    result = data_box.execute(code)
    assert result.status == "succeeded", result.stderr
    # scipy.odr (deprecated) is ODRPACK, Fortran: the build has no Fortran compiler.
    assert result.stdout == "1.18.1\nModuleNotFoundError\n"


def test_lapack_through_scipy_and_its_cython_api(data_box: sw.Sandbox) -> None:
    """scipy's f2py wrappers (_flapack), its Cython LAPACK (cython_lapack, used by other
    modules) and the BLAS behind them agree with the values numpy computes natively."""
    code = (
        "import numpy as np\n"
        "from scipy import linalg\n"
        "from scipy.linalg import lapack, blas\n"
        "a = np.array([[4.0, 1.0], [2.0, 3.0]])\n"
        "lu, piv, info = lapack.dgetrf(a)\n"
        "print(info, np.round(lu, 6).tolist(), piv.tolist())\n"
        "print(np.round(blas.dgemm(1.0, a, a), 6).tolist())\n"
        "print(np.round(linalg.eigvals(a).real, 6).tolist())\n"
        "print(np.round(linalg.svdvals(a), 6).tolist())\n"
        "print(round(float(linalg.det(a)), 10))\n")
    result = data_box.execute(code)
    assert result.status == "succeeded", result.stderr
    assert result.stdout == ("0 [[4.0, 1.0], [0.5, 2.5]] [0, 1]\n"
                             "[[18.0, 7.0], [14.0, 11.0]]\n"
                             "[5.0, 2.0]\n"
                             "[5.116673, 1.954395]\n"
                             "10.0\n")


def test_matrix_market_files_round_trip_on_one_thread(data_box: sw.Sandbox) -> None:
    """scipy.io.mmwrite/mmread (fast_matrix_market) read and write sequentially on WASI, even
    when parallelism is asked for (its thread pool could never start there)."""
    code = (
        "import numpy as np\n"
        "from scipy import io, sparse\n"
        "m = sparse.coo_array(([1.5, 2.0, 3.25], ([0, 1, 2], [2, 0, 1])), shape=(3, 3))\n"
        "io.mmwrite('m.mtx', m)\n"
        "back = io.mmread('m.mtx', spmatrix=False)\n"
        "print((back.toarray() == m.toarray()).all())\n"
        "io.mmwrite('d.mtx', np.arange(6.0).reshape(2, 3))\n"
        "import scipy.io._fast_matrix_market as fmm\n"
        "fmm.PARALLELISM = 4\n"
        "print(io.mmread('d.mtx').tolist())\n")
    result = data_box.execute(code)
    assert result.status == "succeeded", result.stderr
    assert result.stdout == "True\n[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]\n"
    assert result.files["m.mtx"].startswith(b"%%MatrixMarket matrix coordinate real general")


def test_scikit_learn_fits_and_predicts_without_threads(data_box: sw.Sandbox) -> None:
    """n_jobs asks for processes or threads the guest does not have: the work still runs,
    on the one thread, with the results of a sequential run."""
    code = (
        "import numpy as np, sklearn\n"
        "from sklearn.datasets import make_classification\n"
        "from sklearn.ensemble import RandomForestClassifier\n"
        "from sklearn.model_selection import cross_val_score\n"
        "from sklearn.svm import SVC\n"
        "X, y = make_classification(n_samples=200, n_features=5, random_state=0)\n"
        "forest = RandomForestClassifier(n_estimators=20, random_state=0, n_jobs=-1)\n"
        "print(sklearn.__version__, round(forest.fit(X, y).score(X, y), 4))\n"
        "print(np.round(cross_val_score(SVC(), X, y, cv=3, n_jobs=2), 4).tolist())\n")
    result = data_box.execute(code)
    assert result.status == "succeeded", result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "1.9.1 1.0"
    assert lines[1] == "[0.9254, 0.9254, 0.9697]"  # native scikit-learn 1.9.1's


def test_blas_work_buffer_is_small(data_box: sw.Sandbox) -> None:
    """OpenBLAS allocates its GEMM work buffer on a run's first BLAS call, in every fresh run
    (the instance is reset) and for good (wasm memory does not shrink): on WASI it is 4 MiB
    (openblas-0001), not upstream's 32. A 600x600 product blocks through all of it; its
    operands are in Fortran order, so that the wrapper copies nothing, and its result (2.7
    MiB) is allocated in both runs."""
    setup = ("import numpy as np\nfrom scipy.linalg import blas\n"
             "a = np.ones((600, 600), order='F')\nb = np.ones((600, 600), order='F')\n"
             "c = np.ones((600, 600), order='F')\n")
    without = data_box.execute(setup + "c = np.ones((600, 600), order='F')\nprint(c[0, 0])")
    with_gemm = data_box.execute(setup + "c = blas.dgemm(1.0, a, b)\nprint(c[0, 0])")
    assert without.status == with_gemm.status == "succeeded", with_gemm.stderr
    assert with_gemm.stdout == "600.0\n"
    grown = with_gemm.metrics.peak_memory_bytes - without.metrics.peak_memory_bytes
    assert grown < 6 * 2**20, f"a BLAS call grew the guest's memory by {grown / 2**20:.1f} MiB"


def test_statsmodels_imports_and_its_formula_engines_agree(data_box: sw.Sandbox) -> None:
    """statsmodels.api is not imported in the snapshot (build.DATA_PRELOAD says why; seaborn
    imports the bare package, to know it is there);
    statsmodels.api imports its package's __init__ again as the module
    `statsmodels.__init__` (the package finder serves it, as the path finder would); both
    formula engines (patsy, the default, and formulaic) build the same design."""
    code = (
        "import sys\n"
        "print('statsmodels.api' in sys.modules)\n"
        "import numpy as np, pandas as pd\n"
        "import statsmodels, statsmodels.api, statsmodels.formula.api as smf\n"
        "print('statsmodels.__init__' in sys.modules)\n"
        "df = pd.DataFrame({'x': np.arange(8.0), 'g': list('abab' * 2)})\n"
        "df['y'] = 1.0 + 2.0 * df.x + (df.g == 'b') * 3.0\n"
        "for engine in ('patsy', 'formulaic'):\n"
        "    statsmodels.formula.options.formula_engine = engine\n"
        "    fit = smf.ols('y ~ x + C(g)', data=df).fit()\n"
        "    print(engine, np.round(fit.params.to_numpy(), 6).tolist())\n"
        "print(statsmodels.__version__)\n")
    result = data_box.execute(code)
    assert result.status == "succeeded", result.stderr
    assert result.stdout == ("False\nTrue\n"
                             "patsy [1.0, 3.0, 2.0]\n"
                             "formulaic [1.0, 3.0, 2.0]\n"
                             "0.15.0\n")


MILP = (
    "import numpy as np\n"
    "from scipy.optimize import milp, linprog, LinearConstraint\n"
    "def solve():\n"
    "    c = -np.array([0, 1])\n"
    "    a = np.array([[-1, 1], [3, 2], [2, 3]])\n"
    "    r = milp(c=c, constraints=LinearConstraint(a, -np.inf, [1, 12, 12]),\n"
    "             integrality=np.ones_like(c))\n"
    "    return r.x.tolist(), r.fun\n")


def test_highs_solves_again_in_one_run_and_in_a_session(data_box: sw.Sandbox) -> None:
    """HiGHS keeps its task scheduler in thread_local variables, from one solve to the next.
    They were compiled as thread-local storage (meson's -pthread) and wasm-ld placed them on
    other modules' data: the second MIP solve of a process trapped (data/ccwrap.py now drops
    -pthread, and data-link refuses objects compiled with atomics)."""
    one_run = data_box.execute(
        MILP + "for _ in range(3):\n    print(*solve())\n"
        "r = linprog([-1, 4], A_ub=[[-3, 1], [1, 2]], b_ub=[6, 4],\n"
        "            bounds=[(None, None), (-3, None)])\n"
        "print(r.x.tolist(), r.fun)\n")
    assert one_run.status == "succeeded", one_run.error
    assert one_run.stdout == "[1.0, 2.0] -2.0\n" * 3 + "[10.0, -3.0] -22.0\n"
    with sw.Session(sandbox=data_box) as session:
        assert session.execute(MILP).status == "succeeded"
        for _ in range(3):
            call = session.execute("print(*solve())")
            assert call.status == "succeeded", call.error
            assert call.stdout == "[1.0, 2.0] -2.0\n"


def test_workers_run_in_the_one_thread(data_box: sw.Sandbox) -> None:
    """scipy's `workers=` asks for threads (qmc, fft, cKDTree) or a process pool
    (differential_evolution, brute: scipy._lib._util.MapWrapper) the guest cannot start:
    the work runs in the one thread (site-scipy-0002, -0003), with native scipy's results
    (those of a pool of 2 for differential_evolution)."""
    code = (
        "import numpy as np\n"
        "from scipy import fft\n"
        "from scipy.optimize import brute, differential_evolution, rosen\n"
        "from scipy.spatial import cKDTree\n"
        "from scipy.stats import qmc\n"
        "sample = qmc.Sobol(d=2, scramble=False).random(8)\n"
        "print(round(qmc.discrepancy(sample, workers=-1), 12))\n"
        "print(qmc.Halton(d=2, scramble=False).random(4, workers=2).tolist())\n"
        "r = differential_evolution(rosen, [(-2, 2)] * 2, seed=1, updating='deferred',\n"
        "                           workers=2, maxiter=20, polish=False)\n"
        "print(r.nfev, np.round(r.x, 6).tolist())\n"
        "print(brute(rosen, ((-2, 2), (-2, 2)), Ns=9, workers=-1, finish=None).tolist())\n"
        "tree = cKDTree(np.arange(20.0).reshape(10, 2))\n"
        "print(tree.query([[4.1, 5.2]], k=2, workers=-1)[1].tolist())\n"
        "print(np.round(fft.rfft(np.arange(8.0), workers=-1).real, 6).tolist())\n"
        "try:\n"
        "    brute(rosen, ((-2, 2), (-2, 2)), Ns=3, workers=0)\n"
        "except RuntimeError as exc:\n"
        "    print(exc)\n")
    result = data_box.execute(code)
    assert result.status == "succeeded", result.stderr
    assert result.stdout.splitlines() == [
        "0.013882107205",
        "[[0.0, 0.0], [0.5, 0.3333333333333333], [0.25, 0.6666666666666666], "
        "[0.75, 0.1111111111111111]]",
        "630 [1.034505, 1.065938]",
        "[1.0, 1.0]",
        "[[2, 3]]",
        "[28.0, -4.0, -4.0, -4.0, -4.0]",
        "Number of workers specified must be -1, an int >= 1, or an object with a 'map' method",
    ]
