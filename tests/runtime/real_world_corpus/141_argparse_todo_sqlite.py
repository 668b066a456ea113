# ruff: noqa
import argparse
import sqlite3
import unittest


def connect(path="todo.db"):
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE IF NOT EXISTS todo (id INTEGER PRIMARY KEY, text TEXT, done INTEGER DEFAULT 0)")
    return conn


def main(argv, path="todo.db"):
    p = argparse.ArgumentParser(prog="todo")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("add").add_argument("text", nargs="+")
    sub.add_parser("done").add_argument("id", type=int)
    ls = sub.add_parser("ls")
    ls.add_argument("--all", action="store_true")
    args = p.parse_args(argv)
    with connect(path) as conn:
        if args.cmd == "add":
            cur = conn.execute("INSERT INTO todo (text) VALUES (?)", (" ".join(args.text),))
            return [f"#{cur.lastrowid} added"]
        if args.cmd == "done":
            n = conn.execute("UPDATE todo SET done = 1 WHERE id = ?", (args.id,)).rowcount
            return [f"#{args.id} done" if n else f"#{args.id} not found"]
        where = "" if args.all else "WHERE done = 0"
        return [f"[{'x' if d else ' '}] {i} {t}" for i, t, d in conn.execute(f"SELECT id, text, done FROM todo {where} ORDER BY id")]


class TodoCliTest(unittest.TestCase):
    def test_flow(self):
        db = "test_todo.db"
        self.assertEqual(main(["add", "buy", "milk"], db), ["#1 added"])
        main(["add", "walk dog"], db)
        self.assertEqual(main(["done", "1"], db), ["#1 done"])
        self.assertEqual(main(["done", "9"], db), ["#9 not found"])
        self.assertEqual(main(["ls"], db), ["[ ] 2 walk dog"])
        self.assertEqual(main(["ls", "--all"], db), ["[x] 1 buy milk", "[ ] 2 walk dog"])


if __name__ == "__main__":
    for argv in (["add", "write", "report"], ["add", "email"], ["done", "2"], ["ls", "--all"]):
        print("\n".join(main(argv)))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
