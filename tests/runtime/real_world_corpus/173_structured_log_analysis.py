# ruff: noqa
import json
import logging
import unittest
from collections import Counter


class JsonLines(logging.Formatter):
    def format(self, record):
        return json.dumps({"lvl": record.levelname, "msg": record.getMessage(), "status": getattr(record, "status", None)})


def emit(path):
    log = logging.getLogger("api.access")
    log.handlers[:] = []
    h = logging.FileHandler(path, mode="w")
    h.setFormatter(JsonLines())
    log.addHandler(h)
    log.setLevel(logging.INFO)
    log.propagate = False
    for i, status in enumerate([200, 200, 404, 500, 200, 503, 301]):
        level = logging.ERROR if status >= 500 else logging.INFO
        log.log(level, "request %d", i, extra={"status": status})
    h.close()


def analyse(path):
    with open(path) as f:
        entries = [json.loads(l) for l in f]
    by_class = Counter(f"{e['status'] // 100}xx" for e in entries)
    return {"total": len(entries), "errors": sum(e["lvl"] == "ERROR" for e in entries), "classes": dict(sorted(by_class.items()))}


class AnalysisTest(unittest.TestCase):
    def test_analyse(self):
        emit("access.jsonl")
        self.assertEqual(analyse("access.jsonl"), {"total": 7, "errors": 2, "classes": {"2xx": 3, "3xx": 1, "4xx": 1, "5xx": 2}})


if __name__ == "__main__":
    emit("access.jsonl")
    print(analyse("access.jsonl"))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
