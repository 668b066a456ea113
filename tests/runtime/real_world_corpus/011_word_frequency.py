# ruff: noqa
import re
from collections import Counter


def tokenize(text):
    """Split text into lowercase words.

    >>> tokenize("Hello, world! Hello again.")
    ['hello', 'world', 'hello', 'again']
    >>> tokenize("It's a dog's life")
    ["it's", 'a', "dog's", 'life']
    """
    return re.findall(r"[a-z]+(?:'[a-z]+)?", text.lower())


def top_words(text, n=3, stopwords=frozenset({"the", "a", "and", "of"})):
    """Return the *n* most common words, ties broken alphabetically.

    >>> top_words("the cat and the hat and the bat sat on the mat with a cat")
    [('cat', 2), ('bat', 1), ('hat', 1)]
    >>> top_words("")
    []
    """
    counts = Counter(w for w in tokenize(text) if w not in stopwords)
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def word_file_stats(path):
    """
    >>> with open("poem.txt", "w") as f:
    ...     _ = f.write("Roses are red\\nViolets are blue\\n\\nSugar is sweet\\n")
    >>> word_file_stats("poem.txt")
    {'lines': 4, 'words': 9, 'unique': 8, 'longest': 'violets'}
    """
    with open(path) as f:
        text = f.read()
    words = tokenize(text)
    return {
        "lines": text.count("\n"),
        "words": len(words),
        "unique": len(set(words)),
        "longest": max(words, key=lambda w: (len(w), w)) if words else "",
    }


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
