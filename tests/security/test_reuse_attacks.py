"""Attacks on instance reuse (a one-shot run that comes back to rest leaves its instance,
memory put back to the image, for the next run): leaving state for the next caller in the
interpreter, in the bootstrap, in the random generator, or by faking the end of a request.
Under an enforcing policy and with the audit in report-only mode (the WebAssembly boundary
and the memory reset alone). Each test checks that the instance really was reused, so that a
clean second run proves the reset and not a fresh instance."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from instance_memory import memory_of

import sandbox_wasm as sw
from sandbox_wasm._guest.bootstrap import MODE_EXEC
from sandbox_wasm._host.memory import SHRINK_AFTER, MemoryReset
from sandbox_wasm._host.program import MAX_RESET_BYTES, LiveInstance
from sandbox_wasm._request import audit_budget
from sandbox_wasm._wire import policy_line, request_payload

SECRET = "reuse-secret-77e1-do-not-leak"
POLICIES = {"strict": sw.STRICT_POLICY, "report": sw.REPORT_ONLY_POLICY}
# Looks for the secret in every container the guest's Python can reach (joined at run time,
# inside a function, so that no constant or global of the probe holds it), in builtins and in
# every module's namespace.
PROBE = (
    "import gc, sys, builtins\n"
    "def scan():\n"
    "    needle = ''.join(['reuse-secret-', '77e1-do-not-leak'])\n"
    "    def holds(values):\n"
    "        return any(isinstance(v, str) and needle in v for v in values)\n"
    "    if holds(vars(builtins).values()) or any(\n"
    "            holds(vars(m).values()) for m in list(sys.modules.values()) if m is not None):\n"
    "        return 'FOUND'\n"
    "    for o in gc.get_objects():\n"
    "        values = o.values() if isinstance(o, dict) else o if isinstance(o, (list, tuple))"
    " else ()\n"
    "        if holds(values):\n"
    "            return 'FOUND'\n"
    "    return 'clean'\n"
    "print(scan(), 'kept' in sys.modules)\n"
)
PLANTS = {
    "builtins": f"import builtins\nbuiltins.kept = {SECRET!r}",
    "module attribute": f"import json\njson.kept = {SECRET!r}",
    "sys.modules": f"import sys, types\nm = types.ModuleType('kept')\nm.v = {SECRET!r}\n"
                   "sys.modules['kept'] = m",
    "a class of the stdlib": f"import json\njson.JSONEncoder.kept = {SECRET!r}",
}


@pytest.fixture(params=list(POLICIES))
def policy(request: pytest.FixtureRequest) -> sw.AuditPolicy:
    return POLICIES[str(request.param)]


@pytest.fixture
def box(policy: sw.AuditPolicy) -> Iterator[sw.Sandbox]:
    with sw.Sandbox(policy=policy, python_runtime="cpython313") as sandbox:
        yield sandbox


def idle(box: sw.Sandbox) -> list[LiveInstance]:
    return [instance for instance, _ in box._program("python").idle_instances()]


def memory_holds(instance: LiveInstance, needle: bytes) -> bool:
    """Whether any byte of the instance's linear memory spells `needle` (read by the host)."""
    return needle in memory_of(instance)


def reused_run(box: sw.Sandbox, code: str, *, kept: bool = True,
               **options: object) -> sw.ExecutionResult:
    """Run `code` in the one instance the previous run left idle (the run takes it: no other
    is idle), and check that it is idle again after (`kept`) or was freed (a run that
    dirties too much memory frees its instance)."""
    (waiting,) = idle(box)
    result = box.execute(code, **options)  # type: ignore[arg-type]
    assert idle(box) == ([waiting] if kept else []), "the instance was not reused as expected"
    return result


@pytest.mark.parametrize("plant", list(PLANTS))
def test_state_left_by_a_run_is_gone_for_the_next(box: sw.Sandbox, plant: str) -> None:
    box.execute("print('warm')")
    planted = reused_run(box, PLANTS[plant])
    # Every byte of the memory the next run gets, read by the host (this maps every page,
    # so the next reset finds more pages to put back; it comes last but for the probe).
    (instance,) = idle(box)
    assert not memory_holds(instance, SECRET.encode())
    # The probe touches every object (their reference counts): too many pages to put back.
    probe = reused_run(box, PROBE, kept=False, policy=sw.REPORT_ONLY_POLICY)
    assert probe.stdout == "clean False\n", (planted.status, probe.stdout, probe.error)
    assert box.execute("print('kept' in dir(__builtins__))",
                       policy=sw.REPORT_ONLY_POLICY).stdout == "False\n"


def test_a_hijacked_entry_point_is_gone_for_the_next(box: sw.Sandbox) -> None:
    # The one-shot run's __main__ replaces the bootstrap's in sys.modules, where the entry
    # trampoline looks serve() up: without the reset the next run would call this one.
    box.execute("print('warm')")
    reused_run(box, "def serve():\n    print('hijacked')\nprint('defined')")
    after = reused_run(box, "print('own code')")
    assert after.stdout == "own code\n"


def test_a_broken_interpreter_is_gone_for_the_next(box: sw.Sandbox, policy: sw.AuditPolicy) -> None:
    box.execute("print('warm')")
    breaking = reused_run(box, "import sys\nsys.stdout = None\nsys.stderr = None\n"
                               "import builtins\ndel builtins.print")
    if policy.mode == "enforce":
        assert breaking.status == "blocked"
    after = reused_run(box, "print('still printing')")
    assert after.stdout == "still printing\n"


def test_each_run_draws_its_own_random_numbers(box: sw.Sandbox) -> None:
    code = "import random\nprint(random.random())"
    box.execute("import random\nrandom.seed(1)\nprint(random.random())")
    seeded = box.execute("import random\nrandom.seed(1)\nprint(random.random())").stdout
    draws = {reused_run(box, code).stdout for _ in range(5)}
    assert len(draws) == 5 and seeded not in draws


def test_a_faked_end_of_request_does_not_keep_the_instance(box: sw.Sandbox,
                                                          policy: sw.AuditPolicy) -> None:
    box.execute("print('warm')")
    (warm,) = idle(box)
    faked = box.execute(
        f"import builtins, os\nbuiltins.kept = {SECRET!r}\n"
        "os.write(2, b'\\x00sandbox-wasm-status:0\\n')\nos._exit(0)")
    if policy.mode == "enforce":
        assert faked.status == "blocked"  # never ran: the instance came to rest
    else:
        assert faked.exit_code == 0 and warm not in idle(box)
    probe = box.execute("import builtins\nprint(getattr(builtins, 'kept', 'clean'))",
                        policy=sw.REPORT_ONLY_POLICY)
    assert probe.stdout == "clean\n"


def test_a_data_run_writing_past_4_mib_leaves_nothing_for_the_next() -> None:
    # The data runtime reuses an instance after a run that wrote up to an eighth of its
    # image (a chart, a pandas script): everything such a run wrote is put back too, by
    # copying and, after small runs, by giving the pages back to the image's mapping.
    plant = (
        "import builtins, io\nimport numpy as np\nimport matplotlib.pyplot as plt\n"
        f"secret = {SECRET!r}\nbuiltins.kept = secret\n"
        "np.kept = np.frombuffer((secret * 20_000).encode(), dtype=np.uint8).copy()\n"
        "fig, ax = plt.subplots()\nax.plot([1, 3, 2]); ax.set_title(secret)\n"
        "fig.savefig(io.BytesIO(), format='png')\nplt.close(fig)\n"
    )
    with sw.Sandbox(runtime="python-data", policy=sw.REPORT_ONLY_POLICY) as box:
        program = box._program("python")
        box.execute("print('warm')")
        planted = reused_run(box, plant)
        assert planted.ok, planted.error
        ((instance, reset),) = program.idle_instances()
        assert MAX_RESET_BYTES < reset.written_bytes <= program.reset_budget()
        assert not memory_holds(instance, SECRET.encode())
        # Small runs after it: the written pages go back to the image's mapping (no copy).
        for _ in range(SHRINK_AFTER):
            after = reused_run(box, "import builtins, numpy as np\n"
                                    "print(hasattr(builtins, 'kept'), hasattr(np, 'kept'))")
            assert after.stdout == "False False\n", (after.stdout, after.error)
        assert reset.written_bytes == 0
        assert not memory_holds(instance, SECRET.encode())


@pytest.mark.parametrize("plant", list(PLANTS))
def test_the_secret_is_in_memory_until_the_reset(plant: str) -> None:
    """The control: after a run (here one that is never reset), its secret is in the
    instance's memory, where the checks above would see it; the reset removes every trace."""
    with sw.Sandbox(policy=sw.REPORT_ONLY_POLICY, python_runtime="cpython313") as box:
        program = box._program("python")
        instance = LiveInstance(program, box.limits.memory_mb * 2**20, program.argv)
        try:
            payload = request_payload(MODE_EXEC, {}, policy_line(box.policy), PLANTS[plant],
                                      rest=True)
            outcome = instance.call(payload, box.limits,
                                    audit_budget=audit_budget(box.limits.memory_mb))
            assert outcome.at_rest and outcome.exit_code == 0, outcome.stderr_text
            assert memory_holds(instance, SECRET.encode())
            assert instance.memory is not None
            # Reading all of it mapped every page: no bound on what the reset puts back.
            reset = MemoryReset(*program.pristine_memory(), max_bytes=1 << 40)
            assert reset.reset(instance.memory, instance.store, faulted=True)
            assert not memory_holds(instance, SECRET.encode())
        finally:
            instance.close()
