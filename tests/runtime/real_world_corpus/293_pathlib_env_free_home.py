# ruff: noqa
from pathlib import Path, PurePosixPath, PureWindowsPath


def convert(path_text):
    """Convert a Windows path to a POSIX-style one for a backup manifest.

    >>> convert(r"C:\\Users\\ann\\Documents\\report.docx")
    'c/Users/ann/Documents/report.docx'
    >>> convert(r"\\\\server\\share\\file.txt")
    'server/share/file.txt'
    """
    p = PureWindowsPath(path_text)
    drive = p.drive.rstrip(":").strip("\\").replace("\\", "/").lower() if len(p.drive) == 2 else p.drive.strip("\\").replace("\\", "/")
    return str(PurePosixPath(drive, *p.parts[1:]))


def pure_ops():
    """
    >>> p = PurePosixPath("/srv/www/site/index.html")
    >>> p.is_relative_to("/srv"), p.relative_to("/srv/www").as_posix(), p.match("*.html")
    (True, 'site/index.html', True)
    >>> PurePosixPath("a/b").joinpath("..", "c").as_posix()
    'a/b/../c'
    >>> Path("rel/file.txt").is_absolute()
    False
    """


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
