# ruff: noqa
import enum


class Color(enum.Enum):
    RED = "#ff0000"
    GREEN = "#00ff00"
    BLUE = "#0000ff"


def parse_colors(names):
    """Look members up by name (getattr) or by value.

    >>> parse_colors(["red", "Blue", "#00ff00"])
    [<Color.RED: '#ff0000'>, <Color.BLUE: '#0000ff'>, <Color.GREEN: '#00ff00'>]
    >>> parse_colors(["purple"])
    Traceback (most recent call last):
    ...
    ValueError: unknown colour 'purple'
    """
    out = []
    for n in names:
        member = getattr(Color, n.upper(), None)
        if member is None:
            try:
                member = Color(n)
            except ValueError:
                raise ValueError(f"unknown colour {n!r}") from None
        out.append(member)
    return out


def mix(names):
    """
    >>> mix(["red", "blue"])
    '#ff00ff'
    """
    total = [0, 0, 0]
    for c in parse_colors(names):
        for i in range(3):
            total[i] = min(255, total[i] + int(c.value[1 + 2 * i: 3 + 2 * i], 16))
    return "#" + "".join(f"{v:02x}" for v in total)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
