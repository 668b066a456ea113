# ruff: noqa
import heapq
import unittest
from dataclasses import dataclass, field


@dataclass
class Graph:
    edges: dict = field(default_factory=dict)

    def connect(self, a, b, km):
        self.edges.setdefault(a, {})[b] = km
        self.edges.setdefault(b, {})[a] = km

    def shortest(self, start, goal):
        queue, seen = [(0, start, [start])], set()
        while queue:
            dist, node, path = heapq.heappop(queue)
            if node == goal:
                return dist, path
            if node in seen:
                continue
            seen.add(node)
            for nxt, km in sorted(self.edges.get(node, {}).items()):
                if nxt not in seen:
                    heapq.heappush(queue, (dist + km, nxt, path + [nxt]))
        return None


class RouteTest(unittest.TestCase):
    def setUp(self):
        self.g = Graph()
        for a, b, km in [("A", "B", 7), ("A", "C", 9), ("A", "F", 14), ("B", "C", 10), ("B", "D", 15),
                         ("C", "D", 11), ("C", "F", 2), ("D", "E", 6), ("E", "F", 9)]:
            self.g.connect(a, b, km)

    def test_dijkstra(self):
        self.assertEqual(self.g.shortest("A", "E"), (20, ["A", "C", "F", "E"]))

    def test_unreachable(self):
        self.g.connect("X", "Y", 1)
        self.assertIsNone(self.g.shortest("A", "X"))


if __name__ == "__main__":
    t = RouteTest("test_dijkstra")
    t.setUp()
    for goal in "BCDEF":
        print("A ->", goal, t.g.shortest("A", goal))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
