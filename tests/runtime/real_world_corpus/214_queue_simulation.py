# ruff: noqa
import random
import statistics
import unittest


def simulate(customers, servers, seed=42):
    rng = random.Random(seed)
    free_at = [0.0] * servers
    t, waits = 0.0, []
    for _ in range(customers):
        t += rng.expovariate(1.0)
        i = min(range(servers), key=lambda s: free_at[s])
        start = max(t, free_at[i])
        waits.append(start - t)
        free_at[i] = start + rng.expovariate(0.6)
    return round(statistics.mean(waits), 3), round(max(waits), 3)


class SimulationTest(unittest.TestCase):
    def test_reproducible(self):
        self.assertEqual(simulate(200, 2), simulate(200, 2))

    def test_more_servers_less_wait(self):
        self.assertGreater(simulate(500, 1)[0], simulate(500, 3)[0])


if __name__ == "__main__":
    for servers in (1, 2, 3):
        print(servers, simulate(300, servers))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
