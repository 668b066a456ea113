# ruff: noqa
import json


def merge_patch(target, patch):
    """RFC 7386 JSON merge patch.

    >>> merge_patch({"a": "b", "c": {"d": "e", "f": "g"}}, {"a": "z", "c": {"f": None}})
    {'a': 'z', 'c': {'d': 'e'}}
    >>> merge_patch({"a": [1, 2]}, {"a": [3]})
    {'a': [3]}
    >>> merge_patch({"a": 1}, "not an object")
    'not an object'
    >>> merge_patch({}, {"x": {"y": None}})
    {'x': {}}
    """
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key, {}), value)
    return result


def apply_patch_file(doc_path, patch_path):
    """
    >>> json.dump({"name": "app", "deps": {"a": "1.0", "b": "2.0"}}, open("package.json", "w"))
    >>> json.dump({"deps": {"b": None, "c": "0.1"}, "private": True}, open("patch.json", "w"))
    >>> apply_patch_file("package.json", "patch.json")
    >>> print(open("package.json").read())
    {"deps": {"a": "1.0", "c": "0.1"}, "name": "app", "private": true}
    """
    with open(doc_path) as f:
        doc = json.load(f)
    with open(patch_path) as f:
        patch = json.load(f)
    with open(doc_path, "w") as f:
        json.dump(merge_patch(doc, patch), f, sort_keys=True)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
