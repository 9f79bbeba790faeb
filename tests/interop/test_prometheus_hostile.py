"""read_prometheus and ``budgetlab backtest`` against a hostile fake Prometheus on 127.0.0.1.

The fake is an ``http.server`` in a thread (port 0, stopped by its fixture whatever happens);
every loop it runs is bounded (a byte budget and a stop flag), so a client that does not stop
cannot keep a test running. Each test sets what the server does to the count queries
(``/api/v1/query_range`` without ``count_over_time``); ``/api/v1/series`` answers an empty index
and the scrape-gap queries an empty matrix, so a read is 2 + 2 requests.
"""

from __future__ import annotations

import base64
import contextlib
import http.server
import json
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from typing import Any

import pandas as pd
import pytest

from budgetlab.cli import main
from budgetlab.errors import ConfigError, ServerError
from budgetlab.interop import prometheus_http
from budgetlab.interop.prometheus_source import read_prometheus
from budgetlab.privacy import redact

START = pd.Timestamp("2026-01-05 00:00", tz="UTC")
N = 10  # bins of one minute: evaluation times START + 1 min .. START + 10 min
T0 = START.value // 10**9 + 60
EMAIL = "ivan.petrov@example.org"


def _matrix(result: list[dict]) -> bytes:
    return json.dumps({"status": "success", "data": {"resultType": "matrix",
                                                     "result": result}}).encode()


def _values(value: str = "5", times: list[float] | None = None) -> list[list]:
    return [[t, value] for t in (times if times is not None else [T0 + 60 * i for i in range(N)])]


class Fake(http.server.ThreadingHTTPServer):
    """The fake server: ``act(handler, body)`` answers the count queries; requests are logged."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.act: Callable[[_Handler, dict], None] = lambda h, body: h.send(
            200, _matrix([{"metric": {}, "values": _values()}])
        )
        self.seen: list[tuple[str, dict[str, str]]] = []
        self.series_act: Callable[[_Handler, dict], None] | None = None  # /api/v1/series
        self.stop = threading.Event()
        self.sent = 0  # bytes written by the bounded loops

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(http.server.BaseHTTPRequestHandler):
    server: Fake
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        self._answer(urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query))

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        self._answer(urllib.parse.parse_qs(self.rfile.read(length).decode()))

    def _answer(self, body: dict) -> None:
        self.server.seen.append((self.path, dict(self.headers)))
        if self.path.startswith("/api/v1/series") and self.server.series_act is not None:
            self.server.series_act(self, body)
        elif self.path.startswith("/api/v1/series"):
            self.send(200, json.dumps({"status": "success", "data": []}).encode())
        elif "count_over_time(" in body.get("query", [""])[0]:  # scrape gaps: none
            self.send(200, _matrix([]))
        else:
            self.server.act(self, body)

    def send(self, code: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        for k, v in {"Content-Length": str(len(payload)), **(headers or {})}.items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(payload)

    def trickle(self, data: bytes, every: float, limit: int = 400) -> None:
        """Write ``data`` one byte at a time, ``every`` seconds apart (at most ``limit`` bytes)."""
        for byte in data[:limit]:
            if self.server.stop.wait(every):
                return
            try:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
            except OSError:  # the client hung up: done
                return

    def endless(self, budget: int = 256 * 2**20) -> None:
        """A 200 answer without a length, then filler until the client hangs up (at most ``budget``
        bytes)."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Connection", "close")
        self.end_headers()
        filler = b'{"status":"success","data":{"resultType":"matrix","result":[' + b" " * 65000
        while self.server.sent < budget and not self.server.stop.is_set():
            try:
                self.wfile.write(filler)
            except OSError:
                return
            self.server.sent += len(filler)
        self.close_connection = True


@contextlib.contextmanager
def serving(server: Any) -> Iterator[Any]:
    """``server`` (with a ``stop`` event) answering in a thread, stopped whatever happens."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stop.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture()
def fake() -> Iterator[Fake]:
    with serving(Fake()) as server:
        yield server


def _read(url: str, **kw: object) -> pd.DataFrame:
    return read_prometheus(url, total="a_total", errors="b_total", start=START,
                           end=START + N * pd.Timedelta("1min"),
                           **kw)


def _backtest(url: str, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    rc = main(["backtest", "--prometheus", url, "--total", "a_total", "--errors", "b_total",
               "--target", "0.99",
               "--policy", "workbook", "--start", str(START.tz_localize(None)),
               "--end", str((START + N * pd.Timedelta("1min")).tz_localize(None)), "--freq", "1min",
               *extra])
    return rc, capsys.readouterr().err


def test_the_fake_answers_a_plain_read(fake):
    bins = _read(fake.url)
    assert bins["total"].tolist() == [5] * N and bins["bad"].tolist() == [5] * N


# -- redirects -------------------------------------------------------------------------------------

def test_a_redirect_to_another_origin_is_refused_and_nothing_reaches_it(fake, capsys):
    with serving(Fake()) as other:
        elsewhere = other.url.replace("127.0.0.1", "localhost")  # the same machine, another origin
        fake.act = lambda h, body: h.send(302, b"",
                                          {"Location": elsewhere + "/api/v1/query_range?x=1"})
        with pytest.raises(ServerError, match=r"redirected to another server \(http://localhost:\d+"
                                              r"/api/v1/query_range\); budgetlab does not follow "
                                              r"it"):
            _read(fake.url.replace("http://", "http://bob:pa55word@"),
                  headers={"X-Api-Key": "TOPSECRET"})
        # the server's address is shown (an IP address is a server's, not a person's data), so
        # the advice "give that URL" can be followed; a path part like an e-mail is hidden
        fake.act = lambda h, body: h.send(
            302, b"", {"Location": other.url.replace("http://", "http://bob:pw@")
                       + f"/u/{EMAIL}/api/v1/query_range?token=TOPSECRET"})
        with pytest.raises(ServerError) as refused:
            _read(fake.url)
        said = str(refused.value)
        assert f"another server ({other.url}/u/[hidden]/api/v1/query_range); budgetlab" in said
        assert EMAIL not in said and "TOPSECRET" not in said and "pw" not in said
        for url, header in ((fake.url.replace("http://", "http://bob:pa55word@"), ()),
                            (fake.url, ("--header", "Authorization: Bearer TOPSECRET"))):
            rc, err = _backtest(url, capsys, *header)  # (both at once: refused, never sent)
            assert rc == 2 and "redirected to another server" in err and err.count("\n") == 1
            assert "pa55word" not in err and "TOPSECRET" not in err
        assert other.seen == []  # not one request, with or without credentials


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
def test_a_redirect_on_the_same_server_is_followed_with_the_credentials(fake, code):
    def act(h: _Handler, body: dict) -> None:
        if h.path.startswith("/prom/"):
            h.send(200, _matrix([{"metric": {}, "values": _values("7")}]))
        else:
            h.send(code, b"", {"Location": "/prom" + h.path.split("?")[0]})

    fake.act = act
    bins = _read(fake.url.replace("http://", "http://bob:pa55word@"))
    assert bins["total"].tolist() == [7] * N
    followed = [hdrs for path, hdrs in fake.seen if path.startswith("/prom/")]
    expected = "Basic " + base64.b64encode(b"bob:pa55word").decode()
    assert len(followed) == 2 and all(h["Authorization"] == expected for h in followed)


def test_redirects_in_a_loop_end(fake):
    fake.act = lambda h, body: h.send(307, b"", {"Location": h.path})
    with pytest.raises(ServerError,
                       match=f"redirected more than {prometheus_http.MAX_REDIRECTS} times"):
        _read(fake.url)


# -- the deadline
# ------------------------------------------------------------------------------------

def _trickled_body(h: _Handler, body: dict) -> None:
    payload = _matrix([{"metric": {}, "values": _values()}])
    h.send_response(200)
    h.send_header("Content-Length", str(len(payload)))
    h.end_headers()
    h.trickle(payload, 0.05)  # 400 bytes over 20 s


def _trickled_headers(h: _Handler, body: dict) -> None:
    h.trickle(b"HTTP/1.1 200 OK\r\nX-Filler: " + b"x" * 500, 0.05)


@pytest.mark.parametrize("act", [_trickled_body, _trickled_headers], ids=["body", "headers"])
def test_timeout_is_a_deadline_for_the_whole_answer(fake, act, capsys):
    fake.act = act
    began = time.monotonic()
    with pytest.raises(ServerError, match=r"did not answer within 1 s"):
        _read(fake.url, timeout=1)
    # the trickle lasts 20 s; each read alone would wait 0.05 s: only a deadline stops it in time
    assert time.monotonic() - began < 10
    rc, err = _backtest(fake.url, capsys, "--timeout", "1")
    assert rc == 2 and "did not answer within 1 s" in err and err.count("\n") == 1


# -- size ------------------------------------------------------------------------------------------

def test_an_endless_answer_stops_at_the_cap(fake, capsys):
    fake.act = lambda h, body: h.endless()
    cap = prometheus_http.answer_cap(N, 1)
    with pytest.raises(ServerError,
                       match=rf"larger than {cap:,} bytes .*raise max_series= \(--max-series\)"):
        _read(fake.url, max_series=1)
    assert fake.sent < 16 * cap  # the client hung up near the cap (the rest is socket buffers)
    rc, err = _backtest(fake.url, capsys, "--max-series", "1")
    assert rc == 2 and "larger than" in err and err.count("\n") == 1


def test_a_declared_length_over_the_cap_is_refused_before_reading(fake):
    fake.act = lambda h, body: h.send(200, b" " * 10, {"Content-Length": str(10**12)})
    with pytest.raises(ServerError, match="larger than"):
        _read(fake.url, max_series=1)


def test_too_many_series(fake):
    fake.act = lambda h, body: h.send(200, _matrix([{"metric": {"g": str(i)}, "values": _values()}
                                                   for i in range(3)]))
    with pytest.raises(ServerError,
                       match=r"total: the answer holds 3 series, over the limit of 2; "
                             r".*max_series="):
        _read(fake.url, max_series=2)


# -- broken answers --------------------------------------------------------------------------------

def test_a_body_shorter_than_its_length_is_cut_short(fake, capsys):
    def act(h: _Handler, body: dict) -> None:
        payload = _matrix([{"metric": {}, "values": _values()}])
        h.send_response(200)
        h.send_header("Content-Length", str(len(payload) + 500))
        h.send_header("Connection", "close")
        h.end_headers()
        h.wfile.write(payload)
        h.close_connection = True

    fake.act = act
    with pytest.raises(ServerError,
                       match=r"was cut short after \d[\d,]* bytes \(shorter than its "
                             r"Content-Length\)"):
        _read(fake.url)
    rc, err = _backtest(fake.url, capsys)
    assert rc == 2 and "cut short" in err and err.count("\n") == 1 and "internal error" not in err


@pytest.mark.parametrize("values,message", [
    (_values(times=[T0 + 60 * i for i in range(N - 1)] + [1e300]),
     r"1 sample stamped outside the times asked \(first: 1e\+300 s since 1970\)"),
    (_values(times=[T0 + 60 * i + 30 for i in range(N - 1)]),
     r"9 samples between the evaluation times asked"),
    (_values(times=[T0, T0, *[T0 + 60 * i for i in range(2, N)]]),
     r"a series of the answer has 1 duplicate time"),
    (_values(times=[T0 + 60 * i for i in reversed(range(N))]), r"times out of order"),
    (_values("1e19"), r"10 values beyond 2\*\*53 \(largest 1e\+19\)"),
    (_values("1e300"), r"beyond 2\*\*53"),
    (_values("-1e19"), r"beyond 2\*\*53"),
], ids=["ts-1e300", "ts-off-grid", "ts-duplicate", "ts-order", "count-1e19", "count-1e300",
        "count-minus-1e19"])
def test_samples_that_cannot_be_counts_are_refused(fake, capsys, values, message):
    fake.act = lambda h, body: h.send(200, _matrix([{"metric": {}, "values": values}]))
    with pytest.raises(ServerError, match=message):
        _read(fake.url)
    rc, err = _backtest(fake.url, capsys)
    assert rc == 2 and err.count("\n") == 1 and "internal error" not in err


def test_two_series_with_the_same_labels_are_refused_not_merged(fake):
    twice = [{"metric": {"region": "fra"}, "values": _values()}, {"metric": {"region": "fra"},
                                                                  "values": _values("3")}]
    fake.act = lambda h, body: h.send(200, _matrix(twice))
    with pytest.raises(ServerError, match="1 series with the same labels as another"):
        _read(fake.url, by="region")


def test_the_slow_json_path_checks_the_same(fake):
    """Samples the fast decoder hands over (numbers as JSON numbers) are checked as strictly."""
    values = [[T0, 5], [T0, 5], *[[T0 + 60 * i, 5] for i in range(2, N)]]
    fake.act = lambda h, body: h.send(200, _matrix([{"metric": {}, "values": values}]))
    with pytest.raises(ServerError, match="duplicate time"):
        _read(fake.url)


def test_a_compressed_answer_not_asked_for(fake):
    fake.act = lambda h, body: h.send(200, b"\x1f\x8b" + b"\0" * 20, {"Content-Encoding": "gzip"})
    with pytest.raises(ServerError, match=r"answered compressed \('?gzip"):
        _read(fake.url)
    assert all(h.get("Accept-Encoding") == "identity" for _, h in fake.seen)


# -- the server's words
# ------------------------------------------------------------------------------

@pytest.mark.parametrize("code,error", [(400, ConfigError), (503, ServerError)])
def test_the_servers_error_text_passes_the_personal_data_filter(fake, capsys, monkeypatch, code,
                                                                error):
    monkeypatch.setattr(prometheus_http, "BACKOFF_SECONDS", 0.01)
    text = f"parse error: user {EMAIL} may not run queries from 192.0.2.7"
    fake.act = lambda h, body: h.send(code, json.dumps({"status": "error", "errorType": "bad_data",
                                                        "error": text}).encode())
    with pytest.raises(error) as info:
        _read(fake.url, retries=1)
    message = str(info.value)
    assert ("parse error: user [hidden: looks like personal data] may not run queries from "
            "[hidden") in message
    assert EMAIL not in message and "192.0.2.7" not in message
    rc, err = _backtest(fake.url, capsys)
    assert rc == 2 and EMAIL not in err and "192.0.2.7" not in err and err.count("\n") == 1


def test_an_e_mail_and_a_phone_number_are_each_replaced_the_rest_kept(fake):
    """Stop 60: with an e-mail and a phone number in digit groups the whole text was hidden,
    "parse error" with it. Oracle: the text with each finding replaced, written by hand."""
    text = "parse error: ask jane.doe@example.com or call +1 415 555 0199"
    fake.act = lambda h, body: h.send(400, json.dumps({"status": "error", "errorType": "bad_data",
                                                       "error": text}).encode())
    with pytest.raises(ConfigError) as info:
        _read(fake.url)
    message = str(info.value)
    assert ("bad_data: parse error: ask [hidden: looks like personal data] or call [hidden: looks "
            "like personal data]") in message
    assert not any(w in message for w in ("jane", "+1", "415", "555", "0199"))


def test_an_envelope_error_passes_the_filter_too(fake):
    fake.act = lambda h, body: h.send(200, json.dumps({"status": "error",
                                                       "error": f"ask {EMAIL}"}).encode())
    with pytest.raises(ServerError,
                       match=r"did not answer as the Prometheus API does: ask \[hidden") as info:
        _read(fake.url)
    assert EMAIL not in str(info.value)


def test_redact_hides_a_phone_number_written_over_several_words():
    # stop 60: the run of words is replaced, not the whole text (it was "[the text is not
    # shown: it looks like personal data]")
    assert redact("call +49 30 1234567 for "
                  "access") == "call [hidden: looks like personal data] for access"
    assert redact("x" * 1000, limit=50) == "x" * 50 + " …"
    assert redact("a  b\n\tc") == "a b c"
