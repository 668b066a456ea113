# ruff: noqa
import argparse
import unittest

COMMITS = [
    ("a1f", "ann", "2024-05-01", "feat: add login"),
    ("b2e", "bob", "2024-05-02", "fix: crash on empty cart"),
    ("c3d", "ann", "2024-05-03", "docs: readme"),
    ("d4c", "cy", "2024-05-03", "feat: dark mode"),
    ("e5b", "bob", "2024-05-04", "fix: typo"),
]


def parse(argv):
    p = argparse.ArgumentParser(prog="log")
    p.add_argument("--author", action="append", default=[])
    p.add_argument("--since")
    p.add_argument("--grep")
    p.add_argument("-n", "--max-count", type=int)
    p.add_argument("--oneline", action="store_true")
    return p.parse_args(argv)


def log(argv):
    a = parse(argv)
    out = []
    for sha, who, day, msg in reversed(COMMITS):
        if a.author and who not in a.author:
            continue
        if a.since and day < a.since:
            continue
        if a.grep and a.grep not in msg:
            continue
        out.append(f"{sha} {msg}" if a.oneline else f"{sha} {day} {who}: {msg}")
    return out[: a.max_count] if a.max_count else out


class LogTest(unittest.TestCase):
    def test_filters(self):
        self.assertEqual(log(["--oneline", "--grep", "fix"]), ["e5b fix: typo", "b2e fix: crash on empty cart"])
        self.assertEqual(log(["--author", "ann", "--author", "cy", "-n", "2", "--oneline"]), ["d4c feat: dark mode", "c3d docs: readme"])
        self.assertEqual(len(log(["--since", "2024-05-03"])), 3)


if __name__ == "__main__":
    print("\n".join(log(["--since", "2024-05-02", "--author", "bob"])))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
