# ruff: noqa
import json
import unittest
from dataclasses import dataclass, asdict


@dataclass(frozen=True)
class Deposited:
    amount: int


@dataclass(frozen=True)
class Withdrawn:
    amount: int


@dataclass(frozen=True)
class Renamed:
    name: str


EVENT_TYPES = {cls.__name__: cls for cls in (Deposited, Withdrawn, Renamed)}


class Account:
    def __init__(self):
        self.balance, self.name = 0, "unnamed"

    def apply(self, event):
        getattr(self, "on_" + type(event).__name__.lower())(event)
        return self

    def on_deposited(self, e):
        self.balance += e.amount

    def on_withdrawn(self, e):
        self.balance -= e.amount

    def on_renamed(self, e):
        self.name = e.name


def save(events, path):
    with open(path, "w") as f:
        for e in events:
            f.write(json.dumps({"type": type(e).__name__, **asdict(e)}) + "\n")


def load(path):
    with open(path) as f:
        return [EVENT_TYPES[d.pop("type")](**d) for d in map(json.loads, f)]


class EventTest(unittest.TestCase):
    EVENTS = [Deposited(100), Renamed("savings"), Withdrawn(30), Deposited(5)]

    def test_replay(self):
        acct = Account()
        for e in self.EVENTS:
            acct.apply(e)
        self.assertEqual((acct.name, acct.balance), ("savings", 75))

    def test_store_round_trip(self):
        save(self.EVENTS, "events.jsonl")
        self.assertEqual(load("events.jsonl"), self.EVENTS)


if __name__ == "__main__":
    save(EventTest.EVENTS, "events.jsonl")
    acct = Account()
    for e in load("events.jsonl"):
        print(e, "->", acct.apply(e).balance)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
