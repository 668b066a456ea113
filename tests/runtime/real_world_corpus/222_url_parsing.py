# ruff: noqa
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit, urlunsplit


def add_query(url, **params):
    """
    >>> add_query("https://example.com/search?q=wasm&page=1", page=2, lang="en")
    'https://example.com/search?q=wasm&page=2&lang=en'
    """
    parts = urlsplit(url)
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    query.update({k: str(v) for k, v in params.items()})
    return urlunsplit(parts._replace(query=urlencode(query)))


def normalize(url):
    """
    >>> normalize("HTTP://Example.COM:80/a/../b/./c/?")
    'http://example.com/b/c/'
    >>> normalize("https://example.com:8443/x")
    'https://example.com:8443/x'
    """
    import posixpath
    p = urlsplit(url)
    host = p.hostname or ""
    default = {"http": 80, "https": 443}.get(p.scheme.lower())
    netloc = host if p.port in (None, default) else f"{host}:{p.port}"
    path = posixpath.normpath(p.path) + ("/" if p.path.endswith("/") else "") if p.path else "/"
    return urlunsplit((p.scheme.lower(), netloc, path, p.query, ""))


def resolve_links(base, hrefs):
    """
    >>> resolve_links("https://site.org/docs/guide/intro.html", ["setup.html", "../api/", "/about", "https://other.org/"])
    ['https://site.org/docs/guide/setup.html', 'https://site.org/docs/api/', 'https://site.org/about', 'https://other.org/']
    """
    return [urljoin(base, h) for h in hrefs]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
