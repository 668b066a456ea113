# ruff: noqa
import argparse
import unittest


def parse(argv):
    p = argparse.ArgumentParser(prog="train", fromfile_prefix_chars="@")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--layers", type=int, nargs="+", default=[64])
    p.add_argument("--name")
    return p.parse_args(argv)


class FromFileTest(unittest.TestCase):
    def test_args_file(self):
        with open("train.args", "w") as f:
            f.write("--epochs\n50\n--layers\n128\n64\n--name\nbaseline\n")
        ns = parse(["@train.args", "--lr", "0.001"])
        self.assertEqual((ns.epochs, ns.lr, ns.layers, ns.name), (50, 0.001, [128, 64], "baseline"))

    def test_cli_after_file_wins(self):
        with open("base.args", "w") as f:
            f.write("--epochs\n5\n")
        self.assertEqual(parse(["@base.args", "--epochs", "7"]).epochs, 7)


if __name__ == "__main__":
    with open("run.args", "w") as f:
        f.write("--name\ndemo\n--epochs\n3\n")
    print(vars(parse(["@run.args"])))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
