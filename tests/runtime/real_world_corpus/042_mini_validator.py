# ruff: noqa
"""A very small JSON-schema-like validator.

>>> SCHEMA = {"type": "object", "required": ["id", "tags"],
...           "properties": {"id": {"type": "integer", "minimum": 1},
...                          "name": {"type": "string", "maxLength": 5},
...                          "tags": {"type": "array", "items": {"type": "string"}}}}
>>> validate({"id": 3, "name": "abc", "tags": ["x"]}, SCHEMA)
[]
>>> for err in validate({"id": 0, "name": "toolong", "tags": ["ok", 7], "extra": 1}, SCHEMA):
...     print(err)
$.id: 0 is less than minimum 1
$.name: length 7 exceeds maxLength 5
$.tags[1]: expected string, got int
>>> validate({"name": "x"}, SCHEMA)
['$: missing required property id', '$: missing required property tags']
>>> validate(json.loads('[1, 2.5, true]'), {"type": "array", "items": {"type": "number"}})
['$[2]: expected number, got bool']
"""
import json

TYPES = {"object": dict, "array": list, "string": str, "integer": int, "number": (int, float), "boolean": bool}


def check_type(value, expected):
    if expected in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, TYPES[expected])


def validate(value, schema, path="$"):
    errors = []
    expected = schema.get("type")
    if expected and not check_type(value, expected):
        return [f"{path}: expected {expected}, got {type(value).__name__}"]
    for keyword in ("minimum", "maxLength", "required", "properties", "items"):
        if keyword in schema:
            checker = globals()["check_" + keyword.lower()]
            errors.extend(checker(value, schema[keyword], path))
    return errors


def check_minimum(value, minimum, path):
    return [f"{path}: {value} is less than minimum {minimum}"] if value < minimum else []


def check_maxlength(value, limit, path):
    return [f"{path}: length {len(value)} exceeds maxLength {limit}"] if len(value) > limit else []


def check_required(value, names, path):
    return [f"{path}: missing required property {n}" for n in names if n not in value]


def check_properties(value, props, path):
    errors = []
    for name, sub in props.items():
        if name in value:
            errors.extend(validate(value[name], sub, f"{path}.{name}"))
    return errors


def check_items(value, sub, path):
    errors = []
    for i, item in enumerate(value):
        errors.extend(validate(item, sub, f"{path}[{i}]"))
    return errors


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
