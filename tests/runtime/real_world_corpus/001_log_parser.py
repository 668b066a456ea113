# ruff: noqa
"""Parse an access log written to the working directory and summarise it."""
import re
import unittest
from collections import Counter

LOG_LINE = re.compile(
    r'(?P<ip>\d+\.\d+\.\d+\.\d+) - - \[(?P<ts>[^\]]+)\] "(?P<method>\w+) (?P<path>\S+) HTTP/1\.\d" (?P<status>\d{3}) (?P<size>\d+)'
)

SAMPLE = """\
10.0.0.1 - - [10/Mar/2024:13:55:36 +0000] "GET /index.html HTTP/1.1" 200 512
10.0.0.2 - - [10/Mar/2024:13:55:40 +0000] "GET /about HTTP/1.1" 404 128
10.0.0.1 - - [10/Mar/2024:13:56:01 +0000] "POST /api/login HTTP/1.1" 200 64
garbage line that should be skipped
10.0.0.3 - - [10/Mar/2024:13:57:12 +0000] "GET /index.html HTTP/1.1" 500 0
"""


def parse_log(path):
    entries = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            m = LOG_LINE.match(line.strip())
            if m:
                d = m.groupdict()
                d["status"] = int(d["status"])
                d["size"] = int(d["size"])
                entries.append(d)
    return entries


def summarise(entries):
    by_status = Counter(e["status"] for e in entries)
    by_path = Counter(e["path"] for e in entries)
    return {
        "requests": len(entries),
        "bytes": sum(e["size"] for e in entries),
        "errors": sum(1 for e in entries if e["status"] >= 400),
        "top_path": by_path.most_common(1)[0][0] if entries else None,
        "by_status": dict(sorted(by_status.items())),
    }


class TestLogParser(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open("access.log", "w", encoding="utf-8") as fh:
            fh.write(SAMPLE)

    def test_parse_skips_garbage(self):
        self.assertEqual(len(parse_log("access.log")), 4)

    def test_summary(self):
        s = summarise(parse_log("access.log"))
        self.assertEqual(s["requests"], 4)
        self.assertEqual(s["bytes"], 704)
        self.assertEqual(s["errors"], 2)
        self.assertEqual(s["top_path"], "/index.html")
        self.assertEqual(s["by_status"], {200: 2, 404: 1, 500: 1})

    def test_empty(self):
        self.assertEqual(summarise([])["top_path"], None)


if __name__ == "__main__":
    with open("access.log", "w", encoding="utf-8") as fh:
        fh.write(SAMPLE)
    print(summarise(parse_log("access.log")))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
