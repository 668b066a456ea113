# ruff: noqa
import string
import unittest
from collections import deque


def ladder(start, goal, words):
    words = set(words)
    if goal not in words:
        return None
    queue, parents = deque([start]), {start: None}
    while queue:
        word = queue.popleft()
        if word == goal:
            path = []
            while word:
                path.append(word)
                word = parents[word]
            return path[::-1]
        for i in range(len(word)):
            for ch in string.ascii_lowercase:
                nxt = word[:i] + ch + word[i + 1:]
                if nxt in words and nxt not in parents:
                    parents[nxt] = word
                    queue.append(nxt)
    return None


class LadderTest(unittest.TestCase):
    WORDS = ["hot", "dot", "dog", "lot", "log", "cog"]

    def test_path(self):
        self.assertEqual(ladder("hit", "cog", self.WORDS), ["hit", "hot", "dot", "dog", "cog"])

    def test_none(self):
        self.assertIsNone(ladder("hit", "cog", ["hot", "dot"]))


if __name__ == "__main__":
    print(" -> ".join(ladder("cold", "warm", ["cord", "card", "ward", "warm", "worm", "word", "wore", "core"])))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
