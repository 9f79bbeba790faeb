"""One HTTP server, asked within a deadline, a size cap and its own origin: the transport of the
Prometheus client (:mod:`budgetlab.interop.prometheus_http`), on urllib3.

* **one deadline for all the answers**: ``timeout`` seconds from the :class:`Origin`'s creation
  (the start of a read) to the last byte of its last answer, on the monotonic clock. Every socket
  read waits at most the time remaining, and a watchdog shuts the connection down at the
  deadline, so a server that trickles its headers or its body one byte at a time, or answers
  each of many requests just in time, cannot stretch it (:class:`DeadlineError`);
* **redirects stay on the server**: one to the same scheme, host and port is followed (at most
  :data:`MAX_REDIRECTS`; 301/302/303 re-asked with GET, the form in the query); one to another
  origin is refused before anything is sent there, so credentials go nowhere else;
* **a size cap per answer** given by the caller (:class:`Origin.exchange`); a declared
  ``Content-Length`` over it is refused before reading, an endless body stops there; a body
  shorter than its ``Content-Length`` is an error, and so is a compressed one (none is asked);
* **proxies as the environment names them** (:func:`~budgetlab.interop.http_proxy.proxy_for`):
  an ``https`` server is reached through a CONNECT tunnel, so the proxy sees its host and port
  and nothing else (the TLS session, the credentials within it, are end to end); an ``http``
  server's requests go to the proxy as they would go over the network, in clear. The deadline
  covers the proxy's answer to CONNECT too;
* every transport failure is a :class:`~budgetlab.errors.ServerError` in one line, the server
  named by its redacted URL (and the proxy by its), its own words through the personal-data
  filter.
"""

from __future__ import annotations

import socket
import ssl
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

import urllib3
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.exceptions import HTTPError as Urllib3Error

from .._util.words import say
from ..errors import ServerError
from ..privacy import redact
from .http_proxy import proxy_for
from .http_url import redact_url, shown_target, url_port

__all__ = ["Origin", "DeadlineError", "RedirectRefused", "redact_url", "MAX_REDIRECTS",
           "ERROR_TEXT_CAP"]

#: Same-origin redirects followed for one request.
MAX_REDIRECTS = 5
#: Bytes of an error answer's body (4xx, 5xx) read for its text, whatever ``max_series``.
ERROR_TEXT_CAP = 1 << 16
_REDIRECTS = (301, 302, 303, 307, 308)
_PIECE = 1 << 16
_LOCAL = threading.local()


class DeadlineError(ServerError):
    """The deadline of a read passed (``timeout``): no request of it may go on."""


class RedirectRefused(ServerError):
    """The server redirected to another origin: not followed, whatever was asked."""


class _Watch:
    """The deadline of one request: the connection in use is shut down when it passes."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.conn: Any = None
        self.expired = False
        self.timer = threading.Timer(max(0.0, deadline - time.monotonic()), self.expire)
        self.timer.daemon = True

    def expire(self) -> None:
        self.expired = True
        # back in the pool, another's now
        if getattr(self.conn, "budgetlab_watch", None) is not self:
            return
        sock = getattr(self.conn, "sock", None)
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def remaining(self) -> float:
        return self.deadline - time.monotonic()


def _bind(conn: Any) -> None:
    """Called by the connection as it sends: the watch of this thread's request holds it."""
    watch = getattr(_LOCAL, "watch", None)
    if watch is not None:
        watch.conn = conn
        conn.budgetlab_watch = watch  # the connection's current request (the watchdog checks it)
        if watch.expired:
            raise TimeoutError("deadline passed")


class _Bound:
    """A connection that hands itself to its request's watch as it connects (a proxy's CONNECT
    answer is read then) and as it sends."""

    def connect(self) -> None:
        _bind(self)
        super().connect()  # type: ignore[misc]

    def request(self, *args: Any, **kwargs: Any) -> None:
        _bind(self)
        super().request(*args, **kwargs)  # type: ignore[misc]


class _Conn(_Bound, HTTPConnection):
    pass


class _TLSConn(_Bound, HTTPSConnection):
    pass


class _Pool(urllib3.HTTPConnectionPool):
    ConnectionCls = _Conn


class _TLSPool(urllib3.HTTPSConnectionPool):
    ConnectionCls = _TLSConn


_POOLS = {"http": _Pool, "https": _TLSPool}


def _manager(proxy: str | None, connections: int) -> urllib3.PoolManager:
    """The connections to one server: direct, or through ``proxy`` (its user info sent as
    Proxy-Authorization to the proxy alone; an https server tunnelled, never forwarded)."""
    if proxy is None:
        manager = urllib3.PoolManager(num_pools=1, maxsize=connections, block=True)
    else:
        parts = urllib.parse.urlsplit(proxy)
        auth = None
        if parts.username is not None:
            auth = urllib3.util.make_headers(proxy_basic_auth=urllib.parse.unquote(
                parts.username) + ":" + urllib.parse.unquote(parts.password or ""))
        manager = urllib3.ProxyManager(redact_url(proxy), num_pools=1, maxsize=connections,
                                       block=True, proxy_headers=auth,
                                       use_forwarding_for_https=False)
    manager.pool_classes_by_scheme = _POOLS  # type: ignore[assignment]
    return manager


def _origin(url: str) -> tuple[str, str, int]:
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    port = url_port(url) or (443 if scheme == "https" else 80)  # -1: not a port, no server's
    return scheme, (parts.hostname or "").lower(), port


@dataclass
class Origin:
    """The server at ``base`` (a redacted URL, named ``where`` in messages): a pool of at most
    ``connections`` connections to it, every answer within ``timeout`` seconds of the creation
    (one deadline, ``deadline`` on the monotonic clock); ``cap_fix`` tells in a message how to
    raise a size cap."""

    base: str
    headers: dict[str, str]
    timeout: float
    connections: int = 4
    cap_fix: str = ""
    where: str = field(init=False)
    proxy: tuple[str, str] | None = field(init=False)
    deadline: float = field(init=False)
    _pool: Any = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.deadline = time.monotonic() + self.timeout
        self.where = self.base
        self.proxy = proxy_for(self.base)
        self._pool = _manager(self.proxy[0] if self.proxy else None, self.connections)

    def exchange(self, path: str, form: str, cap: int) -> tuple[int, bytes, str | None]:
        """POST ``form`` to ``path`` and read the answer before the deadline (same-origin
        redirects followed): ``(status, body, Retry-After header or None)``; a 2xx body over
        ``cap`` bytes is refused, an error answer's body is read up to :data:`ERROR_TEXT_CAP`
        (64 KiB)."""
        url = self.base + path
        watch = _Watch(self.deadline)
        _LOCAL.watch = watch
        watch.timer.start()
        method, body = "POST", form
        try:
            for _ in range(MAX_REDIRECTS + 1):
                resp = self._send(watch, method, url, body)
                done = False
                try:
                    if resp.status in _REDIRECTS:
                        url = self._redirect(url, resp.headers.get("Location"))
                        # re-asked with GET, the form in the query
                        if resp.status in (301, 302, 303):
                            method, url, body = "GET", url.split("?")[0] + "?" + form, ""
                        continue
                    raw = self._body(watch, resp, cap if resp.status < 300 else ERROR_TEXT_CAP)
                    done = True
                    return resp.status, raw, resp.headers.get("Retry-After")
                finally:
                    if not done:  # a body left unread: the connection is not reused
                        resp.close()
                    resp.release_conn()
            raise ServerError(f"Prometheus at {self.where} redirected more than {MAX_REDIRECTS} "
                              "times; check the URL.")
        finally:
            watch.timer.cancel()
            _LOCAL.watch = None

    def _send(self, watch: _Watch, method: str, url: str, body: str) -> Any:
        headers = dict(self.headers)
        if method == "POST":
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            rem = watch.remaining()
            if rem <= 0:
                raise TimeoutError
            return self._pool.urlopen(method, url,
                                      body=body.encode() if method == "POST" else None,
                                      headers=headers, redirect=False, retries=False,
                                      preload_content=False,
                                      timeout=urllib3.Timeout(connect=rem, read=rem))
        except urllib3.exceptions.ProxyError as exc:
            if watch.expired or isinstance(exc.original_error, TimeoutError):
                raise self._timeout() from None
            raise self._proxy_failed(exc) from None
        except urllib3.exceptions.NewConnectionError as exc:  # (a ConnectTimeoutError too: first)
            reason = exc.__cause__ or exc.__context__
            why = getattr(reason, "strerror", None) or "no connection"
            raise ServerError(f"cannot reach Prometheus at {self.where} ({why}); check the URL and "
                              "that the server is up.") from None
        except (TimeoutError, urllib3.exceptions.TimeoutError):
            raise self._timeout() from None
        except (Urllib3Error, OSError) as exc:
            if watch.expired:
                raise self._timeout() from None
            if _plain_http(exc):
                raise ServerError(f"Prometheus at {self.where} does not speak TLS at that address "
                                  f"({_why(exc)}); use http:// in place of https://.") from None
            raise ServerError(f"the connection to Prometheus at {self.where} failed ({_why(exc)}); "
                              "try again.") from None

    def _body(self, watch: _Watch, resp: Any, cap: int) -> bytes:
        """The answer's body, read piece by piece: each read waits at most the time remaining."""
        coding = (resp.headers.get("Content-Encoding") or "identity").strip().lower()
        if coding != "identity":
            raise ServerError(f"Prometheus at {self.where} answered compressed "
                              f"({redact(coding, 20)}) although budgetlab asked for no "
                              "compression; check proxies in between.")
        length = resp.headers.get("Content-Length")
        if length is not None and length.strip().isdigit() and int(length) > cap:
            raise self._too_large(cap, resp.status)
        pieces: list[bytes] = []
        got = 0
        try:
            while True:
                rem = watch.remaining()
                if rem <= 0:
                    raise TimeoutError
                sock = getattr(resp.connection, "sock", None)
                if sock is not None:
                    sock.settimeout(rem)
                piece = resp.read1(_PIECE)
                if not piece:
                    break
                got += len(piece)
                if got > cap:
                    raise self._too_large(cap, resp.status)
                pieces.append(piece)
        except (TimeoutError, urllib3.exceptions.TimeoutError):
            raise self._timeout() from None
        except urllib3.exceptions.ProtocolError as exc:
            if watch.expired:
                raise self._timeout() from None
            raise ServerError(f"the answer of Prometheus at {self.where} was cut short after "
                              f"{got:,} bytes ({_why(exc)}); try again, or ask its operator."
                              ) from None
        except (Urllib3Error, OSError) as exc:
            if watch.expired:
                raise self._timeout() from None
            raise ServerError(f"reading the answer of Prometheus at {self.where} failed "
                              f"({_why(exc)}); try again.") from None
        if watch.expired:
            raise self._timeout()
        return b"".join(pieces)

    def _redirect(self, url: str, location: str | None) -> str:
        if not location:
            raise ServerError(f"Prometheus at {self.where} answered a redirect without a Location; "
                              "check the URL.")
        try:
            target = urllib.parse.urljoin(url, location.strip())
            same = _origin(target) == _origin(url)
        except ValueError:  # "http://[::1": not a URL
            raise ServerError(f"Prometheus at {self.where} answered a redirect to a URL that "
                              "cannot be read; check the URL.") from None
        if not same:
            raise RedirectRefused(f"Prometheus at {self.where} redirected to another server "
                                  f"({shown_target(target)}); budgetlab does not follow it, "
                                  "so your credentials stay with the server you named: give that "
                                  "URL if you trust it.")
        return target

    def remaining(self) -> float:
        """Seconds left before the deadline (negative once it passed)."""
        return self.deadline - time.monotonic()

    def _timeout(self) -> DeadlineError:
        via = f" (through the proxy {redact_url(self.proxy[0])})" if self.proxy else ""
        return DeadlineError(f"Prometheus at {self.where}{via} did not answer within "
                             f"{self.timeout:g} s, the deadline of the whole read; raise "
                             f"{say('timeout=', '--timeout')} or query a shorter span.")

    def _proxy_failed(self, exc: urllib3.exceptions.ProxyError) -> ServerError:
        """The proxy could not be reached or refused the tunnel (its status line, e.g. 407)."""
        proxy, var = self.proxy or ("", "")
        inner = exc.original_error
        said = (str(inner) if "Tunnel connection failed" in str(inner) else
                getattr(inner.__cause__ or inner.__context__, "strerror", None) or _why(inner))
        return ServerError(f"the proxy {redact_url(proxy)} ({var}) did not connect to Prometheus "
                           f"at {self.where}: {redact(said, 80)}; check the proxy (and its "
                           "credentials), or add the server's host to NO_PROXY.")

    def _too_large(self, cap: int, status: int) -> ServerError:
        if status >= 300:  # an error text's cap is fixed (ERROR_TEXT_CAP): max_series plays no part
            return ServerError(f"Prometheus at {self.where} answered HTTP {status} with an error "
                               f"text longer than {ERROR_TEXT_CAP // 1024} KiB (not read); check "
                               "the query and the URL, or ask the server's operator.")
        return ServerError(f"the answer of Prometheus at {self.where} is larger than {cap:,} bytes "
                           f"{self.cap_fix}.")


def _plain_http(exc: BaseException) -> bool:
    """Whether ``exc`` is the TLS handshake meeting a server that answers plain HTTP (OpenSSL's
    ``WRONG_VERSION_NUMBER``: its first bytes are not a TLS record)."""
    seen: list[object] = [exc]
    while seen:
        e = seen.pop()
        if isinstance(e, ssl.SSLError) and e.reason == "WRONG_VERSION_NUMBER":
            return True
        if isinstance(e, BaseException) and len(seen) < 20:
            seen += [e.__cause__, e.__context__, *e.args[:2]]
    return False


def _why(exc: BaseException) -> str:
    inner = exc.__cause__ or exc.__context__ or exc
    if isinstance(inner, urllib3.exceptions.ProtocolError) and inner.args[1:]:
        inner = inner.args[1]
    name = type(inner).__name__
    if name == "IncompleteRead":
        return "shorter than its Content-Length"
    return getattr(inner, "strerror", None) or name


