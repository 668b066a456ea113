# ruff: noqa
import inspect
import unittest


def validate_call(func, kwargs):
    """Check kwargs against a function's signature before calling it."""
    sig = inspect.signature(func)
    try:
        bound = sig.bind(**kwargs)
    except TypeError as e:
        return False, str(e)
    bound.apply_defaults()
    for name, value in bound.arguments.items():
        ann = sig.parameters[name].annotation
        if ann is not inspect.Parameter.empty and not isinstance(value, ann):
            return False, f"{name} must be {ann.__name__}"
    return True, func(*bound.args, **bound.kwargs)


def create_user(name: str, age: int, admin: bool = False):
    return f"{name} ({age}){' [admin]' if admin else ''}"


class SignatureTest(unittest.TestCase):
    def test_ok(self):
        self.assertEqual(validate_call(create_user, {"name": "ann", "age": 30}), (True, "ann (30)"))

    def test_missing(self):
        self.assertEqual(validate_call(create_user, {"name": "ann"}), (False, "missing a required argument: 'age'"))

    def test_type(self):
        self.assertEqual(validate_call(create_user, {"name": "ann", "age": "30"}), (False, "age must be int"))

    def test_params(self):
        params = inspect.signature(create_user).parameters
        self.assertEqual([(p.name, p.default) for p in params.values() if p.default is not p.empty], [("admin", False)])


if __name__ == "__main__":
    print(inspect.signature(create_user))
    print(validate_call(create_user, {"name": "bo", "age": 41, "admin": True}))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
