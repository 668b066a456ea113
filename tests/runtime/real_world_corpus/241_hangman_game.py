# ruff: noqa
import unittest


class Hangman:
    def __init__(self, word, lives=6):
        self.word, self.lives, self.guessed = word.lower(), lives, set()

    @property
    def masked(self):
        return " ".join(c if c in self.guessed else "_" for c in self.word)

    @property
    def status(self):
        if all(c in self.guessed for c in self.word):
            return "won"
        return "lost" if self.lives <= 0 else "playing"

    def guess(self, letter):
        letter = letter.lower()
        if len(letter) != 1 or not letter.isalpha():
            raise ValueError("guess one letter")
        if letter in self.guessed:
            return "already guessed"
        self.guessed.add(letter)
        if letter in self.word:
            return "hit"
        self.lives -= 1
        return "miss"


class HangmanTest(unittest.TestCase):
    def test_win(self):
        g = Hangman("Python")
        results = [g.guess(c) for c in "pyxthzon"]
        self.assertEqual(results, ["hit", "hit", "miss", "hit", "hit", "miss", "hit", "hit"])
        self.assertEqual((g.status, g.lives, g.masked), ("won", 4, "p y t h o n"))

    def test_lose(self):
        g = Hangman("a", lives=2)
        g.guess("b")
        g.guess("c")
        self.assertEqual(g.status, "lost")

    def test_invalid(self):
        with self.assertRaises(ValueError):
            Hangman("x").guess("ab")


if __name__ == "__main__":
    g = Hangman("sandbox")
    for c in "aeiosnd":
        g.guess(c)
        print(g.masked, g.lives)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
