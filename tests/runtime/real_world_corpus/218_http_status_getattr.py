# ruff: noqa
import http
import unittest


def describe(codes):
    out = []
    for code in codes:
        try:
            status = http.HTTPStatus(code)
        except ValueError:
            out.append(f"{code} UNKNOWN")
            continue
        out.append(f"{status.value} {status.phrase}")
    return out


def by_name(names):
    return [getattr(http.HTTPStatus, n.upper().replace(" ", "_")).value for n in names]


class StatusTest(unittest.TestCase):
    def test_describe(self):
        self.assertEqual(describe([200, 404, 418, 799]), ["200 OK", "404 Not Found", "418 I'm a Teapot", "799 UNKNOWN"])

    def test_by_name(self):
        self.assertEqual(by_name(["ok", "not found", "too many requests"]), [200, 404, 429])

    def test_missing_name(self):
        with self.assertRaises(AttributeError):
            by_name(["very bad"])


if __name__ == "__main__":
    print("\n".join(describe([201, 301, 503])))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
