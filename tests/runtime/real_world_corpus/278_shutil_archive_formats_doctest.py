# ruff: noqa
import os
import shutil
import zipfile


def zip_folder(folder, name):
    """
    >>> os.makedirs("report/charts", exist_ok=True)
    >>> for rel in ("report/summary.txt", "report/charts/q1.svg"):
    ...     with open(rel, "w") as f:
    ...         _ = f.write(rel)
    >>> path = zip_folder("report", "report-2024")
    >>> os.path.basename(path)
    'report-2024.zip'
    >>> with zipfile.ZipFile(path) as zf:
    ...     sorted(n for n in zf.namelist() if not n.endswith("/"))
    ['report/charts/q1.svg', 'report/summary.txt']
    >>> shutil.unpack_archive(path, "unzipped")
    >>> open("unzipped/report/summary.txt").read()
    'report/summary.txt'
    """
    return shutil.make_archive(name, "zip", root_dir=".", base_dir=folder)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
