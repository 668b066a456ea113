# ruff: noqa
import argparse
import json
import os
import unittest

DB = "stock.json"


def load():
    if os.path.exists(DB):
        with open(DB) as f:
            return json.load(f)
    return {}


def save(stock):
    with open(DB, "w") as f:
        json.dump(stock, f, sort_keys=True)


def run(argv):
    parser = argparse.ArgumentParser(prog="stock")
    sub = parser.add_subparsers(dest="cmd", required=True)
    add = sub.add_parser("add")
    add.add_argument("item")
    add.add_argument("qty", type=int)
    take = sub.add_parser("take")
    take.add_argument("item")
    take.add_argument("qty", type=int, nargs="?", default=1)
    sub.add_parser("show")
    args = parser.parse_args(argv)
    stock = load()
    if args.cmd == "add":
        stock[args.item] = stock.get(args.item, 0) + args.qty
    elif args.cmd == "take":
        have = stock.get(args.item, 0)
        if have < args.qty:
            return f"error: only {have} {args.item}"
        stock[args.item] = have - args.qty
        if not stock[args.item]:
            del stock[args.item]
    else:
        return ", ".join(f"{k}={v}" for k, v in sorted(stock.items())) or "empty"
    save(stock)
    return "ok"


class StockCliTest(unittest.TestCase):
    def setUp(self):
        if os.path.exists(DB):
            os.remove(DB)

    def test_sequence(self):
        self.assertEqual(run(["show"]), "empty")
        self.assertEqual(run(["add", "nails", "50"]), "ok")
        self.assertEqual(run(["add", "screws", "20"]), "ok")
        self.assertEqual(run(["take", "nails", "45"]), "ok")
        self.assertEqual(run(["take", "screws", "21"]), "error: only 20 screws")
        self.assertEqual(run(["show"]), "nails=5, screws=20")
        with open(DB) as f:
            self.assertEqual(json.load(f), {"nails": 5, "screws": 20})

    def test_take_default_removes_item(self):
        run(["add", "glue", "1"])
        run(["take", "glue"])
        self.assertEqual(load(), {})


if __name__ == "__main__":
    for argv in (["add", "tape", "3"], ["add", "rope", "2"], ["take", "tape"], ["show"]):
        print(" ".join(argv), "=>", run(argv))
    os.remove(DB)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
