# ruff: noqa
import configparser
import json


def ini_to_json(ini_path, json_path):
    """
    >>> with open("app.ini", "w") as f:
    ...     _ = f.write("[db]\\nhost = localhost\\nport = 5432\\n\\n[cache]\\nenabled = true\\nttl = 30\\n")
    >>> ini_to_json("app.ini", "app.json")
    ['cache', 'db']
    >>> json.load(open("app.json"))
    {'cache': {'enabled': True, 'ttl': 30}, 'db': {'host': 'localhost', 'port': 5432}}
    """
    cp = configparser.ConfigParser()
    cp.read(ini_path)
    data = {}
    for section in sorted(cp.sections()):
        data[section] = {}
        for key, raw in cp[section].items():
            value = raw
            if raw.lower() in ("true", "false", "yes", "no"):
                value = cp[section].getboolean(key)
            elif raw.isdigit():
                value = int(raw)
            data[section][key] = value
    with open(json_path, "w") as f:
        json.dump(data, f, indent=2, sort_keys=True)
    return list(data)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
