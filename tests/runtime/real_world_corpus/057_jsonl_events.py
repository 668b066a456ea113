# ruff: noqa
"""Append-only event log in JSON Lines format.

>>> log = EventLog("events.jsonl")
>>> for e in [{"type": "login", "user": "ann"}, {"type": "view", "user": "ann", "page": "/"},
...           {"type": "login", "user": "bob"}, {"type": "logout", "user": "ann"}]:
...     log.append(e)
>>> len(list(log))
4
>>> log.count_by("type")
{'login': 2, 'logout': 1, 'view': 1}
>>> [e["seq"] for e in log.filter(user="ann")]
[1, 2, 4]
>>> with open("events.jsonl", "a") as f:
...     _ = f.write("{broken\\n")
>>> len(list(log)), log.skipped
(4, 1)
"""
import json


class EventLog:
    def __init__(self, path):
        self.path = path
        self.seq = 0
        self.skipped = 0
        open(path, "w").close()

    def append(self, event):
        self.seq += 1
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps({"seq": self.seq, **event}, sort_keys=True) + "\n")

    def __iter__(self):
        self.skipped = 0
        with open(self.path, encoding="utf-8") as f:
            for line in f:
                try:
                    yield json.loads(line)
                except json.JSONDecodeError:
                    self.skipped += 1

    def count_by(self, field):
        counts = {}
        for e in self:
            counts[e.get(field)] = counts.get(e.get(field), 0) + 1
        return dict(sorted(counts.items()))

    def filter(self, **criteria):
        return [e for e in self if all(e.get(k) == v for k, v in criteria.items())]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
