# ruff: noqa
import json
import os


def reformat(path, indent=2, sort_keys=True):
    """Reformat a JSON file in place; return True if it changed.

    >>> with open("messy.json", "w") as f:
    ...     _ = f.write('{"b":1,"a":{"y":[1,2],"x":null}}')
    >>> reformat("messy.json")
    True
    >>> print(open("messy.json").read(), end="")
    {
      "a": {
        "x": null,
        "y": [
          1,
          2
        ]
      },
      "b": 1
    }
    >>> reformat("messy.json")
    False
    """
    with open(path, encoding="utf-8") as f:
        original = f.read()
    pretty = json.dumps(json.loads(original), indent=indent, sort_keys=sort_keys, ensure_ascii=False) + "\n"
    if pretty == original:
        return False
    with open(path, "w", encoding="utf-8") as f:
        f.write(pretty)
    return True


def minify(path):
    """
    >>> with open("pretty.json", "w") as f:
    ...     json.dump({"b": 1, "a": {"x": None, "y": [1, 2]}}, f, indent=4)
    >>> minify("pretty.json")
    '{"b":1,"a":{"x":null,"y":[1,2]}}'
    >>> os.path.getsize("pretty.json") > 40
    True
    """
    with open(path, encoding="utf-8") as f:
        return json.dumps(json.load(f), separators=(",", ":"))


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
