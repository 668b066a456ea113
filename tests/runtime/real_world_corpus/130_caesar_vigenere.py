# ruff: noqa
import string


def caesar(text, shift):
    """
    >>> caesar("Hello, World!", 3)
    'Khoor, Zruog!'
    >>> caesar(caesar("Round trip", 11), -11)
    'Round trip'
    """
    lower, upper = string.ascii_lowercase, string.ascii_uppercase
    table = str.maketrans(lower + upper, lower[shift % 26:] + lower[:shift % 26] + upper[shift % 26:] + upper[:shift % 26])
    return text.translate(table)


def vigenere(text, key, decrypt=False):
    """
    >>> vigenere("ATTACKATDAWN", "LEMON")
    'LXFOPVEFRNHR'
    >>> vigenere("LXFOPVEFRNHR", "LEMON", decrypt=True)
    'ATTACKATDAWN'
    """
    out, i = [], 0
    for ch in text:
        if ch.isalpha():
            k = ord(key[i % len(key)].upper()) - 65
            base = 65 if ch.isupper() else 97
            out.append(chr((ord(ch) - base + (-k if decrypt else k)) % 26 + base))
            i += 1
        else:
            out.append(ch)
    return "".join(out)


def crack_caesar(ciphertext):
    """Guess the shift by assuming 'e' is the most common letter.

    >>> crack_caesar(caesar("the eagle flies at three, keep the secret between the trees", 7))
    7
    """
    letters = [c for c in ciphertext.lower() if c.isalpha()]
    most = max(sorted(set(letters)), key=letters.count)
    return (ord(most) - ord("e")) % 26


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
