"""Charts come back without asking (data runtime): `plt.show()`, `Figure.show()` and figures
left open at the end of a run or a session call are saved as PNG files under /output
(figure-1.png, ...) and returned in `result.files`, within the file caps."""

from __future__ import annotations

import io

from PIL import Image

import sandbox_wasm as sw

DATA = "python-data"


def png_size(data: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()  # decodes the whole image: a truncated PNG fails here
    return image.size


def test_show_saves_each_open_figure_and_closes_it(data_box: sw.Sandbox) -> None:
    result = data_box.execute(
        "import matplotlib.pyplot as plt\n"
        "plt.plot([1, 2, 3], [3, 1, 2]); plt.title('first')\n"
        "plt.show()\n"
        "fig, ax = plt.subplots(figsize=(3, 2)); ax.bar(['a', 'b'], [1, 2])\n"
        "plt.show()\n"
        "print(plt.get_fignums())\n")
    assert result.status == "succeeded", result.stderr
    assert result.stdout == "[]\n"  # show() closed them, as an inline backend does
    assert sorted(result.files) == ["figure-1.png", "figure-2.png"]
    assert png_size(result.files["figure-1.png"]) == (640, 480)
    assert png_size(result.files["figure-2.png"]) == (300, 200)
    assert "non-interactive" not in result.stderr  # no Agg warning either


def test_figures_left_open_are_saved_but_not_ones_already_saved(data_box: sw.Sandbox) -> None:
    result = data_box.execute(
        "import matplotlib.pyplot as plt\n"
        "import pandas as pd\n"
        "pd.DataFrame({'x': [1, 2, 3], 'y': [2, 4, 1]}).plot(x='x', y='y')\n"
        "saved = plt.figure(figsize=(2, 2)); plt.plot([1, 2]); plt.savefig('mine.png')\n"
        "changed = plt.figure(figsize=(2, 1)); plt.plot([3, 1]); plt.savefig('old.png')\n"
        "plt.title('changed after saving')\n")
    assert result.status == "succeeded", result.stderr
    assert sorted(result.files) == ["figure-1.png", "figure-2.png", "mine.png", "old.png"]
    assert png_size(result.files["figure-1.png"]) == (640, 480)  # the DataFrame's plot
    assert png_size(result.files["figure-2.png"]) == (200, 100)  # changed after its save


def test_figure_show_and_a_user_file_of_the_same_name(data_box: sw.Sandbox) -> None:
    result = data_box.execute(
        "from matplotlib.figure import Figure\n"
        "open('figure-1.png', 'w').write('mine')\n"
        "fig = Figure(figsize=(1, 1)); fig.subplots().plot([1, 2])\n"
        "fig.show()\n")
    assert result.status == "succeeded", result.stderr
    assert result.files["figure-1.png"] == b"mine"  # never overwritten
    assert png_size(result.files["figure-2.png"]) == (100, 100)


def test_a_failing_script_still_returns_its_charts(data_box: sw.Sandbox) -> None:
    result = data_box.execute("import matplotlib.pyplot as plt\nplt.plot([1, 2])\n1 / 0\n")
    assert result.status == "failed" and result.error is not None
    assert result.error.type == "ZeroDivisionError"
    assert list(result.files) == ["figure-1.png"]


def test_a_session_call_returns_its_own_charts(data_box: sw.Sandbox) -> None:
    with sw.Session(sandbox=data_box) as session:
        first = session.execute("import matplotlib.pyplot as plt\nplt.plot([1, 2])")
        assert first.status == "succeeded", first.stderr
        assert list(first.files) == ["figure-1.png"]
        assert first.value is not None and first.value.type == "list"
        second = session.execute("plt.hist([1, 2, 2, 3])\nplt.show()\nx = 1")
        assert list(second.files) == ["figure-2.png"]  # the first is not returned again
        assert png_size(second.files["figure-2.png"]) == (640, 480)
        assert session.execute("x + 1").files == {}


def test_charts_are_bounded_by_the_file_caps(data_box: sw.Sandbox) -> None:
    result = data_box.execute(
        "import matplotlib.pyplot as plt\n"
        "for i in range(3):\n"
        "    plt.figure(figsize=(2, 2)); plt.plot([i, 1])\n"
        "print('done')\n",
        limits={"max_file_bytes": 1000})
    assert result.status == "succeeded", result.stderr
    assert result.stdout == "done\n"
    refused = {entry.partition(":")[0] for entry in result.files_dropped}
    assert refused == {f"/output/figure-{n}.png" for n in (1, 2, 3)}, result.files_dropped
    assert result.stderr.count("figure not saved as /output/figure-") == 3
    assert result.files == {}  # no half-written PNG is left


def test_the_lean_runtime_is_unaffected() -> None:
    result = sw.execute("print('no matplotlib here')")
    assert result.status == "succeeded" and result.files == {}
