# ruff: noqa
import unittest
from collections import deque


class BoundedQueue:
    def __init__(self, maxlen):
        self._items = deque(maxlen=maxlen)
        self.dropped = 0

    def push(self, item):
        if len(self._items) == self._items.maxlen:
            self.dropped += 1
        self._items.append(item)

    def pop(self):
        return self._items.popleft()

    def __len__(self):
        return len(self._items)

    def __repr__(self):
        return f"{self.__class__.__name__}({list(self._items)}, dropped={self.dropped})"


class QueueTest(unittest.TestCase):
    def test_drop_oldest(self):
        q = BoundedQueue(3)
        for i in range(5):
            q.push(i)
        self.assertEqual(repr(q), "BoundedQueue([2, 3, 4], dropped=2)")
        self.assertEqual(q.pop(), 2)
        self.assertEqual(len(q), 2)

    def test_empty_pop(self):
        with self.assertRaises(IndexError):
            BoundedQueue(1).pop()


if __name__ == "__main__":
    q = BoundedQueue(2)
    for word in "to be or not".split():
        q.push(word)
    print(q)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
