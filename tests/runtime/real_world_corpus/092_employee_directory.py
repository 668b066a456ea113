# ruff: noqa
import csv
import unittest
from dataclasses import dataclass, asdict, fields


@dataclass
class Employee:
    id: int
    name: str
    department: str
    manager_id: int | None = None


def save(path, employees):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, [fl.name for fl in fields(Employee)])
        w.writeheader()
        for e in employees:
            w.writerow(asdict(e))


def load(path):
    with open(path, newline="") as f:
        return [Employee(int(r["id"]), r["name"], r["department"], int(r["manager_id"]) if r["manager_id"] else None)
                for r in csv.DictReader(f)]


def chain_of_command(employees, emp_id):
    by_id = {e.id: e for e in employees}
    chain = []
    current = by_id[emp_id]
    while current.manager_id is not None:
        current = by_id[current.manager_id]
        chain.append(current.name)
    return chain


STAFF = [Employee(1, "Grace", "exec"), Employee(2, "Linus", "eng", 1), Employee(3, "Ada", "eng", 2),
         Employee(4, "Alan", "research", 1), Employee(5, "Barbara", "eng", 2)]


class DirectoryTest(unittest.TestCase):
    def test_round_trip(self):
        save("staff.csv", STAFF)
        self.assertEqual(load("staff.csv"), STAFF)

    def test_chain(self):
        self.assertEqual(chain_of_command(STAFF, 3), ["Linus", "Grace"])
        self.assertEqual(chain_of_command(STAFF, 1), [])

    def test_reports(self):
        reports = sorted(e.name for e in STAFF if e.manager_id == 2)
        self.assertEqual(reports, ["Ada", "Barbara"])


if __name__ == "__main__":
    save("staff.csv", STAFF)
    for e in load("staff.csv"):
        print(f"{e.name:<8} -> {' -> '.join(chain_of_command(STAFF, e.id)) or '(top)'}")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
