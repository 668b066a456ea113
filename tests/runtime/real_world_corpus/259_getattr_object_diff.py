# ruff: noqa
class Server:
    def __init__(self, host, port, tls=False, tags=()):
        self.host, self.port, self.tls, self.tags = host, port, tls, list(tags)


def diff_objects(a, b, attrs=None):
    """Compare two objects attribute by attribute.

    >>> old = Server("db1", 5432, tags=["primary"])
    >>> new = Server("db1", 6432, tls=True, tags=["primary"])
    >>> diff_objects(old, new)
    {'port': (5432, 6432), 'tls': (False, True)}
    >>> diff_objects(old, new, ["host", "tags"])
    {}
    """
    names = attrs or sorted(set(vars(a)) | set(vars(b)))
    out = {}
    for n in names:
        va, vb = getattr(a, n, None), getattr(b, n, None)
        if va != vb:
            out[n] = (va, vb)
    return out


def apply_diff(obj, diff):
    """
    >>> s = Server("x", 1)
    >>> apply_diff(s, {"port": (1, 2), "host": ("x", "y")})
    >>> (s.host, s.port)
    ('y', 2)
    """
    for name, (_, new) in diff.items():
        setattr(obj, name, new)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
