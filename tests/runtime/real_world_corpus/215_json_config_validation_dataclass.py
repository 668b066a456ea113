# ruff: noqa
import json
import os
import unittest
from dataclasses import dataclass


@dataclass
class RetryPolicy:
    attempts: int = 3
    backoff: float = 0.5
    retry_on: tuple = (500, 502, 503)

    def validate(self):
        errors = []
        if not 1 <= self.attempts <= 10:
            errors.append("attempts must be 1..10")
        if self.backoff < 0:
            errors.append("backoff must be >= 0")
        if any(not 400 <= c < 600 for c in self.retry_on):
            errors.append("retry_on must be HTTP error codes")
        return errors

    def delays(self):
        return [round(self.backoff * 2 ** i, 3) for i in range(self.attempts - 1)]


def load_policy(path):
    with open(path) as f:
        raw = json.load(f)
    policy = RetryPolicy(**{**raw, "retry_on": tuple(raw.get("retry_on", RetryPolicy.retry_on))})
    return policy, policy.validate()


class PolicyTest(unittest.TestCase):
    def write(self, data):
        with open("retry.json", "w") as f:
            json.dump(data, f)
        return "retry.json"

    def test_valid(self):
        p, errors = load_policy(self.write({"attempts": 4, "backoff": 0.25}))
        self.assertEqual(errors, [])
        self.assertEqual(p.delays(), [0.25, 0.5, 1.0])

    def test_invalid(self):
        _, errors = load_policy(self.write({"attempts": 0, "backoff": -1, "retry_on": [200]}))
        self.assertEqual(len(errors), 3)

    def tearDown(self):
        if os.path.exists("retry.json"):
            os.remove("retry.json")


if __name__ == "__main__":
    print(RetryPolicy().delays(), RetryPolicy(attempts=5, backoff=1).delays())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
