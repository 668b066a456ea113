# ruff: noqa
import functools
from types import SimpleNamespace


def get_path(obj, path, default=None):
    """Follow a dotted attribute path; integers index sequences.

    >>> cfg = SimpleNamespace(db=SimpleNamespace(host="localhost", replicas=["r1", "r2"]), debug=True)
    >>> get_path(cfg, "db.host"), get_path(cfg, "db.replicas.1"), get_path(cfg, "db.port", 5432)
    ('localhost', 'r2', 5432)
    >>> get_path(cfg, "debug")
    True
    """
    def step(current, part):
        if current is default:
            return default
        if part.isdigit():
            try:
                return current[int(part)]
            except (IndexError, TypeError):
                return default
        return getattr(current, part, default)
    return functools.reduce(step, path.split("."), obj)


def set_path(obj, path, value):
    """
    >>> o = SimpleNamespace(a=SimpleNamespace(b=1))
    >>> set_path(o, "a.b", 2); o.a.b
    2
    """
    *parents, last = path.split(".")
    setattr(get_path(obj, ".".join(parents)) if parents else obj, last, value)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
