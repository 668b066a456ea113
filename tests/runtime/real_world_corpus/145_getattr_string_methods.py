# ruff: noqa
def transform(text, steps):
    """Apply str methods named in *steps* ('name' or 'name:arg1:arg2').

    >>> transform("  Hello World  ", ["strip", "lower", "replace:world:there", "center:15:*"])
    '**hello there**'
    >>> transform("a-b-c", ["split:-", "__len__"])
    Traceback (most recent call last):
    ...
    ValueError: step 'split:-' did not return a string
    >>> transform("abc", ["zfill:6", "upper"])
    '000ABC'
    >>> transform("x", ["format_map"])
    Traceback (most recent call last):
    ...
    ValueError: step 'format_map' is not allowed
    """
    allowed = {"strip", "lower", "upper", "title", "replace", "center", "zfill", "split", "swapcase", "removeprefix"}
    for step in steps:
        name, *args = step.split(":")
        if name not in allowed:
            raise ValueError(f"step {step!r} is not allowed")
        method = getattr(text, name)
        args = [int(a) if a.isdigit() else a for a in args]
        text = method(*args)
        if not isinstance(text, str):
            raise ValueError(f"step {step!r} did not return a string")
    return text


def describe():
    """
    >>> [(n, getattr("Hi there", n)()) for n in ("isalpha", "istitle", "isascii")]
    [('isalpha', False), ('istitle', False), ('isascii', True)]
    """


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
