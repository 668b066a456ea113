# ruff: noqa
import glob
import os
import shutil
import tempfile


def collect_logs(sources, dest):
    """Copy every *.log from several service folders into one folder, prefixing the service name.

    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     for svc, names in {"api": ["out.log", "err.log", "x.txt"], "worker": ["out.log"]}.items():
    ...         os.makedirs(os.path.join(tmp, svc))
    ...         for n in names:
    ...             with open(os.path.join(tmp, svc, n), "w") as f:
    ...                 _ = f.write(svc + "/" + n)
    ...     copied = collect_logs([os.path.join(tmp, s) for s in ("api", "worker")], os.path.join(tmp, "all"))
    ...     print(copied)
    ...     print(open(os.path.join(tmp, "all", "worker-out.log")).read())
    ['api-err.log', 'api-out.log', 'worker-out.log']
    worker/out.log
    """
    os.makedirs(dest, exist_ok=True)
    copied = []
    for src in sources:
        service = os.path.basename(os.path.normpath(src))
        for path in sorted(glob.glob(os.path.join(src, "*.log"))):
            name = f"{service}-{os.path.basename(path)}"
            shutil.copy(path, os.path.join(dest, name))
            copied.append(name)
    return sorted(copied)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
