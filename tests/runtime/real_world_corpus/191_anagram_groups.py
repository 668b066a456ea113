# ruff: noqa
from collections import defaultdict


def group_anagrams(words):
    """
    >>> group_anagrams(["listen", "silent", "enlist", "google", "gooegl", "cat", "act", "tac", "dog"])
    [['act', 'cat', 'tac'], ['dog'], ['enlist', 'listen', 'silent'], ['gooegl', 'google']]
    """
    groups = defaultdict(list)
    for w in words:
        groups["".join(sorted(w.lower()))].append(w)
    return sorted(sorted(g) for g in groups.values())


def is_palindrome(text):
    """
    >>> [is_palindrome(s) for s in ("A man, a plan, a canal: Panama", "race a car", "")]
    [True, False, True]
    """
    cleaned = [c.lower() for c in text if c.isalnum()]
    return cleaned == cleaned[::-1]


def longest_common_prefix(words):
    """
    >>> longest_common_prefix(["interview", "internet", "interval"])
    'inter'
    >>> longest_common_prefix(["a", "b"])
    ''
    """
    if not words:
        return ""
    prefix = min(words)
    last = max(words)
    i = 0
    while i < len(prefix) and prefix[i] == last[i]:
        i += 1
    return prefix[:i]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
