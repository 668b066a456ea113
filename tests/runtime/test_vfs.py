"""The guest's in-memory filesystem, used the way scripts use files: real runs on our
runtime under the default (balanced) policy, checked against what POSIX would do."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import sandbox_wasm as sw
from sandbox_wasm._fs.tree import FileCaps, MemoryFS, freeze, thaw


@pytest.fixture(scope="module")
def box() -> Iterator[sw.Sandbox]:
    with sw.Sandbox(python_runtime="cpython313") as sandbox:
        yield sandbox


def run(box: sw.Sandbox, code: str, **options: object) -> sw.ExecutionResult:
    result = box.execute(code, **options)  # type: ignore[arg-type]
    assert result.status == "succeeded", (result.error, result.stderr)
    return result


def test_inputs_are_read_and_outputs_come_back(box: sw.Sandbox) -> None:
    result = run(box, (
        "import csv, statistics\n"
        "with open('/input/data.csv', newline='') as f:\n"
        "    values = [float(row['v']) for row in csv.DictReader(f)]\n"
        "with open('/output/report.md', 'w') as f:\n"
        "    f.write(f'# Report\\n\\nmean: {statistics.mean(values)}\\n')\n"
        "import pathlib\n"
        "pathlib.Path('/output/charts').mkdir()\n"
        "pathlib.Path('/output/charts/raw.bin').write_bytes(bytes(range(256)))\n"
        "print(open('/input/cfg/settings.json').read())\n"
    ), files={"data.csv": "v\n1\n2\n6\n", "cfg/settings.json": b'{"k": 1}'})
    assert result.stdout == '{"k": 1}\n'
    assert result.files == {"charts/raw.bin": bytes(range(256)),
                            "report.md": b"# Report\n\nmean: 3.0\n"}
    assert result.files_dropped == []


def test_the_tree_lists_and_stats_as_posix_would(box: sw.Sandbox) -> None:
    result = run(box, (
        "import os\n"
        "print(sorted(os.listdir('/')), sorted(os.listdir('/input')), os.getcwd())\n"
        "st = os.stat('/input/a.txt')\n"
        "print(st.st_size, os.path.isfile('/input/a.txt'), os.path.isdir('/input/sub'))\n"
        "print([(p, sorted(d), sorted(f)) for p, d, f in os.walk('/input')])\n"
        "print(os.path.exists('/nope'), os.path.exists('/input/nope'))\n"
    ), files={"a.txt": "hello", "sub/b.txt": "x"}, policy="report")
    assert result.stdout.splitlines() == [
        "['input', 'output', 'tmp'] ['a.txt', 'sub'] /output",
        "5 True True",
        "[('/input', ['sub'], ['a.txt']), ('/input/sub', [], ['b.txt'])]",
        "False False",
    ]


def test_inputs_are_read_only(box: sw.Sandbox) -> None:
    result = run(box, (
        "import os\n"
        "for attempt in (lambda: open('/input/a.txt', 'w'), lambda: open('/input/new', 'w'),\n"
        "                lambda: os.remove('/input/a.txt'), lambda: os.mkdir('/input/d'),\n"
        "                lambda: os.rename('/input/a.txt', '/tmp/a.txt'),\n"
        "                lambda: open('/new-at-root', 'w')):\n"
        "    try:\n"
        "        attempt()\n"
        "        print('allowed')\n"
        "    except OSError as exc:\n"
        "        print(type(exc).__name__, exc.errno)\n"
        "print(open('/input/a.txt').read())\n"
    ), files={"a.txt": "kept"}, policy="report")
    lines = result.stdout.splitlines()
    assert "allowed" not in lines and lines[-1] == "kept"
    assert all(line.startswith(("OSError", "PermissionError")) for line in lines[:-1])


def test_read_write_seek_append_truncate(box: sw.Sandbox) -> None:
    result = run(box, (
        "with open('/tmp/f', 'w+b') as f:\n"
        "    f.write(b'hello world')\n"
        "    f.seek(6)\n"
        "    print(f.read(), f.tell())\n"
        "    f.seek(0, 2)\n"
        "    print(f.tell())\n"
        "    f.truncate(5)\n"
        "    f.seek(0)\n"
        "    print(f.read())\n"
        "with open('/tmp/f', 'ab') as f:\n"
        "    f.write(b'!')\n"
        "with open('/tmp/f', 'r+b') as f:\n"
        "    f.seek(10)\n"
        "    f.write(b'x')\n"
        "print(open('/tmp/f', 'rb').read())\n"
    ))
    assert result.stdout.splitlines() == [
        "b'world' 11", "11", "b'hello'", "b'hello!\\x00\\x00\\x00\\x00x'",
    ]
    assert result.files == {}  # /tmp is scratch: nothing of it comes back


def test_a_file_opened_twice_shares_its_bytes(box: sw.Sandbox) -> None:
    result = run(box, (
        "w = open('/output/log.txt', 'w', buffering=1)\n"
        "r = open('/output/log.txt')\n"
        "w.write('one\\n')\n"
        "print(repr(r.read()))\n"
        "w.write('two\\n')\n"
        "print(repr(r.read()))\n"
        "w.close(); r.close()\n"
    ))
    assert result.stdout == "'one\\n'\n'two\\n'\n"
    assert result.files == {"log.txt": b"one\ntwo\n"}


def test_rename_remove_and_directories(box: sw.Sandbox) -> None:
    result = run(box, (
        "import os, shutil\n"
        "os.makedirs('/tmp/a/b/c')\n"
        "open('/tmp/a/b/c/f.txt', 'w').write('x')\n"
        "shutil.copytree('/tmp/a', '/output/copy')\n"
        "os.rename('/tmp/a/b/c/f.txt', '/tmp/a/g.txt')\n"
        "try:\n"
        "    os.rmdir('/tmp/a')\n"
        "except OSError as exc:\n"
        "    print('rmdir', exc.errno)\n"
        "try:\n"
        "    os.rename('/tmp/a', '/tmp/a/b/inside')\n"
        "except OSError as exc:\n"
        "    print('into itself', exc.errno)\n"
        "shutil.rmtree('/tmp/a')\n"
        "print(os.listdir('/tmp'))\n"
    ), policy="report")
    assert result.stdout.splitlines() == ["rmdir 55", "into itself 28", "[]"]
    assert result.files == {"copy/b/c/f.txt": b"x"}


def test_the_standard_file_modules_work(box: sw.Sandbox) -> None:
    result = run(box, (
        "import glob, gzip, tempfile, zipfile, pathlib\n"
        "with tempfile.TemporaryDirectory() as tmp:\n"
        "    pathlib.Path(tmp, 'a.txt').write_text('alpha')\n"
        "    print(sorted(p.name for p in pathlib.Path(tmp).iterdir()))\n"
        "with zipfile.ZipFile('/output/bundle.zip', 'w') as z:\n"
        "    z.writestr('inner.txt', 'zipped')\n"
        "print(zipfile.ZipFile('/output/bundle.zip').read('inner.txt'))\n"
        "with gzip.open('/tmp/x.gz', 'wt') as g:\n"
        "    g.write('gz')\n"
        "print(gzip.open('/tmp/x.gz', 'rt').read(), glob.glob('/input/*.csv'))\n"
    ), files={"a.csv": "1", "b.txt": "2"})
    assert result.stdout.splitlines() == ["['a.txt']", "b'zipped'", "gz ['/input/a.csv']"]
    assert set(result.files) == {"bundle.zip"}


def test_files_travel_as_base64_in_json(box: sw.Sandbox) -> None:
    result = run(box, "open('/output/b.bin', 'wb').write(bytes([0, 255, 10]))")
    encoded = json.loads(result.model_dump_json())
    assert encoded["files"] == {"b.bin": base64.b64encode(bytes([0, 255, 10])).decode()}
    assert result.to_dict()["files"] == encoded["files"]
    assert sw.ExecutionResult.model_validate_json(result.model_dump_json()).files == result.files


def test_caps_refuse_writes_and_say_so(box: sw.Sandbox) -> None:
    result = box.execute(
        "try:\n"
        "    open('/output/big.bin', 'wb').write(b'x' * 2_000_000)\n"
        "except OSError as exc:\n"
        "    print('refused', exc.errno)\n",
        limits={"max_file_bytes": 1_000_000},
    )
    assert result.stdout == "refused 22\n"  # EFBIG
    assert result.files == {"big.bin": b""}
    assert len(result.files_dropped) == 1 and "per-file cap" in result.files_dropped[0]
    assert result.files_dropped[0].startswith("/output/big.bin")


@pytest.mark.parametrize(("name", "message"), [
    ("../x", "relative"), ("/abs", "relative"), ("a/../b", "relative"), ("a//b", "relative"),
    ("", "relative"), ("a\x00b", "NUL"), ("a\\b", "backslash"), ("x" * 300, "longer"),
    ("/".join("d" * 20), "deeper"),
])
def test_bad_input_names_are_refused(box: sw.Sandbox, name: str, message: str) -> None:
    with pytest.raises(sw.InvalidRequestError, match=message) as error:
        box.execute("pass", files={name: b"x"})
    assert error.value.field.startswith("files")


def test_bad_input_values_are_refused(box: sw.Sandbox) -> None:
    with pytest.raises(sw.InvalidRequestError, match="bytes or str"):
        box.execute("pass", files={"a": 3})  # type: ignore[dict-item]
    with pytest.raises(sw.InvalidRequestError, match="mapping"):
        box.execute("pass", files=[("a", b"x")])  # type: ignore[arg-type]
    with pytest.raises(sw.InvalidRequestError, match="also a directory"):
        box.execute("pass", files={"a": b"x", "a/b": b"y"})
    with pytest.raises(sw.InvalidRequestError, match="over the limit") as error:
        box.execute("pass", files={"a": b"x" * 2000}, limits={"max_input_bytes": 1000})
    assert error.value.field == "files.a"


def test_input_files_given_as_paths_and_open_files(box: sw.Sandbox, tmp_path: Path) -> None:
    on_disk = tmp_path / "prices.csv"
    on_disk.write_bytes(b"a,1\n")
    with open(on_disk, "rb") as binary, open(on_disk, encoding="utf-8") as text:
        result = box.execute(
            "import os\nprint(sorted(os.listdir('/input')), open('/input/t.csv').read())",
            files={"p.csv": on_disk, "b.csv": binary, "t.csv": text, "s.txt": "s"})
    assert result.status == "succeeded", result.stderr
    assert result.stdout == "['b.csv', 'p.csv', 's.txt', 't.csv'] a,1\n\n"
    with pytest.raises(sw.InvalidRequestError, match="cannot read") as error:
        box.execute("pass", files={"gone.csv": tmp_path / "missing.csv"})
    assert error.value.field == "files.gone.csv"
    big = tmp_path / "big.bin"
    big.write_bytes(b"x" * 5000)
    with pytest.raises(sw.InvalidRequestError, match="over the limit"):
        box.execute("pass", files={"big.bin": big}, limits={"max_input_bytes": 1000})


def test_javascript_refuses_files() -> None:
    with sw.Sandbox() as box, pytest.raises(sw.InvalidRequestError,
                                            match="files are for Python") as error:
        box.execute("console.log(1)", language="javascript", files={"a": b"x"})
    assert error.value.field == "files"


def test_a_tree_survives_freezing_and_thawing() -> None:
    fs = MemoryFS({"in.txt": b"input"})
    fd = fs.open(3, b"tmp/a", 1, 1 << 6 | 1 << 1, 0)
    fs.write(fd, b"abc")
    fs.mkdir(3, b"output/d")
    state = freeze(fs)
    data = {path: data for path, _, _, data in state.nodes}
    assert data["/tmp/a"] == b"abc" and data["/input/in.txt"] == b"input"
    again = {path: data for path, _, _, data in freeze(fs).nodes}
    assert again["/tmp/a"] is data["/tmp/a"]  # unchanged bytes are shared, not copied
    fs.write(fd, b"d")
    assert {p: d for p, _, _, d in freeze(fs).nodes}["/tmp/a"] == b"abcd"
    copy = thaw(state, FileCaps())
    assert copy.read(fd, 10, 0) == b"abc"
    assert copy.handle(fd).offset == 3
    assert copy.outputs() == {}
    assert copy.stat(3, b"output/d").is_dir
    assert copy.read(copy.open(3, b"input/in.txt", 0, 1 << 1, 0), 10) == b"input"


def test_a_tree_nothing_changed_freezes_to_the_last_state() -> None:
    # A session checkpoints after every call; most calls leave the tree as it was, and
    # then the last freeze is the state. Every change, and every call that may change it
    # (a read moves its descriptor's offset), makes a new one.
    fs = MemoryFS({"in.txt": b"input"})
    first = freeze(fs)
    assert freeze(fs) is first
    fd = fs.open(3, b"tmp/a", 1, 1 << 6 | 1 << 1 | 1 << 2, 0)
    opened = freeze(fs)
    assert opened is not first and freeze(fs) is opened
    states = [opened]
    for change in (lambda: fs.write(fd, b"abc"), lambda: fs.seek(fd, 0, 0),
                   lambda: fs.read(fd, 2), lambda: fs.set_size(fd, 1),
                   lambda: fs.mkdir(3, b"output/d"), lambda: fs.add_input("more", b"x"),
                   lambda: fs.rename(3, b"output/d", 3, b"output/e"),
                   lambda: fs.remove(3, b"output/e", directory=True),
                   lambda: fs.set_append(fd, True), lambda: fs.close(fd)):
        change()
        states.append(freeze(fs))
        assert states[-1] is not states[-2] and freeze(fs) is states[-1]
    offsets = [dict((h[0], h[5]) for h in state.handles).get(fd) for state in states]
    assert offsets == [0, 3, 0, 2, 2, 2, 2, 2, 2, 2, None]


def test_the_csv_report_example_runs() -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "csv_report.py"
    done = subprocess.run([sys.executable, str(example)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "| east | 100.00 |" in done.stdout and done.stdout.endswith("best region: east\n")


def test_whatever_the_operations_build_freezes_and_thaws() -> None:
    # The tree's one shape rule (`_vfs` docstring) is kept by every operation that makes a
    # path, so any tree a guest builds is one a checkpoint or snapshot restores.
    import random

    from sandbox_wasm._fs import tree as vfs

    def deep(choices: list[str], rng: random.Random) -> str:
        return max(rng.sample(choices, min(3, len(choices))), key=lambda d: d.count("/"))

    rng = random.Random(26)
    for _ in range(30):
        fs = MemoryFS({"in/x.txt": b"in"})
        directories = ["tmp", "output"]
        for _ in range(200):
            parent = deep(directories, rng)
            name = rng.choice(["d", "e" * rng.randrange(1, 256), f"f{rng.randrange(9)}"])
            try:
                action = rng.randrange(3)
                if action == 0:  # a chain of directories, from a descriptor of the parent
                    start = fs.open(3, parent.encode(), vfs.OFLAG_DIRECTORY,
                                    vfs.RIGHT_FD_READ, 0)
                    try:
                        relative = name
                        for _ in range(rng.randrange(1, 40)):
                            fs.mkdir(start, relative.encode())
                            directories.append(f"{parent}/{relative}")
                            relative += "/" + name
                    finally:
                        fs.close(start)
                elif action == 1:
                    fs.close(fs.open(3, f"{parent}/{name}".encode(), vfs.OFLAG_CREAT,
                                     vfs.RIGHT_FD_WRITE, 0))
                else:  # a deep subtree moved under another deep directory
                    source = deep([d for d in directories if "/" in d] or ["tmp"], rng)
                    if source == "tmp":
                        continue
                    target = f"{parent}/{name}"
                    fs.rename(3, source.encode(), 3, target.encode())
                    directories = [
                        target + d[len(source):] if d == source or d.startswith(source + "/")
                        else d for d in directories]
            except vfs.FsError:
                continue
        state = freeze(fs)
        for path, _, _, _ in state.nodes:
            assert path.count("/") <= vfs.MAX_DEPTH
            assert len(path.encode()) - 1 <= vfs.MAX_PATH_BYTES
        again = thaw(state, FileCaps())
        assert [node[:3] for node in freeze(again).nodes] == [node[:3] for node in state.nodes]
