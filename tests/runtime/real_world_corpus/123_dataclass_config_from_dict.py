# ruff: noqa
import json
from dataclasses import dataclass, field, fields, MISSING


@dataclass
class DatabaseConfig:
    url: str
    pool_size: int = 5
    echo: bool = False


@dataclass
class AppConfig:
    name: str
    database: DatabaseConfig
    allowed_hosts: list = field(default_factory=lambda: ["localhost"])
    port: int = 8000


def build(cls, data):
    """Build a (nested) dataclass from a dict, with type checks and unknown-key errors.

    >>> raw = json.loads('{"name": "shop", "database": {"url": "sqlite:///shop.db", "echo": true}, "port": 9000}')
    >>> cfg = build(AppConfig, raw)
    >>> cfg.database
    DatabaseConfig(url='sqlite:///shop.db', pool_size=5, echo=True)
    >>> cfg.allowed_hosts, cfg.port
    (['localhost'], 9000)
    >>> build(AppConfig, {"name": "x", "database": {"url": "u"}, "prot": 1})
    Traceback (most recent call last):
    ...
    TypeError: AppConfig: unknown keys ['prot']
    >>> build(AppConfig, {"name": "x", "database": {"url": "u", "pool_size": "10"}})
    Traceback (most recent call last):
    ...
    TypeError: DatabaseConfig.pool_size: expected int, got str
    >>> build(DatabaseConfig, {})
    Traceback (most recent call last):
    ...
    TypeError: DatabaseConfig: missing url
    """
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise TypeError(f"{cls.__name__}: unknown keys {unknown}")
    kwargs = {}
    for name, f in known.items():
        if name not in data:
            if f.default is MISSING and f.default_factory is MISSING:
                raise TypeError(f"{cls.__name__}: missing {name}")
            continue
        value = data[name]
        if hasattr(f.type, "__dataclass_fields__"):
            value = build(f.type, value)
        elif isinstance(f.type, type) and not isinstance(value, f.type):
            raise TypeError(f"{cls.__name__}.{name}: expected {f.type.__name__}, got {type(value).__name__}")
        kwargs[name] = value
    return cls(**kwargs)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
