# ruff: noqa
import logging
import os
import unittest


def per_component_logs(components, folder="logs"):
    os.makedirs(folder, exist_ok=True)
    loggers = {}
    for comp in components:
        log = logging.getLogger(f"app.{comp}")
        log.handlers[:] = []
        h = logging.FileHandler(os.path.join(folder, f"{comp}.log"), mode="w")
        h.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
        log.addHandler(h)
        log.setLevel(logging.INFO)
        log.propagate = False
        loggers[comp] = log
    return loggers


def close_all(loggers):
    for log in loggers.values():
        for h in log.handlers:
            h.close()


class PerComponentTest(unittest.TestCase):
    def test_separate_files(self):
        loggers = per_component_logs(["db", "web"])
        loggers["db"].info("connected")
        loggers["web"].warning("slow request")
        loggers["web"].info("served")
        close_all(loggers)
        self.assertEqual(sorted(os.listdir("logs")), ["db.log", "web.log"])
        with open("logs/web.log") as f:
            self.assertEqual(f.read().splitlines(), ["WARNING slow request", "INFO served"])


if __name__ == "__main__":
    loggers = per_component_logs(["auth"], folder="var/log")
    loggers["auth"].info("user ann logged in")
    close_all(loggers)
    print(open(os.path.join("var", "log", "auth.log")).read(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
