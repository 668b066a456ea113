"""Record the expected output of every data-corpus script, run natively.

The scripts run with the host's CPython 3.13 in a virtualenv outside the repository
(``~/.cache/sandbox-wasm/data-corpus-venv``, or ``$SANDBOX_WASM_DATA_CORPUS_VENV``) that holds
exactly the data runtime's packages (``PINS``, wheels from the package index; created or
repaired on first use). Each script runs as the sandbox runs it: its source given as a
string (``python -c``, so ``__main__`` has no ``__file__``), the working directory an
empty ``output`` directory, the files named on its ``# inputs:`` line copied from
``inputs/`` into an ``input`` directory beside it. The literal paths ``"/input`` and
``"/output`` in the source are pointed at those two directories, and the temporary root is
mapped back in what the run prints and writes, so the record reads as the sandbox's.

The environment holds only PATH, TZ=UTC, an empty PYTHONTZPATH (time zones come from the
``tzdata`` package, as in the sandbox, never from the host's /usr/share/zoneinfo) and
PYTHONHASHSEED: 0 for the recorded run, 1 for a second run that must print and write the
same (so nothing depends on the order of a set or of string hashes). Every run must exit 0.

The result goes to expected.json (sorted keys, indent 1)::

    {"<file>": {"stdout": ..., "files": {"<name under /output>": "<text>"}}}

A written file that is not UTF-8 text is recorded as ``"base64:<data>"``.

Usage: python record.py [--check | --show] [NAME ...]
  --check   compare with expected.json instead of writing it
  --show    also print each script's output and written files
  NAME      only these scripts (prefixes are fine); the file is not written then
"""

import base64
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "expected.json")
INPUTS = os.path.join(HERE, "inputs")
SCRIPT_NAME = re.compile(r"^\d{3}_[a-z0-9_]+\.py$")
INPUTS_LINE = re.compile(r"^# inputs: (.+)$", re.M)
SANDBOX_DIRS = re.compile(r"""(?<=["'])/(input|output)(?=["'/])""")
PINS = [
    "numpy==2.4.6",
    "pandas==3.0.6",
    "matplotlib==3.10.9",  # benchmarks/data_runtime.py's native chart, and its dependencies
    "contourpy==1.4.0",
    "cycler==0.12.1",
    "fonttools==4.68.0",
    "kiwisolver==1.5.1",
    "pillow==13.0.0",
    "pyparsing==3.3.3",
    "packaging==26.4",
    "scipy==1.18.1",
    "scikit-learn==1.9.1",
    "joblib==1.6.0",
    "cloudpickle==3.1.3",
    "threadpoolctl==3.8.0",
    "narwhals==2.29.0",
    "statsmodels==0.15.0",
    "patsy==1.0.3",
    "formulaic==1.2.2",
    "interface-meta==2.0.1",
    "wrapt==2.5.2",
    "typing-extensions==4.16.0",
    "python-dateutil==2.9.0.post0",
    "six==1.17.0",
    "tzdata==2026.6",
]
VENV = os.environ.get("SANDBOX_WASM_DATA_CORPUS_VENV") or os.path.expanduser(
    "~/.cache/sandbox-wasm/data-corpus-venv"
)


def find_python():
    roots = [os.environ.get("PYENV_ROOT"), os.path.expanduser("~/.pyenv"), "/root/.pyenv"]
    for root in filter(None, roots):
        candidates = sorted(glob.glob(os.path.join(root, "versions/3.13*/bin/python3.13")))
        if candidates:
            return candidates[-1]
    sys.exit("no CPython 3.13 under $PYENV_ROOT, ~/.pyenv or /root/.pyenv (versions/3.13*)")


def venv_python():
    """The venv's interpreter, after making sure it holds exactly PINS."""
    python = os.path.join(VENV, "bin", "python")
    pins = sorted(normalized(pin) for pin in PINS)
    if os.path.exists(python) and installed(python) == pins:
        return python
    if not os.path.exists(python):
        subprocess.run([find_python(), "-m", "venv", VENV], check=True)
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--only-binary=:all:", *PINS],
                   check=True)
    extra = sorted(set(installed(python)) - set(pins))
    if extra:
        # Optional pandas dependencies (pyarrow, numexpr, bottleneck, ...) change its
        # behaviour; the data runtime has none of them.
        subprocess.run([python, "-m", "pip", "uninstall", "--quiet", "--yes",
                        *(e.split("==")[0] for e in extra)], check=True)
    if installed(python) != pins:
        sys.exit(f"{VENV} does not hold exactly {PINS}: {installed(python)}")
    return python


def normalized(pin):
    """A pin with its project name as pip compares them (interface_meta == interface-meta)."""
    name, version = pin.split("==")
    return f"{re.sub(r'[-_.]+', '-', name).lower()}=={version}"


def installed(python):
    freeze = subprocess.run([python, "-m", "pip", "freeze", "--all"], capture_output=True,
                            text=True, check=True).stdout.split()
    return sorted(normalized(line) for line in freeze
                  if not line.startswith(("pip==", "setuptools==")))


def scripts():
    return sorted(n for n in os.listdir(HERE) if SCRIPT_NAME.match(n))


def script_inputs(source):
    """The input files a script's ``# inputs:`` line names (files of inputs/)."""
    match = INPUTS_LINE.search(source)
    return match.group(1).replace(",", " ").split() if match else []


def read_tree(root):
    found = {}
    for directory, _, names in os.walk(root):
        for name in names:
            path = os.path.join(directory, name)
            with open(path, "rb") as f:
                data = f.read()
            found[os.path.relpath(path, root).replace(os.sep, "/")] = data
    return dict(sorted(found.items()))


def run_once(python, name, hash_seed):
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        source = f.read()
    with tempfile.TemporaryDirectory(prefix="data-corpus-") as root:
        os.mkdir(os.path.join(root, "input"))
        os.mkdir(os.path.join(root, "output"))
        for input_name in script_inputs(source):
            shutil.copy(os.path.join(INPUTS, input_name), os.path.join(root, "input"))
        proc = subprocess.run(
            [python, "-c", SANDBOX_DIRS.sub(lambda m: root + m.group(0), source)],
            cwd=os.path.join(root, "output"),
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TZ": "UTC",
                 "PYTHONTZPATH": "", "PYTHONHASHSEED": str(hash_seed)},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
        )
        files = {}
        for path, data in read_tree(os.path.join(root, "output")).items():
            try:
                files[path] = data.decode("utf-8").replace(root, "")
            except UnicodeDecodeError:
                files[path] = "base64:" + base64.b64encode(data).decode("ascii")
        return proc.returncode, proc.stdout.replace(root, ""), proc.stderr, files


def main(argv):
    check = "--check" in argv
    show = "--show" in argv
    names = [a for a in argv if not a.startswith("--")]
    python = venv_python()
    selected = [n for n in scripts() if not names or any(n.startswith(p) for p in names)]
    results, problems = {}, []
    for name in selected:
        code, out, err, files = run_once(python, name, 0)
        code2, out2, _, files2 = run_once(python, name, 1)
        if code != 0:
            problems.append(f"{name}: exit code {code}\n{err[-2000:]}{out[-1000:]}")
        elif err:
            problems.append(f"{name}: writes to stderr (a warning?)\n{err[-2000:]}")
        if (code, out, files) != (code2, out2, files2):
            problems.append(
                f"{name}: output depends on the run (or PYTHONHASHSEED)\n"
                f"--- run 1\n{out[-1500:]}\n--- run 2\n{out2[-1500:]}"
            )
        if re.search(r"0x[0-9a-f]{6,}", out):
            problems.append(f"{name}: prints a memory address")
        if HERE in out or tempfile.gettempdir() + "/data-corpus-" in out:
            problems.append(f"{name}: prints a machine path")
        results[name] = {"stdout": out, "files": files}
        print(f"{name}: exit {code}, {len(out)} chars, {len(files)} files", flush=True)
        if show:
            print(out + "".join(f"--- {path}\n{text}\n" for path, text in files.items()))
    if problems:
        print("\nPROBLEMS:\n" + "\n\n".join(problems), file=sys.stderr)
        sys.exit(1)
    if check:
        with open(EXPECTED, encoding="utf-8") as f:
            expected = json.load(f)
        diff = [n for n in results if expected.get(n) != results[n]]
        if diff:
            sys.exit(f"differs from expected.json: {diff}")
        print(f"{len(results)} scripts match expected.json")
    elif names:
        print(f"{len(results)} scripts ok (expected.json not written: a selection)")
    else:
        with open(EXPECTED, "w", encoding="utf-8") as f:
            json.dump(results, f, sort_keys=True, indent=1, ensure_ascii=False)
            f.write("\n")
        print(f"recorded {len(results)} scripts to {os.path.basename(EXPECTED)}")


if __name__ == "__main__":
    main(sys.argv[1:])
