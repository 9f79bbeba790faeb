"""``backtest``'s check that a histogram bucket in the SLI's queries is one the server has asks
the server's series index (``/api/v1/series``). When the index fails, the check is not made, and
"how it was read" says so in one note, naming the buckets left unchecked; it was skipped
silently. Against the fake on 127.0.0.1 (``test_prometheus_hostile.Fake``), whose count queries
answer 10 for ``h_count`` and 9 for the bucket in each of the N = 10 bins: by hand, 100 events,
10 failed."""

from __future__ import annotations

import json

from budgetlab.cli import main
from budgetlab.interop.prometheus_histogram import check_bucket_selectors
from budgetlab.interop.prometheus_http import PrometheusClient
from tests.interop.test_prometheus_hostile import (
    Fake,
    _Handler,
    _matrix,
    _values,
    fake,  # noqa: F401  (the fixture)
)

BUCKET = 'h_bucket{le="0.5"}'


def _counts(h: _Handler, body: dict) -> None:
    value = "10" if "h_count" in body["query"][0] else "9"
    h.send(200, _matrix([{"metric": {}, "values": _values(value)}]))


def _boom(h: _Handler, body: dict) -> None:
    h.send(500, json.dumps({"status": "error", "errorType": "internal",
                            "error": "index down"}).encode())


def _series_asked(server: Fake) -> int:
    return sum(path.startswith("/api/v1/series") for path, _ in server.seen)


def test_the_check_returns_the_note_and_asks_the_index_once(fake):  # noqa: F811
    fake.series_act = _boom
    client = PrometheusClient(fake.url, timeout=10, retries=0)
    notes = check_bucket_selectors(client, {"good": [BUCKET], "errors": ['h_bucket{le="1"}']},
                                   start_ns=0, end_ns=60 * 10**9)
    assert notes == (
        "the server's series index (/api/v1/series) failed (HTTP 500 after 1 attempt: internal: "
        "index down); not checked against the histogram's bounds: the good query's "
        'h_bucket{le="0.5"} and the errors query\'s h_bucket{le="1"} (a bound the histogram '
        "does not have would read every event as bad)",)
    assert _series_asked(fake) == 1  # not asked again once it failed


def test_a_check_the_index_answers_says_nothing(fake):  # noqa: F811
    client = PrometheusClient(fake.url, timeout=10, retries=0)  # the index: no such series
    assert check_bucket_selectors(client, {"good": [BUCKET], "total": ["h_count"]},
                                  start_ns=0, end_ns=60 * 10**9) == ()


def _backtest_with_the_index_down(server, capsys):
    """``backtest`` of a histogram's good bucket while /api/v1/series answers 500: exit 0,
    nothing on stderr; what it printed."""
    server.act = _counts
    server.series_act = _boom
    rc = main(["backtest", "--prometheus", server.url, "--total", "h_count", "--good", BUCKET,
               "--target", "0.99", "--policy", "workbook", "--start", "2026-01-05T00:00",
               "--end", "2026-01-05T00:10", "--freq", "1min"])
    out = capsys.readouterr()
    assert (rc, out.err) == (0, "")
    return out


def test_the_cli_says_the_unchecked_bucket_under_how_it_was_read(fake, capsys):  # noqa: F811
    out = _backtest_with_the_index_down(fake, capsys)
    said = " ".join(out.out.split())  # the lines as wrapped, joined
    assert "1 group, 100 events, 10 failed" in said
    how = said[said.index("How it was read:"):]
    assert ("the server's series index (/api/v1/series) failed (HTTP 500 after 4 attempts: "
            "internal: index down); not checked against the histogram's bounds: the good "
            'query\'s h_bucket{le="0.5"} (a bound the histogram does not have would read every '
            "event as bad)") in how


def test_the_index_failing_is_said_in_one_sentence_and_asked_once(fake, capsys):  # noqa: F811
    """Stop 61: the bucket check and the reader each asked the failing index (4 attempts each: 8
    requests) and each said so in a note of its own. The index is asked once (its 4 attempts),
    and one sentence says both what was not checked and what was read without it."""
    out = _backtest_with_the_index_down(fake, capsys)
    said = " ".join(out.out.split())
    how = said[said.index("How it was read:"):said.index("Policy workbook")]
    assert how.count("series index") == 1
    assert ("the server's series index (/api/v1/series) failed (HTTP 500 after 4 attempts: "
            "internal: index down); not checked against the histogram's bounds: the good "
            'query\'s h_bucket{le="0.5"} (a bound the histogram does not have would read every '
            "event as bad); total and good read without the index, with the full query form "
            "(sums, and the series that appear or disappear): the same counts, more work for "
            "the server") in how
    assert _series_asked(fake) == 4  # one failing index, asked once (with its 3 retries)
