# ruff: noqa
import unittest


class Machine:
    """A vending machine whose events are dispatched to on_<event> methods."""

    def __init__(self):
        self.credit = 0
        self.log = []

    def handle(self, event, *args):
        handler = getattr(self, f"on_{event}", None)
        if handler is None:
            self.log.append(f"ignored {event}")
            return False
        handler(*args)
        return True

    def on_coin(self, cents):
        self.credit += cents
        self.log.append(f"credit {self.credit}")

    def on_select(self, price):
        if price > self.credit:
            self.log.append(f"need {price - self.credit} more")
        else:
            self.credit -= price
            self.log.append(f"vend, change {self.credit}")
            self.credit = 0

    def on_refund(self):
        self.log.append(f"refund {self.credit}")
        self.credit = 0


SCRIPT = [("coin", 25), ("coin", 25), ("select", 75), ("kick",), ("coin", 50), ("select", 75), ("refund",)]


class MachineTest(unittest.TestCase):
    def test_script(self):
        m = Machine()
        results = [m.handle(*step) for step in SCRIPT]
        self.assertEqual(results, [True, True, True, False, True, True, True])
        self.assertEqual(
            m.log,
            ["credit 25", "credit 50", "need 25 more", "ignored kick", "credit 100", "vend, change 25", "refund 0"],
        )

    def test_handlers_discoverable(self):
        names = sorted(n[3:] for n in vars(Machine) if n.startswith("on_"))
        self.assertEqual(names, ["coin", "refund", "select"])


if __name__ == "__main__":
    m = Machine()
    for step in SCRIPT:
        m.handle(*step)
    print("\n".join(m.log))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
