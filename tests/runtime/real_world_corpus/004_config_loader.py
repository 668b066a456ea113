# ruff: noqa
"""Load an INI config with defaults and typed accessors."""
import configparser
import os

DEFAULTS = {"host": "localhost", "port": "8080", "debug": "no"}


def write_sample(path):
    with open(path, "w") as fh:
        fh.write("[server]\nport = 9000\ndebug = yes\n\n[database]\nname = app.db\ntimeout = 2.5\n")


def load_config(path):
    """Load *path* and return a dict of typed settings.

    >>> write_sample("settings.ini")
    >>> cfg = load_config("settings.ini")
    >>> cfg["server"]
    {'host': 'localhost', 'port': 9000, 'debug': True}
    >>> cfg["database"]["timeout"]
    2.5
    >>> load_config("missing.ini")
    Traceback (most recent call last):
    ...
    FileNotFoundError: missing.ini
    """
    if not os.path.exists(path):
        raise FileNotFoundError(path)
    parser = configparser.ConfigParser(defaults=DEFAULTS)
    parser.read(path)
    server = parser["server"]
    db = parser["database"]
    return {
        "server": {
            "host": server.get("host"),
            "port": server.getint("port"),
            "debug": server.getboolean("debug"),
        },
        "database": {"name": db.get("name"), "timeout": db.getfloat("timeout")},
    }


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
