# ruff: noqa
import json
import logging
import os
import unittest


class JsonFormatter(logging.Formatter):
    def format(self, record):
        payload = {"level": record.levelname, "logger": record.name, "msg": record.getMessage()}
        for key in ("user", "action"):
            if hasattr(record, key):
                payload[key] = getattr(record, key)
        return json.dumps(payload, sort_keys=True)


def audit_logger(path="audit.jsonl"):
    logger = logging.getLogger("audit")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    for h in logger.handlers[:]:
        h.close()
        logger.removeHandler(h)
    handler = logging.FileHandler(path, mode="w")
    handler.setFormatter(JsonFormatter())
    logger.addHandler(handler)
    return logger


def read_audit(path="audit.jsonl"):
    with open(path) as f:
        return [json.loads(line) for line in f]


class AuditTest(unittest.TestCase):
    def test_extra_fields(self):
        log = audit_logger()
        log.info("deleted %d rows", 3, extra={"user": "ann", "action": "delete"})
        log.warning("login failed", extra={"user": "bob"})
        log.handlers[0].flush()
        entries = read_audit()
        self.assertEqual(entries[0], {"action": "delete", "level": "INFO", "logger": "audit", "msg": "deleted 3 rows", "user": "ann"})
        self.assertNotIn("action", entries[1])
        self.assertTrue(os.path.exists("audit.jsonl"))


if __name__ == "__main__":
    log = audit_logger()
    log.info("export", extra={"user": "demo", "action": "export"})
    log.handlers[0].close()
    for entry in read_audit():
        print(entry)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
