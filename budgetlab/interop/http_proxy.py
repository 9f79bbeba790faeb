"""Which proxy the environment names for a server: ``HTTPS_PROXY`` for an https server,
``HTTP_PROXY`` for an http one, else ``ALL_PROXY`` (lower-case spellings too), none for a host
``NO_PROXY`` lists, as :func:`urllib.request.getproxies` and :func:`urllib.request.proxy_bypass`
read them (and curl and requests). budgetlab speaks to ``http://`` and ``https://`` proxies; any
other (``socks5://``) is refused before anything is sent, with the fix, and so is a proxy URL
:func:`~budgetlab.interop.http_url.check_url` refuses (a port that is not one).
"""

from __future__ import annotations

import urllib.parse
import urllib.request

from ..errors import ConfigError
from .http_url import check_url, url_port

__all__ = ["proxy_for"]

#: The environment variable each key of :func:`urllib.request.getproxies` comes from.
_PROXY_VARS = {"http": "HTTP_PROXY", "https": "HTTPS_PROXY", "all": "ALL_PROXY"}


def proxy_for(url: str) -> tuple[str, str] | None:
    """The proxy the environment names for the server at ``url``, and the variable that names it:
    ``None`` without one, or when ``NO_PROXY`` bypasses the host. A proxy other than ``http://``
    or ``https://`` is a :class:`~budgetlab.errors.ConfigError` (named without its user info).

    >>> from unittest import mock
    >>> env = {"HTTPS_PROXY": "http://proxy.example:3128", "NO_PROXY": "intra"}
    >>> with mock.patch.dict("os.environ", env, clear=True):
    ...     proxy_for("https://prom.example:9090"), proxy_for("https://prom.intra:9090")
    (('http://proxy.example:3128', 'HTTPS_PROXY'), None)
    """
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    proxies = urllib.request.getproxies()
    key = scheme if proxies.get(scheme) else "all"
    proxy = proxies.get(key)
    port = url_port(url) or (443 if scheme == "https" else 80)
    if not proxy or urllib.request.proxy_bypass(f"{parts.hostname}:{port}"):
        return None
    try:
        given = urllib.parse.urlsplit(proxy)
    except ValueError:  # "http://[::1": refused in one line
        check_url(proxy, _PROXY_VARS[key])
        raise
    if given.scheme.lower() not in ("http", "https"):
        shown = f"{given.scheme}://{given.netloc.rpartition('@')[2]}"
        raise ConfigError(f"{_PROXY_VARS[key]} names a {given.scheme or 'scheme-less'} proxy "
                          f"({shown}) for {scheme}://{parts.hostname}:{port}; budgetlab speaks "
                          "to http:// and https:// proxies only: give one, or add the server's "
                          "host to NO_PROXY to reach it directly.")
    # a port urllib reads as none would send the proxy's credentials to port 80
    check_url(proxy, _PROXY_VARS[key])
    return proxy, _PROXY_VARS[key]
