# ruff: noqa
import textwrap


def justify(text, width):
    """Fully justify text (last line left-aligned).

    >>> for line in justify("This is an example of text justification done by hand.", 16):
    ...     print(f"|{line}|")
    |This    is    an|
    |example  of text|
    |justification   |
    |done by hand.   |
    """
    words, lines, current = text.split(), [], []
    for word in words:
        if current and len(" ".join(current + [word])) > width:
            lines.append(current)
            current = []
        current.append(word)
    out = []
    for line in lines:
        if len(line) == 1:
            out.append(line[0].ljust(width))
            continue
        gaps, spaces = len(line) - 1, width - sum(map(len, line))
        s = ""
        for i, w in enumerate(line[:-1]):
            s += w + " " * (spaces // gaps + (i < spaces % gaps))
        out.append(s + line[-1])
    out.append(" ".join(current).ljust(width))
    return out


def wrap_paragraphs(text, width=30, indent="  "):
    """
    >>> print(wrap_paragraphs("First paragraph is long enough to wrap around.\\n\\nSecond one.", 24))
      First paragraph is
    long enough to wrap
    around.
    <BLANKLINE>
      Second one.
    """
    paras = [p.strip() for p in text.split("\n\n")]
    return "\n\n".join(textwrap.fill(p, width, initial_indent=indent) for p in paras)


def shorten(text, width):
    """
    >>> shorten("The quick brown fox jumps over the lazy dog", 25)
    'The quick brown fox [...]'
    """
    return textwrap.shorten(text, width)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
