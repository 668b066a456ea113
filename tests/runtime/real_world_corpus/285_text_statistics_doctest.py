# ruff: noqa
import re


def sentences(text):
    """
    >>> sentences("Hi there. How are you? I'm fine! Thanks.")
    ['Hi there.', 'How are you?', "I'm fine!", 'Thanks.']
    """
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s.strip()]


def syllables(word):
    """Rough English syllable count.

    >>> [syllables(w) for w in ("cat", "table", "beautiful", "the", "reading")]
    [1, 2, 3, 1, 2]
    """
    word = word.lower()
    groups = re.findall(r"[aeiouy]+", word)
    count = len(groups)
    if word.endswith("e") and not word.endswith("le") and count > 1:
        count -= 1
    return max(count, 1)


def flesch(text):
    """Flesch reading ease (rounded).

    >>> flesch("The cat sat on the mat. It was happy.")
    108.3
    """
    sents = sentences(text)
    words = re.findall(r"[A-Za-z']+", text)
    syl = sum(syllables(w) for w in words)
    return round(206.835 - 1.015 * len(words) / len(sents) - 84.6 * syl / len(words), 1)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
