# ruff: noqa
import json


class ReportFormatter:
    """Render rows in the format named at run time (``format_<name>`` methods).

    >>> rows = [{"city": "Oslo", "temp": -3}, {"city": "Lima", "temp": 19}]
    >>> f = ReportFormatter()
    >>> f.formats()
    ['csv', 'json', 'text']
    >>> for name in f.formats():
    ...     print(f"--- {name}")
    ...     print(f.render(rows, name))
    --- csv
    city,temp
    Oslo,-3
    Lima,19
    --- json
    [{"city": "Oslo", "temp": -3}, {"city": "Lima", "temp": 19}]
    --- text
    city  temp
    Oslo    -3
    Lima    19
    >>> f.render(rows, "xml")
    Traceback (most recent call last):
    ...
    ValueError: unknown format 'xml'; choose from csv, json, text
    """

    def formats(self):
        return sorted(n[len("format_"):] for n in dir(self) if n.startswith("format_"))

    def render(self, rows, name):
        method = getattr(self, "format_" + name, None)
        if method is None:
            raise ValueError(f"unknown format {name!r}; choose from {', '.join(self.formats())}")
        return method(rows)

    def format_csv(self, rows):
        keys = list(rows[0])
        return "\n".join([",".join(keys)] + [",".join(str(r[k]) for k in keys) for r in rows])

    def format_json(self, rows):
        return json.dumps(rows)

    def format_text(self, rows):
        keys = list(rows[0])
        return "\n".join([f"{keys[0]:<5}{keys[1]:>5}"] + [f"{r[keys[0]]:<5}{r[keys[1]]:>5}" for r in rows])


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
