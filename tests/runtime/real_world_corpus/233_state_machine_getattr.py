# ruff: noqa
import unittest


class TrafficLight:
    CYCLE = {"red": "green", "green": "yellow", "yellow": "red"}

    def __init__(self):
        self.state = "red"
        self.history = []

    def tick(self):
        leave = getattr(self, f"leave_{self.state}", None)
        if leave:
            leave()
        self.state = self.CYCLE[self.state]
        enter = getattr(self, f"enter_{self.state}", None)
        if enter:
            enter()

    def enter_green(self):
        self.history.append("walk signal off")

    def leave_yellow(self):
        self.history.append("prepare to stop")

    def enter_red(self):
        self.history.append("walk signal on")


class LightTest(unittest.TestCase):
    def test_cycle(self):
        light = TrafficLight()
        states = []
        for _ in range(4):
            light.tick()
            states.append(light.state)
        self.assertEqual(states, ["green", "yellow", "red", "green"])
        self.assertEqual(light.history, ["walk signal off", "prepare to stop", "walk signal on", "walk signal off"])


if __name__ == "__main__":
    t = TrafficLight()
    for _ in range(3):
        t.tick()
        print(t.state, t.history[-1:] if t.history else [])
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
