"""What ``read_prometheus`` and ``budgetlab backtest`` say at the edges of the HTTP exchange: a
404 names the URL's path as the fault, a redirect elsewhere shows where it points. The fake
server runs on 127.0.0.1 and is stopped by its fixture."""

from __future__ import annotations

import re

import pytest

from budgetlab.errors import ConfigError
from tests.interop.test_prometheus_hostile import EMAIL, Fake, _backtest, _read, serving


def _not_found(h, body: dict) -> None:
    h.send(404, b"404 page not found\n", {"Content-Type": "text/plain"})


def test_a_404_says_the_path_is_wrong(fake: Fake, capsys):
    fake.act = _not_found
    with pytest.raises(ConfigError) as refused:
        _read(fake.url + "/foo")
    said = str(refused.value)
    assert said.startswith(f"Prometheus at {fake.url}/foo has no /api/v1/query_range (HTTP 404)")
    assert "the URL's path is wrong" in said and "/api/v1/" in said
    assert "fix the query" not in said
    rc, err = _backtest(fake.url + "/foo", capsys)
    assert rc == 2 and err.count("\n") == 1 and "the URL's path is wrong" in err
    assert "fix the query" not in err
    # a query the server cannot run is still the query's fault
    fake.act = lambda h, body: h.send(400, b'{"status":"error","errorType":"bad_data",'
                                           b'"error":"parse error"}')
    with pytest.raises(ConfigError, match=r"refused the query \(HTTP 400\): bad_data: parse "
                                          r"error; fix the query"):
        _read(fake.url)


def test_the_cli_shows_a_loopback_redirect_target(fake: Fake, capsys):
    with serving(Fake()) as other:
        fake.act = lambda h, body: h.send(302, b"", {
            "Location": f"{other.url}/x/{EMAIL}/api/v1/query_range?user={EMAIL}"})
        rc, err = _backtest(fake.url, capsys)
        assert rc == 2 and err.count("\n") == 1
        flat = " ".join(err.split())
        port = other.server_address[1]
        assert re.search(rf"redirected to another server \(http://127\.0\.0\.1:{port}/x/\[hidden\]"
                         r"/api/v1/query_range\); budgetlab does not follow it", flat), flat
        assert EMAIL not in err and "looks like personal data" not in err
        assert other.seen == []


@pytest.fixture()
def fake():
    with serving(Fake()) as server:
        yield server
