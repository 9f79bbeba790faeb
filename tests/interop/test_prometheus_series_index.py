"""Failures of ``/api/v1/series`` itself, against the hostile fake on 127.0.0.1
(``test_prometheus_hostile.Fake``): a redirect to another server is refused as for the count
queries; a 5xx, 404 or unreadable answer is read without the index, said in one note.

The fake answers the count query of ``a_total`` 7 and of ``b_total`` 2 in each of the N = 10
bins: by hand, total 7 and bad 2 per bin, 70 events and 20 failed in all.
"""

from __future__ import annotations

import json

import pytest

from budgetlab.cli import main
from budgetlab.errors import ServerError
from tests.interop.test_prometheus_hostile import (
    EMAIL,
    Fake,
    _Handler,
    _matrix,
    _read,
    _values,
    fake,  # noqa: F401  (the fixture)
    serving,
)

_TAIL = ("total and errors read without the index, with the full query form (sums, and the "
         "series that appear or disappear): the same counts, more work for the server")


def _counts(h: _Handler, body: dict) -> None:
    value = "7" if "a_total" in body["query"][0] else "2"
    h.send(200, _matrix([{"metric": {}, "values": _values(value)}]))


def _series_asked(server: Fake) -> int:
    return sum(path.startswith("/api/v1/series") for path, _ in server.seen)


def _backtest_out(url: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    rc = main(["backtest", "--prometheus", url, "--total", "a_total", "--errors", "b_total",
               "--target", "0.99", "--policy", "workbook", "--start", "2026-01-05T00:00",
               "--end", "2026-01-05T00:10", "--freq", "1min"])
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.parametrize(("answer", "why"), [
    (lambda h, body: h.send(500, json.dumps({"status": "error", "errorType": "internal",
                                             "error": f"boom, ask {EMAIL}"}).encode()),
     "HTTP 500 after 1 attempt: internal: boom, ask [hidden: looks like personal data]"),
    (lambda h, body: h.send(404, b"404 page not found"), "HTTP 404"),
    (lambda h, body: h.send(200, b"<html>Login</html>"),
     "an answer that is not the Prometheus API's JSON"),
    (lambda h, body: h.send(200, b'{"status":"success","data":[{"__name__": 5}, "x", null]}'),
     "an answer that is not a list of label sets"),
])
def test_a_failed_series_index_is_read_around_and_said_in_one_note(fake, answer, why):  # noqa: F811
    fake.act = _counts
    fake.series_act = answer
    bins = _read(fake.url, retries=0)
    assert bins["total"].tolist() == [7] * 10 and bins["bad"].tolist() == [2] * 10
    note = f"the server's series index (/api/v1/series) failed ({why}); {_TAIL}"
    assert bins.attrs["notes"].count(note) == 1
    assert _series_asked(fake) == 1  # not asked again for errors once it failed
    assert bins.attrs["source"]["requests"] == 5  # the index once, 2 counts, 2 gap queries


def test_the_cli_says_the_failed_index_under_how_it_was_read(fake, capsys):  # noqa: F811
    fake.act = _counts
    fake.series_act = lambda h, body: h.send(503, b"{}")
    rc, out, err = _backtest_out(fake.url, capsys)
    assert rc == 0 and err == ""
    said = " ".join(out.split())  # the lines as wrapped, joined
    assert "1 group, 70 events, 20 failed; 8 HTTP requests" in said  # the index 4 times, 4 queries
    assert (f"the server's series index (/api/v1/series) failed (HTTP 503 after 4 attempts); "
            f"{_TAIL}") in said


def test_a_series_index_redirected_to_another_server_is_refused_as_the_queries_are(
        fake, capsys):  # noqa: F811
    fake.act = _counts
    with serving(Fake()) as other:
        elsewhere = other.url.replace("127.0.0.1", "localhost")  # the same machine, another origin
        fake.series_act = lambda h, body: h.send(302, b"",
                                                 {"Location": elsewhere + "/api/v1/series"})
        words = (f"Prometheus at {fake.url} redirected to another server ({elsewhere}"
                 "/api/v1/series); budgetlab does not follow it, so your credentials stay with "
                 "the server you named: give that URL if you trust it.")
        with pytest.raises(ServerError) as refused:
            _read(fake.url, headers={"Authorization": "Bearer TOPSECRET"})
        assert str(refused.value) == words
        rc, out, err = _backtest_out(fake.url, capsys)
        assert (rc, out, err) == (2, "", f"budgetlab: error: {words}\n")
        assert other.seen == []
    assert all(path.startswith("/api/v1/series") for path, _ in fake.seen)  # no query sent
