# ruff: noqa
from dataclasses import dataclass, field, KW_ONLY


@dataclass(slots=True, kw_only=True)
class HttpRequest:
    """
    >>> r = HttpRequest(method="post", url="/api/items", body=b"{}")
    >>> r
    HttpRequest(method='POST', url='/api/items', headers={}, body=b'{}')
    >>> HttpRequest("GET", "/")
    Traceback (most recent call last):
    ...
    TypeError: HttpRequest.__init__() takes 1 positional argument but 3 were given
    >>> hasattr(r, "__dict__")
    False
    """

    method: str
    url: str
    headers: dict = field(default_factory=dict)
    body: bytes = b""

    def __post_init__(self):
        self.method = self.method.upper()


@dataclass
class Response:
    """
    >>> Response(404, reason="Not Found")
    Response(status=404, reason='Not Found', body='')
    >>> Response(200).ok, Response(503).ok
    (True, False)
    """

    status: int
    _: KW_ONLY
    reason: str = "OK"
    body: str = ""

    @property
    def ok(self):
        return 200 <= self.status < 400


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
