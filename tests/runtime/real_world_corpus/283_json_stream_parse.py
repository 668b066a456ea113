# ruff: noqa
import json
import unittest


def iter_concatenated(text):
    """Parse several JSON documents written back to back (no separators)."""
    decoder = json.JSONDecoder()
    idx, n = 0, len(text)
    while idx < n:
        while idx < n and text[idx].isspace():
            idx += 1
        if idx == n:
            break
        obj, idx = decoder.raw_decode(text, idx)
        yield obj


class StreamTest(unittest.TestCase):
    def test_concatenated(self):
        self.assertEqual(list(iter_concatenated('{"a": 1}{"b": 2} [3, 4]\n"x" 5')), [{"a": 1}, {"b": 2}, [3, 4], "x", 5])

    def test_file(self):
        with open("stream.json", "w") as f:
            for i in range(3):
                json.dump({"i": i}, f)
        with open("stream.json") as f:
            self.assertEqual([d["i"] for d in iter_concatenated(f.read())], [0, 1, 2])

    def test_error_position(self):
        with self.assertRaises(json.JSONDecodeError) as cm:
            list(iter_concatenated('{"a": 1}{"b": }'))
        self.assertEqual(cm.exception.pos, 14)


if __name__ == "__main__":
    print(list(iter_concatenated("1 2 [3]")))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
