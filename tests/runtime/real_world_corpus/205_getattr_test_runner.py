# ruff: noqa
import unittest


class Checks:
    """A mini test runner: every check_* method is found with dir() and called with getattr."""

    def check_addition(self):
        assert 1 + 1 == 2

    def check_strings(self):
        assert "abc".upper() == "ABC"

    def check_broken(self):
        assert [] == [0], "lists differ"

    def check_error(self):
        return {}["missing"]


def run_checks(obj):
    results = {}
    for name in sorted(n for n in dir(obj) if n.startswith("check_")):
        try:
            getattr(obj, name)()
            results[name] = "ok"
        except AssertionError as e:
            results[name] = f"FAIL: {e}"
        except Exception as e:
            results[name] = f"ERROR: {type(e).__name__}"
    return results


class RunnerTest(unittest.TestCase):
    def test_results(self):
        self.assertEqual(run_checks(Checks()), {
            "check_addition": "ok", "check_broken": "FAIL: lists differ",
            "check_error": "ERROR: KeyError", "check_strings": "ok"})


if __name__ == "__main__":
    for name, outcome in run_checks(Checks()).items():
        print(f"{name:<16}{outcome}")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
