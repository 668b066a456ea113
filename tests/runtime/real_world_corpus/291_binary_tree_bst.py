# ruff: noqa
import unittest
from dataclasses import dataclass


@dataclass
class Node:
    key: int
    left: "Node | None" = None
    right: "Node | None" = None


class BST:
    def __init__(self, keys=()):
        self.root = None
        for k in keys:
            self.insert(k)

    def insert(self, key):
        if self.root is None:
            self.root = Node(key)
            return
        node = self.root
        while True:
            attr = "left" if key < node.key else "right"
            child = getattr(node, attr)
            if child is None:
                setattr(node, attr, Node(key))
                return
            node = child

    def inorder(self, node="root"):
        node = self.root if node == "root" else node
        return [] if node is None else self.inorder(node.left) + [node.key] + self.inorder(node.right)

    def height(self, node="root"):
        node = self.root if node == "root" else node
        return 0 if node is None else 1 + max(self.height(node.left), self.height(node.right))


class BSTTest(unittest.TestCase):
    def test_sorted(self):
        t = BST([50, 30, 70, 20, 40, 60, 80, 35])
        self.assertEqual(t.inorder(), [20, 30, 35, 40, 50, 60, 70, 80])
        self.assertEqual(t.height(), 4)

    def test_empty(self):
        self.assertEqual((BST().inorder(), BST().height()), ([], 0))


if __name__ == "__main__":
    t = BST([5, 3, 8, 1, 4])
    print(t.inorder(), t.height())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
