"""Images: the real tabulate wheel from PyPI baked into a pre-initialised runtime, imported
and used in the sandbox; the manifest; the audit's allowlist with and without the image;
packages that are not preloaded, their data files and metadata; the CLI and the example.

The refusals (native wheels, path traversal, tampered images) are in
tests/security/test_image_attacks.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from wheels import TABULATE_SHA256, TABULATE_TABLE, TABULATE_VERSION, make_wheel, tabulate_wheel

import sandbox_wasm as sw
from sandbox_wasm._runtimes.artifacts import file_sha256, python_runtime_file
from sandbox_wasm.image import (
    ImageManifest,
    build_image,
    manifest_path,
    read_wheel,
    verify_image,
)

#: Its module fixtures build images (~60 s each on 2 cores).
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
TABLE_CODE = (
    "from tabulate import tabulate\n"
    "print(tabulate([['a', 1], ['bb', 22]], headers=['name', 'n'], tablefmt='github'), end='')\n"
)


@pytest.fixture(scope="module")
def wheel() -> Path:
    return tabulate_wheel()


@pytest.fixture(scope="module")
def image(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("image") / "tabulate.wasm"
    build_image([wheel], path)
    return path


@pytest.fixture(scope="module")
def box(image: Path) -> sw.Sandbox:
    sandbox = sw.Sandbox(image=image)
    sandbox.warm_up()
    return sandbox


def test_the_tabulate_wheel_is_read_and_verified(wheel: Path) -> None:
    read = read_wheel(wheel)
    assert (read.name, read.version, read.sha256) == ("tabulate", TABULATE_VERSION,
                                                      TABULATE_SHA256)
    assert read.top_level == ("tabulate",)
    assert read.record_checked
    assert {"tabulate/__init__.py", "tabulate/version.py"} <= set(read.files)


def test_tabulate_is_imported_and_used_in_the_image(box: sw.Sandbox) -> None:
    result = box.execute(TABLE_CODE)
    assert result.status == "succeeded", result.stderr
    assert result.stdout == TABULATE_TABLE
    assert result.audit.safety_verdict == "safe"
    assert result.runtime.name == "cpython313-wasi-image"


def test_the_package_was_imported_when_the_image_was_built(box: sw.Sandbox) -> None:
    result = box.execute(
        "import sys\nprint('tabulate' in sys.modules)\nimport tabulate\n"
        "print(tabulate.__version__, tabulate.__file__)", policy="report")
    assert result.stdout.split("\n")[:2] == [
        "True", "0.9.0 /usr/local/lib/python3.13/site-packages/tabulate/__init__.py"]


def test_the_manifest_records_the_image_the_base_and_the_wheel(image: Path,
                                                              wheel: Path) -> None:
    manifest = ImageManifest.model_validate_json(manifest_path(image).read_bytes())
    assert manifest_path(image).name == "tabulate.wasm.json"
    assert manifest.sha256 == file_sha256(image)
    assert manifest.size == image.stat().st_size
    base = python_runtime_file(variant="cpython313")
    assert manifest.base_runtime.sha256 == base.sha256
    assert manifest.python_version == base.version
    [entry] = manifest.wheels
    assert (entry.file, entry.name, entry.version, entry.sha256) == (
        wheel.name, "tabulate", TABULATE_VERSION, TABULATE_SHA256)
    assert manifest.packages == ("tabulate",)
    assert manifest.preloaded == ("tabulate",)
    assert verify_image(image) == manifest


def test_building_again_gives_the_same_image(image: Path, wheel: Path,
                                             tmp_path: Path) -> None:
    again = build_image([wheel], tmp_path / "again.wasm")
    assert again.sha256 == file_sha256(image)


def test_an_image_without_wheels_is_the_base_runtime(tmp_path: Path) -> None:
    manifest = build_image([], tmp_path / "empty.wasm")
    assert manifest.sha256 == python_runtime_file(variant="cpython313").sha256
    assert manifest.packages == ()


@pytest.mark.parametrize(
    ("make", "flagged"),
    [
        # Strict has an allowlist: an image's packages join it.
        pytest.param(lambda image: sw.Sandbox(policy="strict"), True, id="no-image"),
        pytest.param(lambda image: sw.Sandbox(image=image, policy="strict"), False,
                     id="image"),
        pytest.param(lambda image: sw.Sandbox(image=image, policy="strict",
                                              allow_image_packages=False), True,
                     id="image-without-its-packages"),
        # Balanced has none: any package imports (or fails to, without the image).
        pytest.param(lambda image: sw.Sandbox(image=image), False, id="image-balanced"),
    ],
)
def test_the_audit_allows_the_package_only_with_the_image(image: Path, make, flagged: bool
                                                          ) -> None:
    with make(image) as sandbox:
        report = sandbox.audit("from tabulate import tabulate\nimport tabulate.version")
        assert (report.safety_verdict != "safe") is flagged
        if flagged:
            assert {f.name for f in report.flagged_calls} == {"tabulate.tabulate",
                                                             "tabulate.version"}


def test_the_allowlist_grows_by_the_packages_only(image: Path) -> None:
    with sw.Sandbox(image=image, policy="strict") as box:
        assert sw.STRICT_POLICY.allowed_modules is not None
        assert box.policy.allowed_modules == sw.STRICT_POLICY.allowed_modules | {"tabulate"}
        assert box.policy.blocked_modules == sw.STRICT_POLICY.blocked_modules
        assert box.image is not None and box.image.packages == ("tabulate",)
        # Blocked modules stay blocked, and the guest refuses to run them too.
        result = box.execute("import tabulate\nimport os\nprint('ran')")
        assert result.status == "blocked" and result.stdout == ""


def test_a_per_call_policy_gets_the_packages_too(box: sw.Sandbox) -> None:
    assert box.execute(TABLE_CODE, policy="strict").stdout == TABULATE_TABLE
    custom = sw.AuditPolicy(name="custom", allowed_modules=frozenset({"math"}))
    assert box.execute(TABLE_CODE, policy=custom).stdout == TABULATE_TABLE
    assert box.execute("import json", policy=custom).status == "blocked"


def test_execute_takes_an_image(image: Path) -> None:
    result = sw.execute(TABLE_CODE, image=image)
    assert result.stdout == TABULATE_TABLE
    missing = sw.execute("import tabulate")  # not in the base runtime
    assert missing.status == "failed" and missing.error is not None
    assert missing.error.type == "ModuleNotFoundError"


def test_an_image_or_a_runtime_not_both(image: Path) -> None:
    for runtime in ({"runtime": "python"}, {"python_runtime": "cpython313"}):
        with pytest.raises(sw.InvalidRequestError, match="either an image or a runtime"):
            sw.Sandbox(image=image, **runtime)
    with pytest.raises(sw.InvalidRequestError, match="either an image or a runtime"):
        sw.execute("1", image=image, runtime="python")


def test_files_and_sessions_work_in_an_image(box: sw.Sandbox) -> None:
    result = box.execute(
        "from tabulate import tabulate\nimport csv\n"
        "rows = list(csv.reader(open('/input/data.csv')))\n"
        "open('/output/table.md', 'w').write(tabulate(rows[1:], headers=rows[0]))",
        files={"data.csv": "k,v\nx,1\n"})
    assert result.status == "succeeded", result.stderr
    assert result.files["table.md"].decode().splitlines()[0].split() == ["k", "v"]
    with sw.Session(sandbox=box) as session:
        session.execute("from tabulate import tabulate\nrows = [[1, 2]]")
        assert session.execute("print(tabulate(rows))").stdout.split()[:2] == ["-", "-"]
    # A session's own policy gets the image's packages too.
    with sw.Session(sandbox=box, policy="strict") as strict:
        assert strict.execute(TABLE_CODE).stdout == TABULATE_TABLE
        assert strict.execute("import json\nimport os").status == "blocked"


@pytest.fixture(scope="module")
def lazy_image(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tabulate (preloaded) and a crafted package with data files and a namespace package
    (not preloaded: it loads from memory at first use)."""
    directory = tmp_path_factory.mktemp("lazy")
    extra = make_wheel(directory, {
        "imgdata/__init__.py": "from . import helpers\nVALUE = helpers.double(21)\n",
        "imgdata/helpers.py": "def double(x):\n    return 2 * x\n",
        "imgdata/broken.py": "def f(:\n",
        "imgdata/data/greeting.txt": "hello from the image\n",
        "nsroot/part/mod.py": "NAME = 'namespace'\n",
    }, name="imgdata", version="2.0")
    path = directory / "lazy.wasm"
    build_image([wheel, extra], path, preload=["tabulate"])
    return path


def test_packages_not_preloaded_import_from_memory(lazy_image: Path) -> None:
    code = (
        "import sys\nprint('imgdata' in sys.modules)\n"
        "import imgdata, nsroot.part.mod\nprint(imgdata.VALUE, nsroot.part.mod.NAME)\n"
        "import importlib.resources, importlib.metadata\n"
        "print(importlib.resources.files('imgdata').joinpath('data/greeting.txt')"
        ".read_text().strip())\n"
        "print(sorted(p.name for p in importlib.resources.files('imgdata').iterdir()))\n"
        "print(importlib.metadata.version('imgdata'), importlib.metadata.version('tabulate'))\n"
        "try:\n    import imgdata.broken\nexcept SyntaxError as exc:\n"
        "    print('SyntaxError', exc.filename)\n"
    )
    with sw.Sandbox(image=lazy_image, policy="report") as sandbox:
        assert sandbox.image is not None
        assert sandbox.image.packages == ("imgdata", "nsroot", "tabulate")
        assert sandbox.image.preloaded == ("tabulate",)
        result = sandbox.execute(code)
    assert result.status == "succeeded", result.stderr
    assert result.stdout.splitlines() == [
        "False",
        "42 namespace",
        "hello from the image",
        "['__init__.py', 'broken.py', 'data', 'helpers.py']",
        "2.0 0.9.0",
        "SyntaxError /usr/local/lib/python3.13/site-packages/imgdata/broken.py",
    ]


def test_the_cli_builds_shows_and_runs_an_image(wheel: Path, tmp_path: Path) -> None:
    out = tmp_path / "cli.wasm"
    cli = [sys.executable, "-m", "sandbox_wasm"]
    built = subprocess.run([*cli, "image", "build", "--wheel", str(wheel), "-o", str(out),
                            "--json"], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    assert json.loads(built.stdout)["packages"] == ["tabulate"]
    shown = subprocess.run([*cli, "image", "show", str(out)], capture_output=True, text=True,
                           timeout=120)
    assert shown.returncode == 0 and "packages (allowed by the audit): tabulate" in shown.stdout
    run = subprocess.run([*cli, "--image", str(out), "-c", TABLE_CODE], capture_output=True,
                         text=True, timeout=120)
    assert (run.returncode, run.stdout, run.stderr) == (0, TABULATE_TABLE, "")
    blocked = subprocess.run([*cli, "--policy", "strict", "-c", "import tabulate"],
                             capture_output=True, text=True, timeout=120)
    assert blocked.returncode == 1 and "not in the allowlist" in blocked.stderr


def test_the_packages_example_runs(wheel: Path) -> None:
    done = subprocess.run([sys.executable, str(REPO / "examples" / "packages.py"), str(wheel)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "|   5 |    25 |   125 |          2.5 |" in done.stdout


def test_the_bootstrap_reads_what_the_image_builder_writes(tmp_path: Path) -> None:
    """The image's init is the bootstrap's own (`_install_init_packages`): the names of the
    files it reads in /init and the policy lines it answers are those the host writes and
    sends."""
    from sandbox_wasm import _wire as _policy
    from sandbox_wasm._guest import bootstrap as _guest
    from sandbox_wasm._images import build as _image_build

    init = tmp_path / "init"
    parts = {name: tmp_path / name for name in ("stdlib.blob", "stdlib_finder.py")}
    for path in parts.values():
        path.write_bytes(b"")
    _image_build._write_init_dir(init, parts, {"pkg/__init__.py": b"x = 1\n"},
                                 {"pkg/__init__.py": b"code"}, ("pkg",), ("pkg",))
    assert (init / Path(_guest.PACKAGES_CONFIG).name).is_file()
    assert (init / Path(_guest.PACKAGE_FINDER_SOURCE).name).is_file()
    assert _guest.PACKAGES_CONFIG.startswith("/init/")
    assert _guest.IMAGE_POLICY_SUFFIX == _policy.IMAGE_POLICY_SUFFIX
