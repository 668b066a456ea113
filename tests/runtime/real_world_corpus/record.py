"""Record the expected output of every corpus script, run natively.

Each script runs twice with the host's CPython 3.13, each time in a fresh empty
temporary working directory, with an environment holding only PATH. The runs must
exit 0 (or the same code twice), print the same stdout both times, and doctest
scripts must report no failures. The result goes to expected.json:
``{"<file>": {"stdout": ..., "exit_code": ...}}`` (sorted keys, indent 1).

Usage: python record.py [--check] [NAME ...]
  --check   compare with expected.json instead of writing it
  NAME      only these scripts (prefixes are fine); the file is not written then
"""

import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "expected.json")
SCRIPT_NAME = re.compile(r"^\d{3}_[a-z0-9_]+\.py$")


def find_python():
    candidates = sorted(glob.glob("/root/.pyenv/versions/3.13*/bin/python3.13"))
    if not candidates:
        sys.exit("no /root/.pyenv/versions/3.13*/bin/python3.13 found")
    return candidates[-1]


def scripts():
    return sorted(n for n in os.listdir(HERE) if SCRIPT_NAME.match(n))


def run_once(python, name):
    with tempfile.TemporaryDirectory(prefix="corpus-") as cwd:
        proc = subprocess.run(
            [python, os.path.join(HERE, name)],
            cwd=cwd,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
    return proc.returncode, proc.stdout, proc.stderr


def main(argv):
    check = "--check" in argv
    names = [a for a in argv if not a.startswith("--")]
    python = find_python()
    selected = [n for n in scripts() if not names or any(n.startswith(p) for p in names)]
    results, problems = {}, []
    for name in selected:
        code1, out1, err1 = run_once(python, name)
        code2, out2, _ = run_once(python, name)
        if code1 != 0:
            problems.append(f"{name}: exit code {code1}\n{err1[-2000:]}{out1[-1000:]}")
        if (code1, out1) != (code2, out2):
            problems.append(
                f"{name}: nondeterministic output\n"
                f"--- run 1\n{out1[-1500:]}\n--- run 2\n{out2[-1500:]}"
            )
        for failed, attempted in re.findall(r"TestResults\(failed=(\d+), attempted=(\d+)\)", out1):
            if int(failed) or not int(attempted):
                problems.append(
                    f"{name}: doctest failed={failed} attempted={attempted}\n{out1[-2000:]}"
                )
        if HERE in out1 or tempfile.gettempdir() + "/corpus-" in out1:
            problems.append(f"{name}: prints a machine path")
        results[name] = {"stdout": out1, "exit_code": code1}
        print(f"{name}: exit {code1}, {len(out1)} chars", flush=True)
    if problems:
        print("\nPROBLEMS:\n" + "\n\n".join(problems), file=sys.stderr)
        sys.exit(1)
    if check:
        with open(EXPECTED) as f:
            expected = json.load(f)
        diff = [n for n in results if expected.get(n) != results[n]]
        if diff:
            sys.exit(f"differs from expected.json: {diff}")
        print(f"{len(results)} scripts match expected.json")
    elif names:
        print(f"{len(results)} scripts ok (expected.json not written: a selection)")
    else:
        with open(EXPECTED, "w") as f:
            json.dump(results, f, sort_keys=True, indent=1)
            f.write("\n")
        print(f"recorded {len(results)} scripts to {os.path.basename(EXPECTED)}")


if __name__ == "__main__":
    main(sys.argv[1:])
