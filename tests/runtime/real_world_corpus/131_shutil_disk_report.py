# ruff: noqa
import os
import shutil
import unittest


def copy_with_report(files, dest):
    os.makedirs(dest, exist_ok=True)
    report = []
    for src in files:
        if not os.path.isfile(src):
            report.append(f"skip {src}: missing")
            continue
        target = os.path.join(dest, os.path.basename(src))
        if os.path.exists(target) and os.path.getsize(target) == os.path.getsize(src):
            report.append(f"same {os.path.basename(src)}")
            continue
        shutil.copyfile(src, target)
        shutil.copymode(src, target)
        report.append(f"copy {os.path.basename(src)} ({os.path.getsize(target)} bytes)")
    return report


class CopyReportTest(unittest.TestCase):
    def setUp(self):
        os.makedirs("in", exist_ok=True)
        for name, size in (("a.bin", 10), ("b.bin", 20)):
            with open(os.path.join("in", name), "wb") as f:
                f.write(b"x" * size)
        shutil.rmtree("out", ignore_errors=True)

    def test_report(self):
        files = ["in/a.bin", "in/b.bin", "in/c.bin"]
        self.assertEqual(copy_with_report(files, "out"), ["copy a.bin (10 bytes)", "copy b.bin (20 bytes)", "skip in/c.bin: missing"])
        self.assertEqual(copy_with_report(files[:1], "out"), ["same a.bin"])


if __name__ == "__main__":
    CopyReportTest("test_report").setUp()
    print("\n".join(copy_with_report(["in/a.bin", "in/b.bin"], "out")))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
