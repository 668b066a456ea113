# ruff: noqa
import json
import os
import shutil
import tempfile
import unittest


def pipeline(records):
    """Stage records through files in a scratch directory, then clean it up."""
    work = tempfile.mkdtemp(prefix="etl-")
    try:
        raw = os.path.join(work, "raw.json")
        with open(raw, "w") as f:
            json.dump(records, f)
        cleaned = os.path.join(work, "clean.json")
        with open(raw) as f:
            data = [r for r in json.load(f) if r.get("email")]
        for r in data:
            r["email"] = r["email"].lower()
        with open(cleaned, "w") as f:
            json.dump(data, f)
        with open(cleaned) as f:
            return json.load(f), sorted(os.listdir(work)), work
    finally:
        shutil.rmtree(work)


class PipelineTest(unittest.TestCase):
    def test_pipeline(self):
        out, files, work = pipeline([{"email": "A@X.COM"}, {"email": ""}, {"name": "n"}])
        self.assertEqual(out, [{"email": "a@x.com"}])
        self.assertEqual(files, ["clean.json", "raw.json"])
        self.assertFalse(os.path.exists(work))
        self.assertTrue(os.path.basename(work).startswith("etl-"))
        self.assertEqual(os.path.dirname(work), tempfile.gettempdir())


if __name__ == "__main__":
    print(pipeline([{"email": "Bob@Example.org"}])[:2])
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
