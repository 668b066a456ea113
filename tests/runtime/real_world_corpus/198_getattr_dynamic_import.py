# ruff: noqa
import importlib


def resolve(dotted):
    """Resolve 'module:attr.sub' or 'module.attr' strings to objects.

    >>> resolve("math:pi")
    3.141592653589793
    >>> resolve("json:dumps")({"a": 1})
    '{"a": 1}'
    >>> resolve("collections.OrderedDict").__name__
    'OrderedDict'
    >>> resolve("os.path:join")("a", "b")
    'a/b'
    >>> resolve("string:ascii_lowercase")[:5]
    'abcde'
    >>> resolve("math:nope")
    Traceback (most recent call last):
    ...
    AttributeError: module 'math' has no attribute 'nope'
    """
    if ":" in dotted:
        module_name, attr_path = dotted.split(":", 1)
    else:
        module_name, _, attr_path = dotted.rpartition(".")
    obj = importlib.import_module(module_name)
    for part in attr_path.split("."):
        obj = getattr(obj, part)
    return obj


def call_all(specs, value):
    """
    >>> call_all(["builtins:len", "builtins:sorted", "textwrap:dedent"], "  b a")
    [5, [' ', ' ', ' ', 'a', 'b'], 'b a']
    """
    return [resolve(s)(value) for s in specs]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
