# ruff: noqa
import json
import os
from dataclasses import dataclass, asdict, field
from datetime import date


@dataclass
class Todo:
    title: str
    due: date | None = None
    done: bool = False
    tags: list = field(default_factory=list)


class TodoFile:
    """
    >>> store = TodoFile("todos.json")
    >>> store.add(Todo("pay rent", date(2024, 7, 1), tags=["home"]))
    >>> store.add(Todo("book dentist"))
    >>> store.complete("pay rent")
    True
    >>> [(t.title, t.done, t.due) for t in TodoFile("todos.json").items]
    [('pay rent', True, datetime.date(2024, 7, 1)), ('book dentist', False, None)]
    >>> TodoFile("todos.json").overdue(date(2024, 8, 1))
    []
    >>> os.path.exists("todos.json")
    True
    """

    def __init__(self, path):
        self.path = path
        self.items = []
        if os.path.exists(path):
            with open(path) as f:
                for d in json.load(f):
                    d["due"] = date.fromisoformat(d["due"]) if d["due"] else None
                    self.items.append(Todo(**d))

    def save(self):
        with open(self.path, "w") as f:
            json.dump([{**asdict(t), "due": t.due.isoformat() if t.due else None} for t in self.items], f, indent=1)

    def add(self, todo):
        self.items.append(todo)
        self.save()

    def complete(self, title):
        for t in self.items:
            if t.title == title:
                t.done = True
                self.save()
                return True
        return False

    def overdue(self, today):
        return [t.title for t in self.items if t.due and not t.done and t.due < today]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
