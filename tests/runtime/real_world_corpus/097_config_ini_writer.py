# ruff: noqa
import configparser
import io
import os
import unittest


def write_config(path, sections):
    cp = configparser.ConfigParser()
    for name, values in sections.items():
        cp[name] = {k: str(v) for k, v in values.items()}
    with open(path, "w") as f:
        cp.write(f)


def read_typed(path):
    cp = configparser.ConfigParser(converters={"list": lambda s: [x.strip() for x in s.split(",") if x.strip()]})
    cp.read(path)
    return cp


class IniTest(unittest.TestCase):
    def setUp(self):
        write_config("service.ini", {
            "DEFAULT": {"log_level": "info"},
            "http": {"port": 8080, "hosts": "a.example, b.example", "tls": "on"},
            "worker": {"threads": 4, "log_level": "debug"},
        })

    def test_types(self):
        cp = read_typed("service.ini")
        self.assertEqual(cp.getint("http", "port"), 8080)
        self.assertTrue(cp.getboolean("http", "tls"))
        self.assertEqual(cp.getlist("http", "hosts"), ["a.example", "b.example"])

    def test_default_inheritance(self):
        cp = read_typed("service.ini")
        self.assertEqual(cp["http"]["log_level"], "info")
        self.assertEqual(cp["worker"]["log_level"], "debug")

    def test_interpolation(self):
        with open("paths.ini", "w") as f:
            f.write("[paths]\nroot = /srv/app\nlogs = %(root)s/logs\n")
        cp = configparser.ConfigParser()
        cp.read("paths.ini")
        self.assertEqual(cp["paths"]["logs"], "/srv/app/logs")

    def test_missing_file_is_ignored(self):
        self.assertEqual(configparser.ConfigParser().read("absent.ini"), [])


if __name__ == "__main__":
    IniTest("test_types").setUp()
    print(open("service.ini").read().strip())
    print(os.path.getsize("service.ini") > 0)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
