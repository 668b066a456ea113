# ruff: noqa
import argparse
import unittest
from dataclasses import dataclass, fields, MISSING


@dataclass
class TrainConfig:
    dataset: str
    epochs: int = 10
    learning_rate: float = 0.001
    shuffle: bool = True


def parser_for(cls):
    """Build an ArgumentParser from a dataclass's fields."""
    p = argparse.ArgumentParser(prog=cls.__name__.lower())
    for f in fields(cls):
        flag = "--" + f.name.replace("_", "-")
        if f.type is bool:
            p.add_argument(flag, action=argparse.BooleanOptionalAction, default=f.default)
        elif f.default is MISSING:
            p.add_argument(flag, type=f.type, required=True)
        else:
            p.add_argument(flag, type=f.type, default=f.default)
    return p


def parse(cls, argv):
    return cls(**vars(parser_for(cls).parse_args(argv)))


class BridgeTest(unittest.TestCase):
    def test_defaults(self):
        self.assertEqual(parse(TrainConfig, ["--dataset", "mnist"]), TrainConfig("mnist"))

    def test_overrides(self):
        cfg = parse(TrainConfig, ["--dataset", "cifar", "--epochs", "3", "--learning-rate", "0.1", "--no-shuffle"])
        self.assertEqual(cfg, TrainConfig("cifar", 3, 0.1, False))

    def test_required(self):
        import contextlib, io
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            parse(TrainConfig, [])


if __name__ == "__main__":
    print(parse(TrainConfig, ["--dataset", "iris", "--epochs", "50"]))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
