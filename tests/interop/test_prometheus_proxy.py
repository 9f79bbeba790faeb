"""read_prometheus through the proxies the environment names (HTTP_PROXY, HTTPS_PROXY, NO_PROXY),
against a fake proxy on 127.0.0.1 in a thread (port 0, stopped by its fixture whatever happens).

The fake forwards an ``http`` request (absolute form) to the fake Prometheus of
test_prometheus_hostile.py and answers a CONNECT with 200, then keeps every byte the client sends
into the tunnel (no server behind it: the TLS handshake fails, which is the point: what a proxy
of an ``https`` server gets to see is a host, a port and TLS records). Every loop is bounded (a
byte budget, a stop flag, socket timeouts).
"""

from __future__ import annotations

import base64
import http.client
import socket
import socketserver
import threading
import time
import urllib.parse
from collections.abc import Iterator

import pandas as pd
import pytest

from budgetlab.cli import main
from budgetlab.errors import ConfigError, ServerError
from tests.interop.test_prometheus_hostile import START, _read, serving
from tests.interop.test_prometheus_hostile import fake as fake  # noqa: F401 (the fixture)

SECRET = "TOPSECRET"
BASIC = base64.b64encode(b"bob:pa55word").decode()
BUDGET = 1 << 20  # bytes one connection may send the fake before it stops reading


class Proxy(socketserver.ThreadingTCPServer):
    """``mode``: ``relay`` (forward http, sink a tunnel), ``refuse`` (407 to everything),
    ``trickle`` (answer CONNECT one byte every 0.05 s)."""

    daemon_threads = True

    def __init__(self, mode: str = "relay") -> None:
        super().__init__(("127.0.0.1", 0), _ProxyHandler)
        self.mode = mode
        self.heads: list[str] = []  # every request head the proxy received
        self.tunnelled = bytearray()  # what clients sent inside their tunnels
        self.stop = threading.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _ProxyHandler(socketserver.StreamRequestHandler):
    server: Proxy
    timeout = 5

    def handle(self) -> None:
        head = b""
        while not head.endswith(b"\r\n\r\n") and len(head) < 65536:
            line = self.rfile.readline(8192)
            if not line:
                return
            head += line
        text = head.decode("latin-1")
        self.server.heads.append(text)
        method, target, _ = text.split("\r\n")[0].split(" ", 2)
        if self.server.mode == "refuse":
            self.wfile.write(b"HTTP/1.1 407 Proxy Authentication Required\r\n"
                             b"Content-Length: 0\r\nConnection: close\r\n\r\n")
        elif method == "CONNECT" and self.server.mode == "trickle":
            for byte in b"HTTP/1.1 200 Connection established\r\nX-Filler: " + b"x" * 400:
                if self.server.stop.wait(0.05):
                    return
                try:
                    self.wfile.write(bytes([byte]))
                except OSError:  # the client hung up
                    return
        elif method == "CONNECT":
            self.wfile.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            self._sink()
        else:
            self._forward(method, target, text)

    def _sink(self) -> None:
        """Keep what the client sends into the tunnel, until it stops (1 s quiet) or hangs up."""
        self.connection.settimeout(1.0)
        while len(self.server.tunnelled) < BUDGET and not self.server.stop.is_set():
            try:
                data = self.connection.recv(65536)
            except (TimeoutError, OSError):
                return
            if not data:
                return
            self.server.tunnelled += data

    def _forward(self, method: str, target: str, head: str) -> None:
        """An absolute-form request, passed on to its server; the answer passed back."""
        headers = dict(line.split(": ", 1) for line in head.split("\r\n")[1:] if ": " in line)
        body = self.rfile.read(int(headers.get("Content-Length", "0")))
        url = urllib.parse.urlsplit(target)
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=5)
        try:
            conn.request(method, url.path + (f"?{url.query}" if url.query else ""), body=body,
                         headers={k: v for k, v in headers.items()
                                  if not k.lower().startswith("proxy-")})
            resp = conn.getresponse()
            payload = resp.read()
        finally:
            conn.close()
        self.wfile.write(f"HTTP/1.1 {resp.status} {resp.reason}\r\n".encode())
        for k, v in resp.getheaders():
            if k.lower() not in ("connection", "content-length", "transfer-encoding"):
                self.wfile.write(f"{k}: {v}\r\n".encode())
        self.wfile.write(f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n".encode())
        self.wfile.write(payload)


@pytest.fixture()
def proxy() -> Iterator[Proxy]:
    with serving(Proxy()) as server:
        yield server


def _free_port() -> int:
    """A port nothing listens on (an https server the proxy's tunnel never reaches)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_http_server_is_read_through_the_proxy(fake, proxy, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    bins = _read(fake.url)
    assert bins["total"].tolist() == [5] * 10  # the fake's answer, passed on by the proxy
    # every request went to the proxy, in absolute form, and reached the server through it
    assert proxy.heads and all(h.split(" ")[1].startswith(fake.url + "/api/v1/")
                               for h in proxy.heads)
    assert len(fake.seen) == len(proxy.heads)


def test_no_proxy_reaches_the_server_directly(fake, proxy, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    monkeypatch.setenv("NO_PROXY", "example.org,127.0.0.1")
    assert _read(fake.url)["total"].tolist() == [5] * 10
    assert proxy.heads == [] and fake.seen


def test_an_https_server_is_tunnelled_and_the_proxy_sees_no_credentials(proxy, monkeypatch):
    monkeypatch.setenv("HTTPS_PROXY", proxy.url)
    port = _free_port()
    with pytest.raises(ServerError, match=rf"Prometheus at https://127\.0\.0\.1:{port}"):
        _read(f"https://bob:pa55word@127.0.0.1:{port}", headers={"X-Api-Key": SECRET}, retries=0)
    # the proxy was asked for tunnels to the host and port (one per connection), nothing else
    assert proxy.heads
    assert all(h.startswith(f"CONNECT 127.0.0.1:{port} HTTP/1.") for h in proxy.heads)
    # inside the tunnel: a TLS handshake record (content type 22, version 3.x), never the request
    assert bytes(proxy.tunnelled[:2]) == b"\x16\x03"
    for seen in (*(h.encode() for h in proxy.heads), bytes(proxy.tunnelled)):
        assert SECRET.encode() not in seen and BASIC.encode() not in seen
        assert b"pa55word" not in seen and b"Authorization" not in seen


def test_a_proxy_that_refuses_says_so_and_keeps_its_credentials(proxy, monkeypatch, capsys):
    proxy.mode = "refuse"
    monkeypatch.setenv("HTTPS_PROXY", proxy.url.replace("http://", "http://alice:pr0xy@"))
    port = _free_port()
    with pytest.raises(ServerError) as info:
        _read(f"https://127.0.0.1:{port}", retries=0)
    assert str(info.value).startswith(
        f"the proxy {proxy.url} (HTTPS_PROXY) did not connect to Prometheus at "
        f"https://127.0.0.1:{port}: Tunnel connection failed: 407 Proxy Authentication Required")
    assert "NO_PROXY" in str(info.value) and "pr0xy" not in str(info.value)
    # the proxy's own credentials went to the proxy, as Proxy-Authorization
    sent = dict(line.split(": ", 1) for line in proxy.heads[0].split("\r\n")[1:] if ": " in line)
    (name,) = [k for k in sent if k.lower() == "proxy-authorization"]  # a name in any case
    assert sent[name] == "Basic " + base64.b64encode(b"alice:pr0xy").decode()
    rc = main(["backtest", "--prometheus", f"https://127.0.0.1:{port}", "--total", "a_total",
               "--errors", "b_total", "--target", "0.99", "--policy", "workbook", "--start",
               str(START.tz_localize(None)), "--end",
               str((START + pd.Timedelta("10min")).tz_localize(None)), "--freq", "1min"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "407" in err and "pr0xy" not in err


def test_the_deadline_covers_the_proxys_answer_to_connect(proxy, monkeypatch):
    proxy.mode = "trickle"  # 450 bytes over 22 s
    monkeypatch.setenv("HTTPS_PROXY", proxy.url)
    began = time.monotonic()
    with pytest.raises(ServerError, match=r"through the proxy .* did not answer within 1 s"):
        _read(f"https://127.0.0.1:{_free_port()}", timeout=1, retries=0)
    assert time.monotonic() - began < 10


def test_a_socks_proxy_is_refused_with_the_fix(monkeypatch, capsys):
    monkeypatch.setenv("HTTPS_PROXY", "socks5://bob:pw@127.0.0.1:1080")
    with pytest.raises(ConfigError, match=r"HTTPS_PROXY names a socks5 proxy "
                                          r"\(socks5://127\.0\.0\.1:1080\) .*NO_PROXY"):
        _read("https://127.0.0.1:9")
