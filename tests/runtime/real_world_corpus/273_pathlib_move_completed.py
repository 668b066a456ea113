# ruff: noqa
import unittest
from pathlib import Path


def move_completed(queue_dir, done_dir, marker="DONE"):
    queue, done = Path(queue_dir), Path(done_dir)
    done.mkdir(parents=True, exist_ok=True)
    moved = []
    for job in sorted(queue.glob("*.job")):
        if job.read_text().strip().endswith(marker):
            job.rename(done / job.name)
            moved.append(job.name)
    return moved


class MoveCompletedTest(unittest.TestCase):
    def test_move(self):
        q = Path("queue")
        q.mkdir(exist_ok=True)
        for name, text in {"1.job": "start\nDONE", "2.job": "start\n", "3.job": "DONE\n"}.items():
            (q / name).write_text(text)
        self.assertEqual(move_completed("queue", "archive/done"), ["1.job", "3.job"])
        self.assertEqual(sorted(p.name for p in q.iterdir()), ["2.job"])
        self.assertEqual(sorted(p.name for p in Path("archive/done").iterdir()), ["1.job", "3.job"])


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
