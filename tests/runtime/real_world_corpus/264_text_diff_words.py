# ruff: noqa
import difflib


def word_diff(a, b):
    """
    >>> word_diff("the quick brown fox", "the slow brown dog jumps")
    'the [-quick-]{+slow+} brown [-fox-]{+dog jumps+}'
    >>> word_diff("same", "same")
    'same'
    """
    wa, wb = a.split(), b.split()
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, wa, wb).get_opcodes():
        if op == "equal":
            out.append(" ".join(wa[i1:i2]))
        else:
            part = ""
            if i2 > i1:
                part += "[-" + " ".join(wa[i1:i2]) + "-]"
            if j2 > j1:
                part += "{+" + " ".join(wb[j1:j2]) + "+}"
            out.append(part)
    return " ".join(out)


def close_matches(word, vocabulary):
    """
    >>> close_matches("pyhton", ["python", "java", "typhoon", "pylon"])
    ['python', 'pylon']
    """
    return difflib.get_close_matches(word, vocabulary, n=2)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
