# ruff: noqa
import json
from dataclasses import dataclass, field, asdict


@dataclass
class Node:
    name: str
    children: list = field(default_factory=list)

    def add(self, *names):
        for n in names:
            self.children.append(Node(n))
        return self.children[-1]

    def find(self, name):
        if self.name == name:
            return self
        for c in self.children:
            hit = c.find(name)
            if hit:
                return hit
        return None

    def depth(self):
        return 1 + max((c.depth() for c in self.children), default=0)


def from_dict(d):
    return Node(d["name"], [from_dict(c) for c in d["children"]])


def demo():
    """
    >>> root = Node("root")
    >>> _ = root.add("etc", "usr")
    >>> _ = root.find("usr").add("bin", "lib")
    >>> _ = root.find("lib").add("python3.13")
    >>> root.depth()
    4
    >>> text = json.dumps(asdict(root))
    >>> len(text)
    198
    >>> from_dict(json.loads(text)) == root
    True
    >>> [c.name for c in root.find("usr").children]
    ['bin', 'lib']
    """


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
