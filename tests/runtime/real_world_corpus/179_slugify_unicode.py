# ruff: noqa
import re
import unicodedata


def slugify(text, max_len=50):
    """
    >>> slugify("Crème Brûlée — the Recipe!")
    'creme-brulee-the-recipe'
    >>> slugify("  Ünïcödé   ---  Ståff  ")
    'unicode-staff'
    >>> slugify("a" * 60)[-3:], len(slugify("a" * 60))
    ('aaa', 50)
    >>> slugify("日本語")
    ''
    """
    normalized = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", normalized.lower()).strip("-")
    return slug[:max_len].rstrip("-")


def char_names(text):
    """
    >>> char_names("é€")
    ['LATIN SMALL LETTER E WITH ACUTE', 'EURO SIGN']
    """
    return [unicodedata.name(c, "?") for c in text]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
