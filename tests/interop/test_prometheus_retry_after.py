"""The Prometheus client keeps a 429 / 503 answer's ``Retry-After`` (stop 62's stranger: it was
not honoured): the wait asked for replaces the backoff's before the one retry, and a wait that
would end past the ``--timeout`` deadline is refused at once, saying so. Against the hostile
fake Prometheus on 127.0.0.1 (its fixture, ``fake``)."""

from __future__ import annotations

import json
import time

import pandas as pd
import pytest

from budgetlab.cli import main
from budgetlab.interop import prometheus_http
from budgetlab.interop.http_origin import DeadlineError
from budgetlab.interop.prometheus_source import read_prometheus

from .test_prometheus_hostile import START, fake  # noqa: F401  (fake: the fixture)

N = 10  # one-minute bins, as the fake's answers
T0 = START.value // 10**9 + 60
MATRIX = json.dumps({"status": "success", "data": {"resultType": "matrix", "result": [
    {"metric": {}, "values": [[T0 + 60 * i, "5"] for i in range(N)]}]}}).encode()
BUSY = json.dumps({"status": "error", "errorType": "unavailable", "error": "busy"}).encode()


def read(url, **kw):
    return read_prometheus(url, total="a_total", errors="b_total", start=START,
                           end=START + N * pd.Timedelta("1min"), **kw)


@pytest.fixture(autouse=True)
def short_backoff(monkeypatch):
    """The backoff's own first wait: 0.01 s, far below the 1 s the server asks for."""
    monkeypatch.setattr(prometheus_http, "BACKOFF_SECONDS", 0.01)


def test_a_retry_after_within_the_deadline_is_waited_then_asked_again(fake):  # noqa: F811
    asked: dict[str, list[float]] = {}

    def act(h, body):
        times = asked.setdefault(body["query"][0], [])
        times.append(time.monotonic())
        if len(times) == 1:
            h.send(429, BUSY, {"Retry-After": "1"})
        else:
            h.send(200, MATRIX)

    fake.act = act
    bins = read(fake.url, timeout=20)
    assert bins["total"].tolist() == [5] * N  # the retry's answer, read
    assert len(asked) == 2  # the total and the errors queries, each asked twice
    for times in asked.values():
        assert len(times) == 2
        assert times[1] - times[0] >= 1.0  # the server's 1 s, not the backoff's 0.01 s


def test_a_retry_after_past_the_deadline_is_refused_at_once(fake, capsys):  # noqa: F811
    calls = []

    def act(h, body):
        calls.append(1)
        h.send(503, BUSY, {"Retry-After": "120"})

    fake.act = act
    began = time.monotonic()
    with pytest.raises(DeadlineError) as err:
        read(fake.url, timeout=5)
    assert time.monotonic() - began < 4  # not the 5 s deadline waited out, nor 120 s
    said = str(err.value)
    assert (f"Prometheus at {fake.url} answered HTTP 503 and asked to wait 120 s before asking "
            "again (Retry-After), beyond the 5 s deadline of the whole read (") in said
    assert said.endswith("s left); try again in 120 s, or raise timeout= above the wait.")
    assert len(calls) <= 2  # each query asked once: no retry sooner than the server said
    rc = main(["backtest", "--prometheus", fake.url, "--total", "a_total", "--errors",
               "b_total", "--target", "0.99", "--policy", "workbook",
               "--start", str(START.tz_localize(None)),
               "--end", str((START + N * pd.Timedelta("1min")).tz_localize(None)),
               "--freq", "1min", "--timeout", "5"])
    err_text = capsys.readouterr().err
    assert rc == 2 and err_text.count("\n") == 1
    assert "asked to wait 120 s before asking again (Retry-After), beyond the 5 s" in err_text
    assert err_text.rstrip().endswith("or raise --timeout above the wait.")
