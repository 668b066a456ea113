"""The data runtime (`runtime="python-data"`): numpy and pandas compiled into our CPython and
imported in its snapshot. What a run, a session, files, tools and every limit do on it."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

import sandbox_wasm as sw

DATA = "python-data"


def test_numpy_and_pandas_are_already_imported(data_box: sw.Sandbox) -> None:
    result = data_box.execute(
        "import sys\n"
        "print('numpy' in sys.modules, 'pandas' in sys.modules)\n"
        "import numpy as np, pandas as pd\n"
        "print(np.__version__, pd.__version__)\n"
        "print(pd.DataFrame({'a': [1, 2]}).sum().to_dict())\n")
    assert result.status == "succeeded", result.stderr
    assert result.stdout == "True True\n2.4.6 3.0.6\n{'a': 3}\n"
    assert result.runtime.name == f"{DATA}-wasi-snapshot"
    assert result.runtime.version == "3.13.15"


def test_the_lean_runtime_has_no_numpy() -> None:
    result = sw.execute("import numpy")
    assert result.status == "failed" and result.error is not None
    assert result.error.type == "ModuleNotFoundError"


def test_csv_in_dataframe_out(data_box: sw.Sandbox) -> None:
    """/input/data.csv -> groupby -> /output/summary.csv and a file in the working
    directory, as model code writes them."""
    rows = "city,month,sales\nParis,1,10\nLyon,1,4\nParis,2,7\nLyon,2,6\nNice,2,1\n"
    code = (
        "import pandas as pd\n"
        "df = pd.read_csv('/input/data.csv')\n"
        "summary = df.groupby('city', as_index=False)['sales'].agg(['sum', 'mean'])\n"
        "summary.to_csv('/output/summary.csv', index=False)\n"
        "df.pivot_table(index='city', columns='month', values='sales', fill_value=0)"
        ".to_csv('pivot.csv')\n"
        "print(summary.to_string(index=False))\n")
    result = data_box.execute(code, files={"data.csv": rows})
    assert result.status == "succeeded", result.stderr
    summary = list(csv.reader(io.StringIO(result.files["summary.csv"].decode())))
    assert summary == [["city", "sum", "mean"], ["Lyon", "10", "5.0"],
                       ["Nice", "1", "1.0"], ["Paris", "17", "8.5"]]
    assert result.files["pivot.csv"].decode().splitlines() == [
        "city,1,2", "Lyon,4.0,6.0", "Nice,0.0,1.0", "Paris,10.0,7.0"]


def test_the_default_integer_is_64_bit(data_box: sw.Sandbox) -> None:
    """wasm32 is a 32-bit platform: numpy's default integer is patched to int64 there, as on
    the 64-bit machines model code is written on (intp stays pointer-sized)."""
    result = data_box.execute(
        "import numpy as np, pandas as pd\n"
        "print(np.int_, np.array([1, 2]).dtype, np.arange(3).dtype, np.dtype(int))\n"
        "print(np.prod([100_000, 100_000]), (np.arange(3) * 2**31)[-1])\n"
        "print(pd.Series(np.arange(3)).dtype, np.ones(3, bool).sum().dtype, np.intp)\n")
    assert result.status == "succeeded", result.stderr
    assert result.stdout.splitlines() == [
        "<class 'numpy.int64'> int64 int64 int64",
        "10000000000 4294967296",
        "int64 int64 <class 'numpy.int32'>",
    ]


def test_int64_values_serve_where_numpy_wants_intp(data_box: sw.Sandbox) -> None:
    """Counts, indices and sizes arrive as int64 (the default integer) where numpy converts
    them to intp (int32 on wasm32): accepted when every value fits, refused when one does
    not; string lengths and positions come back as int64 (native numpy prints the same)."""
    result = data_box.execute(
        "import numpy as np\n"
        "print(np.repeat(np.array([1, 2]), np.array([2, 3])).tolist())\n"
        "print(np.choose(1, [np.array([1, 2]), np.array([3, 4])]).tolist())\n"
        "a = np.zeros(4, int); a.put(np.array([0, 2]), [5, 6]); print(a.tolist())\n"
        "print(np.random.RandomState(1).binomial(np.array([5, 10]), 0.5).tolist())\n"
        "try:\n"
        "    np.repeat(np.array([1]), np.array([2**40]))\n"
        "except TypeError as e:\n"
        "    print('TypeError')\n"
        "for dtype in ('U', 'T'):\n"
        "    words = np.array(['abc', 'hello', ''], dtype=dtype)\n"
        "    found = np.strings.find(words, 'l')\n"
        "    print(np.strings.str_len(words).tolist(), found.tolist(), found.dtype,\n"
        "          np.strings.count(words, 'l').tolist(), np.strings.rfind(words, 'l').tolist())\n"
        "print(np.strings.expandtabs(np.array(['a\\tb', 'abcdefgh\\tc'])).tolist())\n")
    assert result.status == "succeeded", result.stderr
    assert result.stdout.splitlines() == [
        "[1, 1, 2, 2, 2]",
        "[3, 4]",
        "[5, 0, 6, 0]",
        "[2, 6]",
        "TypeError",
        "[3, 5, 0] [-1, 2, -1] int64 [0, 2, 0] [-1, 3, -1]",
        "[3, 5, 0] [-1, 2, -1] int64 [0, 2, 0] [-1, 3, -1]",
        "['a       b', 'abcdefgh        c']",
    ]


def test_numpy_scalars_copy_and_arrays_go_to_files_and_back(data_box: sw.Sandbox) -> None:
    """copy.copy of a numpy scalar (a C method called with the wrong number of arguments
    trapped the instance on wasm), ndarray.tofile/np.fromfile (they dup() a descriptor, which
    WASI has not) and two-digit years read against this year, not the snapshot's 1970."""
    result = data_box.execute(
        "import copy, datetime, numpy as np, pandas as pd\n"
        "print(copy.copy(np.float64(1.5)), copy.deepcopy(np.int64(3)))\n"
        "np.arange(5).tofile('raw.bin')\n"
        "with open('raw.bin', 'ab') as f:\n"
        "    np.array([7], dtype=np.int64).tofile(f)\n"
        "print(np.fromfile('raw.bin', dtype=np.int64).tolist())\n"
        "with open('raw.bin', 'rb') as f:\n"
        "    f.seek(8)\n"
        "    print(np.fromfile(f, dtype=np.int64, count=2).tolist(), f.tell())\n"
        "year = datetime.date.today().year\n"
        "print(pd.to_datetime('20/12/21', yearfirst=True).year == 2020,\n"
        "      pd.to_datetime('1/2/99').year == (1999 if year < 2049 else 2099))\n")
    assert result.status == "succeeded", result.stderr
    assert result.stdout.splitlines() == [
        "1.5 3", "[0, 1, 2, 3, 4, 7]", "[1, 2] 24", "True True"]
    assert len(result.files["raw.bin"]) == 48


def test_unseeded_random_differs_between_runs_and_seeded_matches_numpy(
        data_box: sw.Sandbox) -> None:
    """The snapshot imported numpy once; its global generator is reseeded for every run, so
    unseeded draws differ between runs. A seed gives native numpy's stream."""
    code = "import numpy as np\nprint(np.random.rand(), np.random.default_rng().random())"
    draws = {data_box.execute(code).stdout for _ in range(3)}
    assert len(draws) == 3
    seeded = data_box.execute(
        "import numpy as np, pandas as pd\n"
        "np.random.seed(1)\n"
        "print(round(float(np.random.rand()), 12))\n"
        "print(np.random.default_rng(1).integers(0, 100, 3).tolist())\n"
        "print(pd.Series(range(10)).sample(3, random_state=2).tolist())\n")
    assert seeded.status == "succeeded", seeded.stderr
    # Native numpy 2.4.6 / pandas 3.0.6 on x86-64 print the same.
    assert seeded.stdout == "0.417022004703\n[47, 51, 75]\n[4, 1, 5]\n"


def test_a_session_keeps_its_dataframe_and_rolls_back_a_trap() -> None:
    with sw.Session(runtime=DATA, timeout_ms=5_000) as session:
        first = session.execute("import pandas as pd\ndf = pd.DataFrame({'x': range(5)})")
        assert first.status == "succeeded", first.stderr
        trapped = session.execute("df['y'] = df.x * 2\nwhile True: pass", timeout_ms=300)
        assert trapped.status == "timeout"
        after = session.execute("print(list(df.columns), int(df.x.sum()))")
        assert after.stdout == "['x'] 10\n"
        saved = session.snapshot()
    restored = sw.Session.restore(saved, runtime=DATA)
    try:
        assert restored.execute("print(df.shape)").stdout == "(5, 1)\n"
    finally:
        restored.close()
    with pytest.raises(sw.InvalidRequestError):
        sw.Session.restore(saved)  # taken on the data runtime, not the lean one


def test_limits_hold_on_the_data_runtime(data_box: sw.Sandbox) -> None:
    busy = data_box.execute("import numpy as np\nwhile True: np.ones(100).sum()",
                            timeout_ms=500)
    assert busy.status == "timeout"
    big = data_box.execute("import numpy as np\na = np.ones(400 * 2**20, dtype=np.uint8)",
                           memory_mb=256)
    assert big.status == "failed" and big.error is not None
    assert big.error.type == "MemoryError"
    flood = data_box.execute("import numpy as np\nprint(np.arange(10**6).tolist())",
                             limits={"max_stdout_bytes": 1_000})
    assert flood.stdout_truncated and len(flood.stdout.encode()) <= 1_000


def test_a_host_tool_feeds_a_dataframe() -> None:
    def prices() -> list[dict[str, object]]:
        """Closing prices."""
        return [{"day": 1, "close": 10.0}, {"day": 2, "close": 12.5}]

    with sw.Sandbox(runtime=DATA, tools=[prices]) as box:
        result = box.execute(
            "import pandas as pd, tools\n"
            "df = pd.DataFrame(tools.prices())\n"
            "print(df.close.pct_change().iloc[-1])\n")
    assert result.status == "succeeded", result.stderr
    assert result.stdout == "0.25\n"


def test_the_audit_allows_the_stack_under_balanced_and_not_strict() -> None:
    code = "import numpy as np\nimport pandas as pd\nprint(np.zeros(2).sum())"
    with sw.Sandbox(runtime=DATA) as balanced:
        assert balanced.execute(code).stdout == "0.0\n"
    with sw.Sandbox(runtime=DATA, policy="strict") as strict:
        refused = strict.execute(code)
    assert refused.status == "blocked"
    assert any("numpy" in str(finding) for finding in refused.audit.flagged_calls)


def test_an_absent_optional_dependency_is_an_import_error(data_box: sw.Sandbox) -> None:
    # (openpyxl, the first example, is in the runtime now: Excel files work)
    result = data_box.execute("import pandas as pd\npd.DataFrame({'a': [1]}).to_parquet('a.pq')")
    assert result.status == "failed" and result.error is not None
    assert result.error.type in ("ImportError", "ModuleNotFoundError")
    assert "pyarrow" in result.error.message


def test_unknown_runtime_is_an_invalid_request() -> None:
    with pytest.raises(sw.InvalidRequestError, match="unknown runtime 'python-gpu'"):
        sw.execute("1", runtime="python-gpu")


def test_numpy_reports_the_errors_it_raises_itself(data_box: sw.Sandbox) -> None:
    """WebAssembly has no floating-point flags: the status numpy raises itself is kept in
    software (data/numpy-0002), so a singular matrix is a LinAlgError as natively."""
    result = data_box.execute(
        "import warnings, numpy as np\n"
        "for f in (np.linalg.inv, lambda m: np.linalg.solve(m, np.ones(2)),"
        " np.linalg.cholesky):\n"
        "    try:\n"
        "        f(np.array([[1.0, 2.0], [2.0, 4.0]]) if f is not np.linalg.cholesky"
        " else -np.eye(2))\n"
        "    except np.linalg.LinAlgError as e:\n"
        "        print('LinAlgError', e)\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    print(np.array([1, 2]) // 0)\n"
        "print([str(w.message) for w in caught])\n")
    assert result.status == "succeeded", result.stderr
    assert result.stdout.splitlines() == [
        "LinAlgError Singular matrix",
        "LinAlgError Singular matrix",
        "LinAlgError Matrix is not positive definite",
        "[0 0]",
        "['divide by zero encountered in floor_divide']",
    ]


def test_arrays_saved_to_files_load_back(data_box: sw.Sandbox) -> None:
    result = data_box.execute(
        "import numpy as np\n"
        "np.save('a.npy', np.arange(6).reshape(2, 3))\n"
        "np.savez('/output/b.npz', x=np.eye(2))\n"
        "print(np.load('a.npy').sum(), np.load('/output/b.npz')['x'].trace())\n")
    assert result.status == "succeeded", result.stderr
    assert result.stdout == "15 2.0\n"
    assert result.files["a.npy"].startswith(b"\x93NUMPY")


def test_a_memory_cap_under_the_runtime_s_floor_is_an_invalid_request() -> None:
    """The data runtime's snapshot starts at ~67 MiB: a smaller cap could not even start it,
    and says so (before anything runs) instead of failing inside."""
    with pytest.raises(sw.InvalidRequestError, match=r"needs at least \d+ MiB") as caught:
        sw.execute("print(1)", runtime=DATA, memory_mb=48)
    assert caught.value.field == "limits.memory_mb"
    with pytest.raises(sw.InvalidRequestError, match=r"needs at least \d+ MiB"):
        sw.Session(runtime=DATA, memory_mb=48)
    assert sw.execute("print(1)", memory_mb=48).stdout == "1\n"  # the lean one starts


def test_the_gateway_runs_a_request_on_the_runtime_it_names() -> None:
    """HTTP: `runtime` on safe-exec (JSON and multipart) and on a session; an unknown name
    is a 400 naming the field."""
    from live_server import error_of, serve

    script = "import pandas as pd\nprint(pd.read_csv('/input/d.csv').v.sum())"
    for server in serve(sw.Sandbox(), workers=1, queue=4, rate_limit=10_000):
        client = server.client
        ran = client.post("/v1/tools/safe-exec", json={
            "code": script, "runtime": DATA, "files": {"d.csv": "dgoxCjIK"}})  # v,1,2
        assert ran.status_code == 200, ran.text
        assert ran.json()["stdout"] == "3\n"
        form = client.post("/v1/tools/safe-exec", data={"code": script, "runtime": DATA},
                           files={"files": ("d.csv", b"v\n4\n5\n")})
        assert form.json()["stdout"] == "9\n", form.text
        lean = client.post("/v1/tools/safe-exec", json={"code": "import pandas"})
        assert lean.json()["error"]["type"] == "ModuleNotFoundError"
        unknown = client.post("/v1/tools/safe-exec", json={"code": "1", "runtime": "gpu"})
        assert unknown.status_code == 400 and error_of(unknown)["field"] == "runtime"
        opened = client.post("/v1/sessions", json={"runtime": DATA})
        assert opened.status_code == 201, opened.text
        session = opened.headers["Location"]
        client.post(f"{session}/execute", json={"code": "import numpy as np\nx = np.arange(4)"})
        called = client.post(f"{session}/execute", json={"code": "print(int(x.sum()))"})
        assert called.json()["stdout"] == "6\n", called.text


def test_an_image_builds_on_the_data_runtime(tmp_path: Path) -> None:
    """A pure-Python wheel baked into an image of the data runtime: numpy, pandas and
    matplotlib stay imported beside it (the base's own wheels, dateutil and six universal
    py2.py3 wheels among them, are baked in again). The wheel is one of ours: the runtime
    has tabulate itself now."""
    from wheels import make_wheel

    from sandbox_wasm.image import build_image

    wheel = make_wheel(tmp_path, {"summarise/__init__.py": (
        "import pandas as pd\n"
        "def totals(rows):\n"
        "    return pd.DataFrame(rows).groupby('k')['v'].sum().to_dict()\n")},
        name="summarise")
    manifest = build_image([wheel], tmp_path / "data-sum.wasm", runtime=DATA)
    assert manifest.base_runtime.name == f"{DATA}-wasi-snapshot"
    assert {"numpy", "pandas", "summarise"} <= set(manifest.preloaded)
    with sw.Sandbox(image=tmp_path / "data-sum.wasm") as box:
        result = box.execute(
            "import sys\nprint('pandas' in sys.modules, 'summarise' in sys.modules)\n"
            "from summarise import totals\n"
            "print(totals([{'k': 'a', 'v': 1}, {'k': 'b', 'v': 2}, {'k': 'a', 'v': 3}]))")
    assert result.status == "succeeded", result.stderr
    assert result.stdout == "True True\n{'a': 4, 'b': 2}\n"


# ----------------------------------------------------------------------- plotting stack
def test_a_line_chart_comes_back_as_a_png_of_the_figure_s_size(data_box: sw.Sandbox) -> None:
    """matplotlib (Agg, pre-imported in the snapshot) draws text with its DejaVu fonts, read
    from the runtime's memory; the PNG decodes natively at the size asked for."""
    result = data_box.execute(
        "import sys\n"
        "print('matplotlib.pyplot' in sys.modules)\n"
        "import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt\n"
        "fig, ax = plt.subplots(figsize=(4, 3), dpi=50)\n"
        "ax.plot([1, 2, 3], label='sales'); ax.set_title('Title'); ax.legend()\n"
        "fig.savefig('/output/a.png')\n"
        "print(matplotlib.__version__, matplotlib.get_backend())\n")
    assert result.status == "succeeded", result.stderr
    assert result.stdout == "True\n3.10.9 Agg\n"
    png = result.files["a.png"]
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert (width, height) == (200, 150)
    from PIL import Image  # the test extra's Pillow: decoded natively

    with Image.open(io.BytesIO(png)) as image:
        image.load()
        assert image.size == (200, 150)
        assert len(image.getcolors(maxcolors=100_000) or []) > 10  # lines and text drawn


def test_seaborn_pillow_and_the_everyday_packages(data_box: sw.Sandbox) -> None:
    result = data_box.execute(
        "import seaborn as sns, pandas as pd, matplotlib.pyplot as plt\n"
        "df = pd.DataFrame({'g': list('aabbcc'), 'y': [2, 4, 3, 5, 7, 6]})\n"
        "sns.barplot(data=df, x='g', y='y'); plt.savefig('/output/s.png', dpi=40)\n"
        "from PIL import Image\n"
        "im = Image.new('RGB', (64, 32), 'red').resize((32, 16)); im.save('/output/p.png')\n"
        "im.save('/output/p.jpg'); print(Image.open('/output/p.jpg').size)\n"
        "import tabulate, jinja2, yaml, bs4, openpyxl, pytz, io\n"
        "print(tabulate.tabulate([[1, 2]], headers=['a', 'b'], tablefmt='plain'))\n"
        "print(jinja2.Template('Hi {{ n }}').render(n='x'), yaml.safe_load('a: [1]'))\n"
        "print(bs4.BeautifulSoup('<p><b>b</b></p>', 'html.parser').b.text)\n"
        "wb = openpyxl.Workbook(); wb.active['A1'] = 42; buf = io.BytesIO(); wb.save(buf)\n"
        "print(openpyxl.load_workbook(buf).active['A1'].value, pytz.timezone('Europe/Paris'))\n")
    assert result.status == "succeeded", result.stderr
    assert result.stdout == ("(32, 16)\n  a    b\n  1    2\nHi x {'a': [1]}\nb\n42 Europe/Paris\n")
    from PIL import Image

    with Image.open(io.BytesIO(result.files["s.png"])) as chart:
        chart.load()
        assert chart.format == "PNG" and chart.size[0] > 100
    assert result.files["p.png"][16:24] == (32).to_bytes(4, "big") + (16).to_bytes(4, "big")


#: Model code's fake data: seeded, so the sandbox and native faker must agree value for value;
#: locales are found by pkgutil.iter_modules over the package's directories (the package
#: finder's path hook) and the providers import on first use.
FAKER_SCRIPT = (
    "import datetime, pkgutil, faker\n"
    "from faker import Faker\n"
    "Faker.seed(7)\n"
    "fake = Faker()\n"
    "rows = [(fake.name(), fake.email(), fake.date_between_dates(datetime.date(1980, 1, 1),\n"
    "         datetime.date(2000, 1, 1)).isoformat(),\n"
    "         fake.city(), fake.pyint(0, 999)) for _ in range(5)]\n"
    "print(rows)\n"
    "de = Faker('de_DE'); de.seed_instance(3); print(de.name(), de.postcode())\n"
    "locales = {name for _, name, is_package in\n"
    "           pkgutil.iter_modules(faker.providers.address.__path__) if is_package}\n"
    "print(len(locales) > 50, 'en_US' in locales, 'fr_FR' in locales)\n")


def test_faker_makes_the_same_fake_data_as_natively(data_box: sw.Sandbox) -> None:
    import contextlib

    native = io.StringIO()
    with contextlib.redirect_stdout(native):
        exec(FAKER_SCRIPT, {"__name__": "__main__"})
    result = data_box.execute(FAKER_SCRIPT)
    assert result.status == "succeeded", result.stderr
    assert result.stdout == native.getvalue()
    assert result.stdout.endswith("True True True\n")
