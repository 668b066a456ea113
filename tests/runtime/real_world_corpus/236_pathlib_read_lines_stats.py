# ruff: noqa
import unittest
from pathlib import Path


def tail(path, n=3):
    return Path(path).read_text().splitlines()[-n:]


def head(path, n=3):
    with Path(path).open() as f:
        return [next(f).rstrip("\n") for _ in range(n)]


def grep_count(folder, needle):
    return {p.name: p.read_text().count(needle) for p in sorted(Path(folder).glob("*.log"))}


class LinesTest(unittest.TestCase):
    def setUp(self):
        Path("var").mkdir(exist_ok=True)
        Path("var/app.log").write_text("".join(f"line {i} {'ERROR' if i % 4 == 0 else 'ok'}\n" for i in range(1, 11)))
        Path("var/db.log").write_text("ERROR once\n")

    def test_head_tail(self):
        self.assertEqual(head("var/app.log", 2), ["line 1 ok", "line 2 ok"])
        self.assertEqual(tail("var/app.log", 2), ["line 9 ok", "line 10 ok"])

    def test_grep(self):
        self.assertEqual(grep_count("var", "ERROR"), {"app.log": 2, "db.log": 1})


if __name__ == "__main__":
    LinesTest("test_grep").setUp()
    print(tail("var/app.log"))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
