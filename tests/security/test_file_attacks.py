"""Attacks on the guest's filesystem (an in-memory tree the host serves,
`sandbox_wasm/_fs/tree.py`), under the default balanced policy (which allows `open` and the
file modules) and with the audit in report-only mode: path games that would reach the host
elsewhere, link attempts, hostile names, and every host allocation a guest can drive (bytes,
nodes, descriptors, directory listings), each bounded. Nothing of the host may be read or
written."""

from __future__ import annotations

import os
import resource
from collections.abc import Iterator
from pathlib import Path

import pytest

import sandbox_wasm as sw

CANARY = "file-canary-93c1-do-not-leak"
POLICIES = {"balanced": sw.BALANCED_POLICY, "report": sw.REPORT_ONLY_POLICY}


@pytest.fixture(scope="module")
def box() -> Iterator[sw.Sandbox]:
    with sw.Sandbox(python_runtime="cpython313") as sandbox:
        yield sandbox


@pytest.fixture(params=list(POLICIES))
def policy(request: pytest.FixtureRequest) -> sw.AuditPolicy:
    return POLICIES[str(request.param)]


@pytest.fixture
def canary(tmp_path: Path) -> Path:
    path = tmp_path / "canary.txt"
    path.write_text(CANARY)
    return path


def run(box: sw.Sandbox, policy: sw.AuditPolicy, code: str, **options: object
        ) -> sw.ExecutionResult:
    result = box.execute(code, policy=policy, **options)  # type: ignore[arg-type]
    assert CANARY not in result.model_dump_json()
    return result


def _attempts(paths: list[str], action: str = "open({p!r}).read()") -> str:
    lines = ["results = []"]
    for path in paths:
        lines += [
            "try:",
            f"    value = {action.format(p=path)}",
            f"    results.append(({path!r}, 'ok', str(value)[:80]))",
            "except (OSError, ValueError) as exc:",
            f"    results.append(({path!r}, type(exc).__name__, getattr(exc, 'errno', None)))",
        ]
    return "\n".join([*lines, "for r in results: print(r)"]) + "\n"


def test_paths_out_of_the_tree_reach_nothing(
    box: sw.Sandbox, policy: sw.AuditPolicy, canary: Path
) -> None:
    targets = [
        str(canary), "/etc/passwd", "/proc/self/environ", "/proc/self/mem",
        "/input/../../etc/passwd", "../../../../etc/passwd", "/output/../../" + str(canary),
        "/tmp/../../../" + str(canary), "input/../../../etc/hostname", "/./etc/passwd",
        "//etc//passwd", str(canary.parent),
    ]
    result = run(box, policy, _attempts(targets), files={"a.txt": "x"})
    assert result.status == "succeeded", (result.error, result.stderr)
    lines = result.stdout.splitlines()
    assert len(lines) == len(targets)
    for line in lines:
        assert "'ok'" not in line, line
    assert canary.read_text() == CANARY


def test_writes_never_land_on_the_host(
    box: sw.Sandbox, policy: sw.AuditPolicy, canary: Path
) -> None:
    host_target = canary.parent / "written.txt"
    targets = [str(host_target), "/tmp/../" + str(host_target), str(canary),
               "/input/../../" + str(host_target)]
    result = run(box, policy, _attempts(targets, "open({p!r}, 'w').write('pwned')"))
    assert result.status == "succeeded"
    assert len(result.stdout.splitlines()) == len(targets)
    assert "'ok'" not in result.stdout
    assert not host_target.exists() and canary.read_text() == CANARY
    assert not Path("/tmp/sandbox-wasm-file-attack").exists()
    run(box, policy, "open('/tmp/sandbox-wasm-file-attack', 'w').write('in the tree')")
    assert not Path("/tmp/sandbox-wasm-file-attack").exists()


def test_walking_the_root_finds_only_the_tree(box: sw.Sandbox, policy: sw.AuditPolicy) -> None:
    result = run(box, policy, (
        "import os\n"
        "print(sorted(p for p, _, _ in os.walk('/')))\n"
    ) if policy.mode == "report" else (
        "import pathlib\n"
        "print(sorted(str(p) for p in pathlib.Path('/').rglob('*')))\n"
    ), files={"data/a.csv": "1"})
    assert result.status == "succeeded", (result.error, result.stderr)
    expected = ("['/', '/input', '/input/data', '/output', '/tmp']\n" if policy.mode == "report"
                else "['/input', '/input/data', '/input/data/a.csv', '/output', '/tmp']\n")
    assert result.stdout == expected


def test_links_cannot_be_made_or_followed(
    box: sw.Sandbox, canary: Path
) -> None:
    result = run(box, sw.REPORT_ONLY_POLICY, _attempts(
        ["x"], f"__import__('os').symlink({str(canary)!r}, '/tmp/link')"
    ) + _attempts(["y"], "__import__('os').link('/input/a', '/tmp/hard')")
      + _attempts(["z"], "__import__('os').readlink('/input/a')"), files={"a": "x"})
    assert result.status == "succeeded", (result.error, result.stderr)
    lines = result.stdout.splitlines()
    assert len(lines) == 3 and all("'ok'" not in line for line in lines)


def test_hostile_names_are_refused(box: sw.Sandbox, policy: sw.AuditPolicy) -> None:
    names = ["/tmp/" + "n" * 300, "/tmp/" + "d/" * 3000 + "f", "/tmp/a\x00b",
             "/tmp/\udcff", "/tmp/" + "é" * 200]
    result = run(box, policy, _attempts(names, "open({p!r}, 'w').write('x')"))
    assert result.status == "succeeded", (result.error, result.stderr)
    lines = result.stdout.splitlines()
    assert len(lines) == len(names)
    for line in lines:
        assert "'ok'" not in line, line


def test_a_deep_tree_stops_at_the_node_cap(box: sw.Sandbox, policy: sw.AuditPolicy) -> None:
    result = run(box, policy, (
        "import pathlib\n"
        "path = pathlib.Path('/tmp')\n"
        "depth = 0\n"
        "try:\n"
        "    while True:\n"
        "        path = path / 'd'\n"
        "        path.mkdir()\n"
        "        depth += 1\n"
        "except OSError as exc:\n"
        "    print(depth, exc.errno)\n"
    ), timeout_ms=10_000)
    assert result.status == "succeeded", (result.error, result.stderr)
    depth, errno = map(int, result.stdout.split())
    assert depth <= 1_000 and errno in (28, 37, 51)  # EINVAL, ENAMETOOLONG or ENOSPC


def test_many_small_files_stop_at_the_node_cap(box: sw.Sandbox, policy: sw.AuditPolicy) -> None:
    result = run(box, policy, (
        "made = 0\n"
        "try:\n"
        "    for i in range(100_000):\n"
        "        open(f'/output/f{i}', 'w').close()\n"
        "        made += 1\n"
        "except OSError as exc:\n"
        "    print(made, exc.errno)\n"
    ), timeout_ms=10_000)
    assert result.status == "succeeded", (result.error, result.stderr)
    assert result.stdout == "1000 51\n"  # ENOSPC at the cap of 1,000 nodes
    assert len(result.files) == 1_000
    assert any("1000 files and directories" in line for line in result.files_dropped)


def test_descriptors_stop_at_their_cap(box: sw.Sandbox, policy: sw.AuditPolicy) -> None:
    result = run(box, policy, (
        "handles = []\n"
        "try:\n"
        "    while True:\n"
        "        handles.append(open('/tmp/same', 'a'))\n"
        "except OSError as exc:\n"
        "    print(len(handles), exc.errno)\n"
    ))
    assert result.status == "succeeded", (result.error, result.stderr)
    assert result.stdout == "64 33\n"  # EMFILE


def test_huge_writes_seeks_and_truncates_are_refused_without_allocating(
    box: sw.Sandbox, policy: sw.AuditPolicy
) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = run(box, policy, (
        "outcomes = []\n"
        "def attempt(label, action):\n"
        "    try:\n"
        "        action()\n"
        "        outcomes.append((label, 'ok'))\n"
        "    except OSError as exc:\n"
        "        outcomes.append((label, exc.errno))\n"
        "f = open('/output/big', 'wb', buffering=0)\n"
        "attempt('one huge write', lambda: f.write(b'x' * (64 << 20)))\n"
        "attempt('seek far, write', lambda: (f.seek(1 << 40), f.write(b'x')))\n"
        "attempt('truncate huge', lambda: f.truncate(1 << 40))\n"
        "chunk = b'y' * (1 << 20)\n"
        "g = open('/tmp/fill', 'wb', buffering=0)\n"
        "attempt('fill', lambda: [g.write(chunk) for _ in range(100)])\n"
        "print(outcomes)\n"
    ), memory_mb=256, limits={"max_file_bytes": 16 << 20, "max_written_bytes": 24 << 20,
                              "memory_mb": 256})
    assert result.status == "succeeded", (result.error, result.stderr)
    assert result.stdout == ("[('one huge write', 22), ('seek far, write', 22), "
                             "('truncate huge', 22), ('fill', 22)]\n")
    assert result.files == {"big": b""}
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mib < 256 + 64  # the guest's own memory plus the tree's cap, not 1 TiB


def test_the_total_cap_applies_across_files(box: sw.Sandbox, policy: sw.AuditPolicy) -> None:
    result = run(box, policy, (
        "written = 0\n"
        "try:\n"
        "    for i in range(100):\n"
        "        open(f'/tmp/part{i}', 'wb').write(b'z' * (1 << 20))\n"
        "        written += 1\n"
        "except OSError as exc:\n"
        "    print(written, exc.errno)\n"
    ), limits={"max_written_bytes": 8 << 20})
    assert result.stdout == "8 51\n"  # ENOSPC after 8 MiB in all
    assert any("total cap" in line for line in result.files_dropped)


def test_freed_room_can_be_used_again(box: sw.Sandbox, policy: sw.AuditPolicy) -> None:
    result = run(box, policy, (
        "import pathlib\n"
        "for round in range(5):\n"
        "    for i in range(4):\n"
        "        pathlib.Path(f'/tmp/r{i}').write_bytes(b'q' * (1 << 20))\n"
        "    for i in range(4):\n"
        "        pathlib.Path(f'/tmp/r{i}').unlink()\n"
        "print('ok')\n"
    ), limits={"max_written_bytes": 5 << 20})
    assert (result.status, result.stdout) == ("succeeded", "ok\n")


def test_unopened_descriptors_and_stdio_games(box: sw.Sandbox) -> None:
    result = run(box, sw.REPORT_ONLY_POLICY, (
        "import os\n"
        "out = []\n"
        "for fd in (4, 5, 63, 64, 1000):\n"
        "    try:\n"
        "        os.read(fd, 10)\n"
        "        out.append('read')\n"
        "    except OSError as exc:\n"
        "        out.append(exc.errno)\n"
        "for call in (lambda: os.lseek(1, 0, 0), lambda: os.fstat(0).st_size,\n"
        "             lambda: os.pread(0, 1, 0), lambda: os.ftruncate(1, 0)):\n"
        "    try:\n"
        "        out.append(call())\n"
        "    except OSError as exc:\n"
        "        out.append(exc.errno)\n"
        "print(out)\n"
    ))
    assert result.stdout == "[8, 8, 8, 8, 8, 70, 0, 70, 8]\n"


def test_a_session_tree_is_its_own(box: sw.Sandbox, policy: sw.AuditPolicy) -> None:
    with sw.Session(sandbox=box, policy=policy) as one, sw.Session(sandbox=box,
                                                                    policy=policy) as two:
        one.execute(f"open('/tmp/secret', 'w').write({CANARY!r})")
        probe = two.execute("import pathlib\nprint(pathlib.Path('/tmp/secret').exists())")
        assert probe.stdout == "False\n"
        fresh = box.execute("import pathlib\nprint(pathlib.Path('/tmp/secret').exists())",
                            policy=policy)
        assert fresh.stdout == "False\n"
        kept = one.execute("print(len(open('/tmp/secret').read()))")
        assert kept.stdout == f"{len(CANARY)}\n"


def test_inputs_cannot_be_changed_from_a_session(box: sw.Sandbox) -> None:
    with sw.Session(sandbox=box, policy=sw.REPORT_ONLY_POLICY) as session:
        session.execute("pass", files={"given.txt": "original"})
        attempt = session.execute(
            "import os\nfor action in (lambda: open('/input/given.txt', 'w'),\n"
            "               lambda: os.replace('/tmp', '/input/given.txt')):\n"
            "    try:\n"
            "        action()\n"
            "        print('changed')\n"
            "    except OSError as exc:\n"
            "        print(exc.errno)\n"
        )
        assert "changed" not in attempt.stdout
        assert session.execute("print(open('/input/given.txt').read())").stdout == "original\n"


def test_the_host_environment_stays_out_of_the_tree(box: sw.Sandbox) -> None:
    os.environ["SANDBOX_WASM_FILE_CANARY"] = CANARY
    try:
        result = run(box, sw.REPORT_ONLY_POLICY, (
            "import os\n"
            "found = []\n"
            "for path, _, names in os.walk('/'):\n"
            "    for name in names:\n"
            "        found.append(open(os.path.join(path, name), 'rb').read())\n"
            "print(len(found), dict(os.environ))\n"
        ), files={"a": "1"})
    finally:
        del os.environ["SANDBOX_WASM_FILE_CANARY"]
    assert result.stdout == "1 {}\n"


# -- the tree's shape: every operation that makes a path keeps creation's bounds ----------
# Two trees of 40 levels each are within the bounds (48 parts, 4,096 bytes); one renamed
# into the other would make paths of 80 levels, which no lookup could name again.
_TWO_DEEP_TREES = (
    "import errno, pathlib\n"
    "def tree(top, levels, name='d'):\n"
    "    path = pathlib.Path(top)\n"
    "    path.mkdir()\n"
    "    for _ in range(levels):\n"
    "        path = path / name\n"
    "        path.mkdir()\n"
    "    (path / 'leaf.txt').write_text('leaf')\n"
    "    return path\n"
    "tree('/tmp/a', 39)\n"
    "deep_b = tree('/tmp/b', 39)\n"
    "try:\n"
    "    pathlib.Path('/tmp/a').rename(deep_b / 'a')\n"
    "    print('renamed')\n"
    "except OSError as exc:\n"
    "    print('refused', exc.errno == errno.ENAMETOOLONG)\n"
)


def test_renaming_a_deep_tree_into_another_is_refused_as_creation_would(
    box: sw.Sandbox, policy: sw.AuditPolicy,
) -> None:
    with sw.Session(sandbox=box, policy=policy, timeout_ms=2_000) as session:
        made = session.execute(_TWO_DEEP_TREES)
        assert made.stdout == "refused True\n", (made.stdout, made.stderr, made.error)
        # The session's state stays one a checkpoint restores: a trap rolls back to it.
        spun = session.execute("while True: pass")
        assert spun.status == "timeout" and spun.session is not None
        assert spun.session.rolled_back and not spun.session.closed
        kept = session.execute(
            "import pathlib\nprint(len(list(pathlib.Path('/tmp').rglob('leaf.txt'))))")
        assert kept.stdout == "2\n", (kept.stdout, kept.stderr)
        data = session.snapshot()
    with sw.Session.restore(data, sandbox=box) as restored:
        again = restored.execute(
            "import pathlib\nprint(max(len(p.parts) for p in pathlib.Path('/tmp').rglob('*')))")
        assert again.stdout == "43\n"  # '/', 'tmp', 'b', 39 levels, 'leaf.txt'


def test_renaming_long_names_past_the_path_length_is_refused(
    box: sw.Sandbox, policy: sw.AuditPolicy,
) -> None:
    result = run(box, policy, (
        "import errno, pathlib\n"
        "def tree(top):\n"
        "    path = pathlib.Path(top)\n"
        "    path.mkdir()\n"
        "    for _ in range(12):\n"
        "        path = path / ('n' * 200)\n"
        "        path.mkdir()\n"
        "    return path\n"
        "tree('/output/a')\n"
        "deep = tree('/output/b')\n"
        "for source, target in (('/output/a', deep / 'a'), ('/output/a', deep / ('x' * 250))):\n"
        "    try:\n"
        "        pathlib.Path(source).rename(target)\n"
        "        print('renamed')\n"
        "    except OSError as exc:\n"
        "        print(exc.errno == errno.ENAMETOOLONG)\n"
    ))
    assert result.stdout == "True\nTrue\n", (result.stdout, result.stderr, result.error)
    assert any("ENAMETOOLONG" in line for line in result.files_dropped)


def test_a_descriptor_of_a_deep_directory_cannot_make_deeper_paths(box: sw.Sandbox) -> None:
    # os.open / dir_fd are flagged by the enforcing policies: report-only reaches them.
    result = run(box, sw.REPORT_ONLY_POLICY, (
        "import errno, os\n"
        "path = '/tmp'\n"
        "for _ in range(46):\n"
        "    path += '/d'\n"
        "    os.mkdir(path)\n"
        "fd = os.open(path, os.O_RDONLY)\n"
        "made, name = 0, 'e'\n"
        "try:\n"
        "    while made < 100:\n"
        "        os.mkdir(name, dir_fd=fd)\n"
        "        made += 1\n"
        "        name += '/e'\n"
        "except OSError as exc:\n"
        "    print(made, exc.errno == errno.ENAMETOOLONG)\n"
        "try:\n"
        "    open('e/' + 'x' * 100, 'w', opener=lambda p, f: os.open(p, f, dir_fd=fd)).close()\n"
        "    print('file made')\n"
        "except OSError as exc:\n"
        "    print(exc.errno == errno.ENAMETOOLONG)\n"
    ))
    # /tmp is 1 part, 46 levels under it make 47: one more level (48) is the most.
    assert result.stdout == "1 True\nTrue\n", (result.stdout, result.stderr, result.error)


def test_output_dir_refuses_names_past_the_tree_s_bounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    from sandbox_wasm.cli._common import save_output_files

    out = tmp_path / "out"
    names = {"/".join(["d"] * 60) + "/f": b"deep", "/".join(["n" * 250] * 17): b"long",
             "fine/ok.txt": b"ok"}
    assert save_output_files(names, str(out), "wasm-exec") == 2
    written = [p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()]
    assert written == ["fine/ok.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
    err = capsys.readouterr().err
    assert err.count("is over the sandbox's limits of 48 levels and 4096 bytes") == 2


def test_output_dir_gets_no_deeper_tree_than_the_guest_could_name(tmp_path: Path) -> None:
    import subprocess
    import sys

    # The attack of the red team: five trees under /output renamed into each other.
    code = (
        "import pathlib\n"
        "tops = []\n"
        "for t in range(5):\n"
        "    path = pathlib.Path(f'/output/t{t}')\n"
        "    path.mkdir()\n"
        "    for _ in range(40):\n"
        "        path = path / 'd'\n"
        "        path.mkdir()\n"
        "    (path / 'leaf.txt').write_text(str(t))\n"
        "    tops.append((pathlib.Path(f'/output/t{t}'), path))\n"
        "refused = 0\n"
        "for (top, _), (_, deep) in zip(tops[1:], tops):\n"
        "    try:\n"
        "        top.rename(deep / top.name)\n"
        "    except OSError:\n"
        "        refused += 1\n"
        "print(refused)\n"
    )
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "-c", code, "--output-dir", str(out)],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "4\n"
    leaves = sorted(p.relative_to(out) for p in out.rglob("leaf.txt"))
    assert len(leaves) == 5
    assert max(len(p.parts) for p in leaves) == 42  # t{n}, 40 levels, leaf.txt
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
