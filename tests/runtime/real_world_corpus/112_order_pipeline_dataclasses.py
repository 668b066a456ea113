# ruff: noqa
import json
import unittest
from dataclasses import dataclass, field, asdict
from enum import Enum


class Status(str, Enum):
    NEW = "new"
    PAID = "paid"
    SHIPPED = "shipped"
    CANCELLED = "cancelled"


TRANSITIONS = {Status.NEW: {Status.PAID, Status.CANCELLED}, Status.PAID: {Status.SHIPPED, Status.CANCELLED}}


@dataclass
class Order:
    id: int
    items: dict
    status: Status = Status.NEW
    log: list = field(default_factory=list)

    def advance(self, new):
        new = Status(new)
        if new not in TRANSITIONS.get(self.status, set()):
            raise ValueError(f"order {self.id}: {self.status.value} -> {new.value} not allowed")
        self.log.append(f"{self.status.value}->{new.value}")
        self.status = new


def save(orders, path):
    with open(path, "w") as f:
        json.dump([asdict(o) for o in orders], f, sort_keys=True)


def load(path):
    with open(path) as f:
        return [Order(d["id"], d["items"], Status(d["status"]), d["log"]) for d in json.load(f)]


class OrderTest(unittest.TestCase):
    def test_flow(self):
        o = Order(1, {"pen": 2})
        o.advance("paid")
        o.advance(Status.SHIPPED)
        self.assertEqual(o.log, ["new->paid", "paid->shipped"])
        with self.assertRaises(ValueError):
            o.advance("cancelled")

    def test_round_trip(self):
        orders = [Order(1, {"a": 1}), Order(2, {"b": 2})]
        orders[1].advance("cancelled")
        save(orders, "orders.json")
        self.assertEqual(load("orders.json"), orders)


if __name__ == "__main__":
    o = Order(7, {"book": 1})
    for step in ["paid", "shipped", "new"]:
        try:
            o.advance(step)
            print("ok", o.status.value)
        except ValueError as e:
            print("error:", e)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
