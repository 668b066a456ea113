# ruff: noqa
class Node:
    __slots__ = ("value", "next")

    def __init__(self, value, next=None):
        self.value, self.next = value, next


class LinkedList:
    """
    >>> ll = LinkedList([3, 1, 4, 1, 5])
    >>> ll
    LinkedList([3, 1, 4, 1, 5])
    >>> len(ll), 4 in ll, 9 in ll
    (5, True, False)
    >>> ll.reverse(); ll
    LinkedList([5, 1, 4, 1, 3])
    >>> ll.remove(1); ll
    LinkedList([5, 4, 1, 3])
    >>> ll.remove(42)
    Traceback (most recent call last):
    ...
    ValueError: 42 not in list
    >>> ll.push_front(0); list(ll)
    [0, 5, 4, 1, 3]
    """

    def __init__(self, values=()):
        self.head = None
        for v in reversed(list(values)):
            self.push_front(v)

    def push_front(self, value):
        self.head = Node(value, self.head)

    def __iter__(self):
        node = self.head
        while node:
            yield node.value
            node = node.next

    def __len__(self):
        return sum(1 for _ in self)

    def __repr__(self):
        return f"{self.__class__.__name__}({list(self)})"

    def reverse(self):
        prev, node = None, self.head
        while node:
            node.next, prev, node = prev, node, node.next
        self.head = prev

    def remove(self, value):
        prev, node = None, self.head
        while node:
            if node.value == value:
                if prev:
                    prev.next = node.next
                else:
                    self.head = node.next
                return
            prev, node = node, node.next
        raise ValueError(f"{value} not in list")


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
