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
