# ruff: noqa
import json


def diff(a, b, path=""):
    """List the differences between two JSON documents.

    >>> old = json.loads('{"name": "svc", "replicas": 2, "env": {"A": "1", "B": "2"}, "ports": [80, 443]}')
    >>> new = json.loads('{"name": "svc", "replicas": 3, "env": {"A": "1", "C": "3"}, "ports": [80, 8443]}')
    >>> for line in diff(old, new):
    ...     print(line)
    - env.B: "2"
    + env.C: "3"
    ~ ports[1]: 443 -> 8443
    ~ replicas: 2 -> 3
    >>> diff([1, 2], [1, 2, 3])
    ['+ [2]: 3']
    >>> diff({"a": 1}, {"a": 1})
    []
    """
    out = []
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(a.keys() | b.keys()):
            sub = f"{path}.{key}" if path else key
            if key not in b:
                out.append(f"- {sub}: {json.dumps(a[key])}")
            elif key not in a:
                out.append(f"+ {sub}: {json.dumps(b[key])}")
            else:
                out.extend(diff(a[key], b[key], sub))
    elif isinstance(a, list) and isinstance(b, list):
        for i in range(max(len(a), len(b))):
            sub = f"{path}[{i}]"
            if i >= len(b):
                out.append(f"- {sub}: {json.dumps(a[i])}")
            elif i >= len(a):
                out.append(f"+ {sub}: {json.dumps(b[i])}")
            else:
                out.extend(diff(a[i], b[i], sub))
    elif a != b:
        out.append(f"~ {path}: {json.dumps(a)} -> {json.dumps(b)}")
    return out


def diff_files(p1, p2):
    """
    >>> for name, doc in (("v1.json", {"x": 1}), ("v2.json", {"x": 2, "y": None})):
    ...     with open(name, "w") as f:
    ...         json.dump(doc, f)
    >>> diff_files("v1.json", "v2.json")
    ['~ x: 1 -> 2', '+ y: null']
    """
    with open(p1) as f1, open(p2) as f2:
        return diff(json.load(f1), json.load(f2))


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
