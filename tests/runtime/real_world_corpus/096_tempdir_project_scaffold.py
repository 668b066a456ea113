# ruff: noqa
import os
import tempfile
from pathlib import Path
from string import Template

FILES = {
    "$name/__init__.py": '__version__ = "$version"\n',
    "$name/cli.py": "def main():\n    print('$name $version')\n",
    "tests/test_$name.py": "import $name\n\n\ndef test_version():\n    assert $name.__version__ == '$version'\n",
    "pyproject.toml": '[project]\nname = "$name"\nversion = "$version"\n',
    "README.md": "# $title\n",
}


def scaffold(root, name, version="0.1.0"):
    """Render the project template into *root*.

    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     created = scaffold(tmp, "weather_tool")
    ...     print("\\n".join(created))
    ...     print(Path(tmp, "pyproject.toml").read_text(), end="")
    ...     print(Path(tmp, "README.md").read_text(), end="")
    README.md
    pyproject.toml
    tests/test_weather_tool.py
    weather_tool/__init__.py
    weather_tool/cli.py
    [project]
    name = "weather_tool"
    version = "0.1.0"
    # Weather Tool
    """
    values = {"name": name, "version": version, "title": name.replace("_", " ").title()}
    created = []
    for rel_template, body in FILES.items():
        rel = Template(rel_template).substitute(values)
        path = Path(root, rel)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(Template(body).substitute(values))
        created.append(Path(rel).as_posix())
    return sorted(created)


def exists_all(root, names):
    """
    >>> exists_all(".", ["nope.txt"])
    False
    """
    return all(os.path.exists(os.path.join(root, n)) for n in names)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
