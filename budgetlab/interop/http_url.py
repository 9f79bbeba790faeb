"""A server's URL: checked before anything is sent (:func:`check_url`) and shown without its
secrets (:func:`redact_url`).

A URL the standard library reads leniently is refused here instead, so that a request goes to the
server named, with its credentials, or nowhere: ``urllib.parse`` reads ``http://h:99999`` or
``http://h:9o90`` as a host without a port (urllib3 then connects to port 80, the
``Authorization`` header with it), and ``http://[::1`` is a ``ValueError``. The port is shown as
typed (``http://h:0080`` is not said as ``:80``).
"""

from __future__ import annotations

import urllib.parse
from typing import Any

from ..errors import ConfigError
from ..privacy import redact, shown

__all__ = ["check_url", "redact_url", "url_port", "shown_target"]

_EXAMPLE = "e.g. http://localhost:9090"


def _split(url: str, name: str) -> urllib.parse.SplitResult:
    try:
        return urllib.parse.urlsplit(url)
    except ValueError as exc:  # its words may hold the user info: never shown
        why = ("a '[' of an IPv6 address without its ']', or the reverse" if "IPv6" in str(exc)
               else "characters a host name cannot hold")
        raise ConfigError(f"{name} is not a URL that can be read ({why}); "
                          f"{_EXAMPLE} or http://[::1]:9090.") from None


def _port_text(netloc: str) -> tuple[str, str | None]:
    """``(host part, port as typed or None)`` of a netloc (the user info left out)."""
    hostport = netloc.rpartition("@")[2]
    if hostport.startswith("["):
        host, _, rest = hostport.partition("]")
        return host + "]", (rest[1:] if rest.startswith(":") else None if not rest else rest)
    host, sep, port = hostport.partition(":")
    return host, port if sep else None


def check_url(url: Any, name: str) -> str:
    """``url`` stripped, refused unless it is ``http://`` or ``https://``, names a host, has no
    port or one written in digits from 1 to 65535, and holds nothing a request would leave out (a
    query string, a fragment). ``name`` is what gave it (``url=``, ``--prometheus``, a proxy's
    variable), named first in the refusal, which shows the bad part and never the user info.

    >>> check_url(" http://prom.example:9090/prometheus ", "url=")
    'http://prom.example:9090/prometheus'
    >>> check_url("http://bob:secret@127.0.0.1:99999", "--prometheus")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --prometheus has the port '99999', outside 1 to 65535; give the
    server's port (e.g. http://localhost:9090).
    """
    if not isinstance(url, str) or not url.strip():
        raise ConfigError(f"{name} must be text such as 'http://localhost:9090'.")
    text = url.strip()
    parts = _split(text, name)
    if parts.scheme.lower() not in ("http", "https"):
        given = f", not {shown(parts.scheme + '://', 20)}" if parts.scheme else ""
        raise ConfigError(f"{name} must start with http:// or https://{given} ({_EXAMPLE}).")
    host, port = _port_text(parts.netloc)
    if not parts.hostname or host in ("", "[]"):
        raise ConfigError(f"{name} names no host ({_EXAMPLE}).")
    if any(c.isspace() or not c.isprintable() or c in "\\<>\"'`{}|^" for c in host):
        raise ConfigError(f"{name} has the host {shown(host)}, which holds spaces, quotes or "
                          f"characters that are not printed ({_EXAMPLE}).")
    if port is not None:
        if not port:
            raise ConfigError(f"{name} has a ':' after the host but no port; give the port or "
                              f"leave the ':' out ({_EXAMPLE}).")
        if not (port.isascii() and port.isdigit()):
            raise ConfigError(f"{name} has the port {shown(port, 20)}, which is not a number: "
                              f"give the server's port in digits ({_EXAMPLE}).")
        if not 1 <= int(port) <= 65535:
            raise ConfigError(f"{name} has the port {shown(port, 20)}, outside 1 to 65535; give "
                              f"the server's port ({_EXAMPLE}).")
    if parts.query or parts.fragment or "?" in text or "#" in text:
        raise ConfigError(f"{name} holds a query string (?...) or a fragment (#...), which is not "
                          "sent with a request; leave it out (credentials go in a header, or as "
                          "user:password@ before the host).")
    return text


def url_port(url: str) -> int | None:
    """The port of a URL :func:`check_url` let pass (``None`` without one), or ``-1`` when it is
    not a valid port (a redirect's target: never the same server as one checked).

    >>> url_port("http://h:0080"), url_port("http://h"), url_port("http://h:9o90")
    (80, None, -1)
    """
    port = _port_text(urllib.parse.urlsplit(url).netloc)[1]
    if port is None:
        return None
    return int(port) if port.isascii() and port.isdigit() and 1 <= int(port) <= 65535 else -1


def redact_url(url: str) -> str:
    """``url`` without user info, query string or fragment (what messages may show); the port as
    typed.

    >>> redact_url("https://bob:s3cret@prom.example:9090/prometheus/?token=x")
    'https://prom.example:9090/prometheus'
    >>> redact_url("http://127.0.0.1:0080")
    'http://127.0.0.1:0080'
    """
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    host = f"[{host}]" if ":" in host else host
    port = _port_text(parts.netloc)[1]
    netloc = host + (f":{port}" if port and port.isascii() and port.isdigit() else "")
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path.rstrip("/"), "", ""))


def shown_target(url: str) -> str:
    """A URL a server named (a redirect's target) as a message may show it: scheme, host and port
    as given (a server's address, not a person's data), the path with each part that looks like
    personal data (an e-mail address) hidden; user info, query string and fragment left out.

    >>> shown_target("http://bob:pw@127.0.0.1:9091/u/ivan@example.org/api?token=x")
    'http://127.0.0.1:9091/u/[hidden]/api'
    """
    base = redact_url(url)
    parts = urllib.parse.urlsplit(base)
    if not all(c.isprintable() and not c.isspace() for c in parts.netloc):
        return "a URL that cannot be shown (its host holds spaces or unprinted characters)"
    path = "/".join(part if redact(urllib.parse.unquote(part), 80) == urllib.parse.unquote(part)
                    and part.isprintable() and not any(c.isspace() for c in part) else "[hidden]"
                    for part in parts.path.split("/"))
    shown_path = path if len(path) <= 120 else path[:120] + "…"
    return f"{parts.scheme}://{parts.netloc}{shown_path}"
