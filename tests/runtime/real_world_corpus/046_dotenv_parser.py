# ruff: noqa
"""Parse a .env file without touching os.environ.

>>> with open(".env", "w") as f:
...     _ = f.write('# comment\\nDB_HOST=localhost\\nDB_PORT = 5432\\nexport API_KEY="abc 123"\\nEMPTY=\\nQUOTED=\\'single # not comment\\'\\nURL=http://x/${DB_HOST}:${DB_PORT} # trailing\\nbad line\\n')
>>> cfg = load_env(".env")
>>> for k in sorted(cfg):
...     print(f"{k}={cfg[k]!r}")
API_KEY='abc 123'
DB_HOST='localhost'
DB_PORT='5432'
EMPTY=''
QUOTED='single # not comment'
URL='http://x/localhost:5432'
"""
import re

_VAR = re.compile(r"\$\{(\w+)\}")


def parse_line(line):
    """
    >>> parse_line("  ")
    >>> parse_line("A=1")
    ('A', '1')
    >>> parse_line("export B='x'")
    ('B', 'x')
    """
    line = line.strip()
    if not line or line.startswith("#") or "=" not in line:
        return None
    key, _, value = line.partition("=")
    key = key.strip()
    if key.startswith("export "):
        key = key[len("export "):].strip()
    value = value.strip()
    if value[:1] in ("'", '"') and value[-1:] == value[:1] and len(value) > 1:
        value = value[1:-1]
    elif " #" in value:
        value = value.split(" #", 1)[0].rstrip()
    return key, value


def load_env(path):
    values = {}
    with open(path) as f:
        for line in f:
            parsed = parse_line(line)
            if parsed:
                key, value = parsed
                values[key] = _VAR.sub(lambda m: values.get(m.group(1), ""), value)
    return values


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
