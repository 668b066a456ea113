"""Attacks on what the data runtime adds (the audit in report-only mode, so that only the
boundary answers): the packages' data files served at their installed paths from the
guest's own memory (read-only; nothing of the host's site-packages), and the C libraries of
the plotting stack fed hostile input inside the instance."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import sandbox_wasm as sw

SITE = "/usr/local/lib/python3.13/site-packages"


@pytest.fixture(scope="module")
def box() -> Iterator[sw.Sandbox]:
    with sw.Sandbox(runtime="python-data", policy=sw.REPORT_ONLY_POLICY) as sandbox:
        sandbox.warm_up()
        yield sandbox


def test_package_files_are_read_only(box: sw.Sandbox) -> None:
    result = box.execute(
        "import errno, matplotlib.font_manager as fm\n"
        "path = fm.findfont('DejaVu Sans')\n"
        f"assert path.startswith('{SITE}/'), path\n"
        "before = open(path, 'rb').read()\n"
        "for mode in ('w', 'a', 'r+', 'wb', 'x'):\n"
        "    try:\n"
        "        open(path, mode)\n"
        "    except OSError as e:\n"
        "        print(mode, errno.errorcode.get(e.errno, e.errno))\n"
        "print(open(path, 'rb').read() == before)\n")
    assert result.status == "succeeded", result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == "True"
    assert all(line.split()[1] in ("EROFS", "EEXIST") for line in lines[:-1]), lines
    assert len(lines) == 6


@pytest.mark.parametrize("path", [
    f"{SITE}/../../../../etc/passwd",
    f"{SITE}/../../../../proc/self/environ",
    f"{SITE}/matplotlib/../../../../../etc/hostname",
    f"{SITE}x/../../etc/passwd",
])
def test_paths_out_of_the_package_view_reach_only_the_guest_tree(
        box: sw.Sandbox, path: str) -> None:
    result = box.execute(
        f"import os\np = {path!r}\n"
        "try:\n"
        "    print(open(p, 'rb').read()[:40])\n"
        "except OSError as e:\n"
        "    print(type(e).__name__)\n"
        "print(os.path.exists(p))\n")
    assert result.status == "succeeded", result.stderr
    assert result.stdout.splitlines()[-1] == "False"
    assert "root:" not in result.stdout


def test_the_package_view_lists_only_the_runtime_s_packages(box: sw.Sandbox) -> None:
    result = box.execute(
        f"import os\nnames = os.listdir({SITE!r})\n"
        "print(all(not n.startswith('.') for n in names), 'matplotlib' in names,\n"
        "      'sandbox_wasm' in names, 'pip' in names, len(names) < 200)\n")
    assert result.status == "succeeded", result.stderr
    assert result.stdout == "True True False False True\n"


def test_hostile_images_are_refused_by_pillow_inside_the_instance(box: sw.Sandbox) -> None:
    result = box.execute(
        "import io\nfrom PIL import Image\n"
        "good = io.BytesIO(); Image.new('RGB', (64, 64), 'blue').save(good, 'PNG')\n"
        "for data in (good.getvalue()[:60], b'\\x89PNG\\r\\n\\x1a\\n' + b'\\xff' * 500,\n"
        "             b'GIF89a' + b'\\xff' * 300):\n"
        "    try:\n"
        "        Image.open(io.BytesIO(data)).load()\n"
        "    except Exception as e:\n"
        "        print(type(e).__name__)\n")
    assert result.status == "succeeded", result.stderr
    assert len(result.stdout.splitlines()) == 3, result.stdout


def test_a_forged_font_ends_only_its_own_run(box: sw.Sandbox) -> None:
    """FreeType refuses the font in C++, which cannot raise on wasm32 with our toolchain
    (README): the run ends as a crash. Nothing leaves the instance, and the sandbox serves
    the next run."""
    result = box.execute(
        "import io\nfrom matplotlib import ft2font\n"
        "ft2font.FT2Font(io.BytesIO(b'OTTO' + b'\\x00' * 200))\n")
    assert result.status in ("failed", "internal_error"), result.status
    assert result.error is not None
    again = box.execute("print(6 * 7)")
    assert again.status == "succeeded" and again.stdout == "42\n"


def test_an_exception_inside_a_compiled_scipy_callback_ends_only_its_run(
        box: sw.Sandbox) -> None:
    """scipy carries a Python exception out of quad's C loop with longjmp, which WASI lacks:
    the stand-in ends the run (sci_stack.py, data/wasi-include/setjmp.h), with its message on
    stderr. The host and the next run are unaffected."""
    result = box.execute(
        "from scipy import integrate\n"
        "def f(x):\n"
        "    raise ValueError('from the integrand')\n"
        "integrate.quad(f, 0, 1)\n")
    assert result.status in ("failed", "internal_error"), result.status
    assert result.error is not None
    assert "cannot be carried back on WASI" in result.stderr
    again = box.execute("from scipy import integrate\n"
                        "print(round(integrate.quad(lambda x: x * x, 0, 3)[0], 6))\n")
    assert again.status == "succeeded" and again.stdout == "9.0\n", again.stderr


@pytest.mark.parametrize("payload", [
    "%%MatrixMarket matrix coordinate real general\\n3 3 2\\n1 1 1.0\\n9 9 2.0\\n",
    "%%MatrixMarket matrix coordinate real general\\n-1 99999999999 1\\n",
    "%%MatrixMarket nonsense\\n",
])
def test_hostile_matrix_market_files_end_only_their_own_run(box: sw.Sandbox,
                                                            payload: str) -> None:
    """fast_matrix_market (C++) refuses these with an exception, which cannot raise on wasm32
    with our toolchain (README): the run ends, nothing else does."""
    result = box.execute(
        "from scipy import io\n"
        f"open('bad.mtx', 'w').write({payload!r})\n"
        "print(io.mmread('bad.mtx'))\n", limits={"memory_mb": 256})
    assert result.status in ("failed", "internal_error", "memory_exceeded"), result.status
    again = box.execute("print(6 * 7)")
    assert again.status == "succeeded" and again.stdout == "42\n"


def test_a_sparse_matrix_with_forged_indices_stays_inside_the_instance(
        box: sw.Sandbox) -> None:
    """Indices past the shape, handed to scipy's C++ sparse tools without scipy's own checks,
    read and write only the instance's memory."""
    result = box.execute(
        "import numpy as np\n"
        "from scipy.sparse import _sparsetools\n"
        "indptr = np.array([0, 2], dtype=np.int32)\n"
        "indices = np.array([0, 2_000_000_000], dtype=np.int32)\n"
        "data = np.ones(2)\n"
        "x = np.ones(3); y = np.zeros(1)\n"
        "_sparsetools.csr_matvec(1, 3, indptr, indices, data, x, y)\n"
        "print(y)\n")
    assert result.status in ("succeeded", "failed", "internal_error"), result.status
    again = box.execute("print(6 * 7)")
    assert again.status == "succeeded" and again.stdout == "42\n"


@pytest.mark.parametrize("function_pointer", [0, 7, 0x7FFF_FFFF])
def test_a_forged_low_level_callable_calls_only_into_the_instance(
        box: sw.Sandbox, function_pointer: int) -> None:
    """scipy.LowLevelCallable takes a raw function pointer (here forged through the capsule
    helper that replaces ctypes on WASI, scipy-0005): on wasm it is an index into the
    instance's own function table, checked by type at the call, so quad calls a function of
    the guest or traps; the host and the next run are unaffected."""
    result = box.execute(
        "from scipy import LowLevelCallable, integrate\n"
        "from scipy._lib import _ccallback_c\n"
        f"capsule = _ccallback_c.get_raw_capsule({function_pointer}, 'double (double)', None)\n"
        "print(integrate.quad(LowLevelCallable(capsule), 0, 1))\n",
        policy=sw.REPORT_ONLY_POLICY)
    assert result.status in ("failed", "internal_error"), (result.status, result.stdout)
    assert result.error is not None
    again = box.execute("print(6 * 7)")
    assert again.status == "succeeded" and again.stdout == "42\n"


def test_statsmodels_downloads_go_through_the_network_policy(box: sw.Sandbox) -> None:
    """statsmodels fetches R datasets with urllib: the guest has no sockets, its HTTP goes
    through the host's network channel, which refuses a run that was given no `network=`;
    its download cache asks for a home directory the sandbox does not have."""
    result = box.execute("import statsmodels.api as sm\n"
                         "print(sm.datasets.get_rdataset('mtcars').data.shape)\n")
    assert result.status == "failed" and result.error is not None
    assert result.error.type == "URLError"
    assert "allows no network" in result.error.message
    cached = box.execute("import statsmodels.api as sm\n"
                         "sm.datasets.get_rdataset('mtcars', cache=True)\n")
    assert cached.status == "failed" and cached.error is not None
    assert cached.error.type == "RuntimeError", cached.error


@pytest.mark.parametrize("rows", [1_000, 20_000_000])
def test_statsmodels_kernels_without_bounds_checks_read_only_the_instance(
        box: sw.Sandbox, rows: int) -> None:
    """statsmodels' state-space kernels are Cython without bounds checks: given arrays of
    inconsistent shapes they read far past one (here up to 160 MB past a 1x1 array), which
    is the instance's own memory or a trap; the next run in the reused instance starts
    clean."""
    result = box.execute(
        "import numpy as np\n"
        "from statsmodels.tsa.statespace import _tools\n"
        "a = np.ones((1, 1), order='F')\n"
        f"b = np.zeros(({rows}, 1), order='F')\n"
        f"missing = np.zeros(({rows}, 1), dtype=np.int32, order='F')\n"
        "_tools.dcopy_missing_vector(a, b, missing)\n"
        "print(b.shape)\n", limits={"memory_mb": 1024})
    assert result.status in ("succeeded", "failed", "internal_error"), result.status
    again = box.execute("import numpy as np\nprint(np.zeros((2, 1)).sum(), 6 * 7)")
    assert again.status == "succeeded" and again.stdout == "0.0 42\n", again.stderr


def test_a_billion_workers_run_on_the_one_thread(box: sw.Sandbox) -> None:
    """scipy's `workers=` on WASI maps in the one thread (site-scipy-0002, -0003): asking for
    a billion workers takes no thread, process or memory per worker, within a small memory
    cap and a short deadline."""
    result = box.execute(
        "from scipy.optimize import brute, differential_evolution, rosen\n"
        "from scipy.stats import qmc\n"
        "sample = qmc.Sobol(d=2, scramble=False).random(8)\n"
        "print(round(qmc.discrepancy(sample, workers=10**9), 12))\n"
        "r = differential_evolution(rosen, [(-2, 2)] * 2, seed=1, updating='deferred',\n"
        "                           workers=10**9, maxiter=2, polish=False)\n"
        "print(r.nfev)\n"
        "print(brute(rosen, ((-2, 2), (-2, 2)), Ns=3, workers=10**9, finish=None).tolist())\n",
        limits={"memory_mb": 320, "timeout_ms": 20_000})
    assert result.status == "succeeded", (result.status, result.error)
    assert result.stdout == "0.013882107205\n90\n[0.0, 0.0]\n"  # native scipy's


def test_compiled_code_starting_a_thread_ends_only_its_run(box: sw.Sandbox) -> None:
    """Past the Python-level guard, scipy's compiled discrepancy loop asked for two workers
    starts a std::thread, which the guest's <thread> (data/wasi-include) refuses by
    aborting: the run ends as a crash; the reused instance's next run is clean."""
    result = box.execute(
        "from scipy.stats import _qmc_cy, qmc\n"
        "sample = qmc.Sobol(d=2, scramble=False).random(8)\n"
        "print(_qmc_cy._cy_wrapper_centered_discrepancy(sample, False, workers=2))\n")
    assert result.status == "failed" and result.error is not None
    assert result.error.type == "GuestCrash", result.error
    again = box.execute("from scipy.stats import qmc\n"
                        "print(round(qmc.discrepancy(qmc.Sobol(d=2, scramble=False)"
                        ".random(8)), 12))\n")
    assert again.status == "succeeded" and again.stdout == "0.013882107205\n", again.stderr
