"""Stop 56 defects of the Prometheus reading, against the hostile fake on 127.0.0.1
(``test_prometheus_hostile.Fake``): URLs read leniently (a port dropped, with the credentials
sent to port 80; ``http://[::1`` an internal error), label values in several spellings, counts
of ``2**53`` read inexactly, and ``--timeout`` per answer instead of one deadline for the read.
"""

from __future__ import annotations

import json
import socket
import time

import pandas as pd
import pytest

from budgetlab.errors import ConfigError, InputError, ServerError
from tests.interop.test_prometheus_hostile import (
    N,
    _backtest,
    _Handler,
    _matrix,
    _read,
    _values,
    fake,  # noqa: F401  (the fixture)
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- the URL --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("url", "part"), [
    ("http://127.0.0.1:99999", "the port '99999', outside 1 to 65535"),
    ("http://127.0.0.1:9o90", "the port '9o90', which is not a number"),
    ("http://127.0.0.1:abc", "the port 'abc', which is not a number"),
    ("http://127.0.0.1:0", "the port '0', outside 1 to 65535"),
    ("http://127.0.0.1:", "a ':' after the host but no port"),
    ("http://u:p@127.0.0.1:99999", "the port '99999', outside 1 to 65535"),
    ("http://[::1", "is not a URL that can be read (a '[' of an IPv6 address without its ']'"),
    ("http://127.0.0.1:9090/?token=x", "holds a query string"),
    ("http://:9090", "names no host"),
])
def test_a_url_read_leniently_before_is_refused_naming_the_bad_part(url, part, capsys):
    with pytest.raises(ConfigError) as info:
        _read(url, headers={"Authorization": "Bearer X"})
    assert str(info.value).startswith("url= ") and part in str(info.value)
    assert "u:p" not in str(info.value)
    rc, err = _backtest(url, capsys, "--header", "Authorization: Bearer X")
    assert rc == 2 and err.count("\n") == 1 and "internal error" not in err
    assert err.startswith("budgetlab: error: --prometheus ") and part in err


def test_the_port_is_shown_and_used_as_typed(fake, capsys):  # noqa: F811
    port = fake.server_address[1]
    bins = _read(f"http://127.0.0.1:0{port}")  # a leading zero: the same port
    assert bins.attrs["source"]["url"] == f"http://127.0.0.1:0{port}"
    closed = _free_port()
    with pytest.raises(ServerError,
                       match=rf"^cannot reach Prometheus at http://127.0.0.1:0{closed} \("):
        _read(f"http://127.0.0.1:0{closed}")


def test_a_proxy_with_a_port_that_is_none_is_refused(fake, monkeypatch):  # noqa: F811
    for var in ("NO_PROXY", "no_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HTTP_PROXY", "http://user:pw@127.0.0.1:99999")
    with pytest.raises(ConfigError, match=r"^HTTP_PROXY has the port '99999'") as info:
        _read(fake.url)
    assert "pw" not in str(info.value)
    assert fake.seen == []


def test_a_redirect_to_a_url_that_cannot_be_read_is_one_error(fake):  # noqa: F811
    fake.act = lambda h, body: h.send(302, b"", {"Location": "http://[::1"})
    with pytest.raises(ServerError, match="redirect to a URL that cannot be read"):
        _read(fake.url)


# -- label values as group keys -------------------------------------------------------------------

def _by_metric(answers: dict[str, list[dict]]):
    """An ``act`` answering the count query of ``a_total`` / ``b_total`` with its series."""
    def act(h: _Handler, body: dict) -> None:
        query = body.get("query", [""])[0]
        h.send(200, _matrix(answers["a" if "a_total" in query else "b"]))
    return act


def test_label_values_with_invisible_characters_are_refused_counted(fake, capsys):  # noqa: F811
    series = [{"metric": {"region": r}, "values": _values()} for r in ("fra", "fr\u200ba")]
    fake.act = _by_metric({"a": series, "b": series})
    with pytest.raises(InputError, match=r"the values of the label 'region' hold invisible "
                                         r"characters .* in 1 value; they would make groups"):
        _read(fake.url, by="region")
    rc, err = _backtest(fake.url, capsys, "--by", "region")
    assert rc == 2 and err.count("\n") == 1 and "invisible characters" in err
    # the reader's own list of what counts as invisible, not a shorter one of its own
    assert "variation selectors, fillers or control characters" in err


def test_two_spellings_of_a_label_value_are_one_group(fake):  # noqa: F811
    nfc, nfd = "K\u00f6ln", "Ko\u0308ln"
    fake.act = _by_metric({
        "a": [{"metric": {"region": nfc}, "values": _values("5")},
              {"metric": {"region": nfd}, "values": _values("3")},
              {"metric": {"region": "fra"}, "values": _values("4")}],
        "b": [{"metric": {"region": nfc}, "values": _values("1")},
              {"metric": {"region": nfd}, "values": _values("1")},
              {"metric": {"region": "fra"}, "values": _values("0")}],
    })
    bins = _read(fake.url, by="region")
    assert sorted(bins["region"].cat.categories) == sorted(["fra", nfc])
    koln = bins[bins["region"] == nfc]
    assert len(koln) == N and (koln["total"] == 8).all() and (koln["bad"] == 2).all()
    assert any("1 group written in several spellings" in n for n in bins.attrs["notes"])


# -- counts a float holds exactly -----------------------------------------------------------------

@pytest.mark.parametrize("value", ["9007199254740992", "9007199254740993", "-9007199254740992"])
def test_a_count_of_2_to_the_53_or_more_is_refused(fake, capsys, value):  # noqa: F811
    fake.act = lambda h, body: h.send(200, _matrix([{"metric": {},
                                                     "values": _values(str(2**53 - 1))}]))
    assert (_read(fake.url)["total"] == 2**53 - 1).all()  # the largest exact count is read
    fake.act = lambda h, body: h.send(200, _matrix([{"metric": {}, "values": _values(value)}]))
    with pytest.raises(ServerError, match=r"10 values beyond 2\*\*53"):
        _read(fake.url)
    rc, err = _backtest(fake.url, capsys)
    assert rc == 2 and err.count("\n") == 1 and "beyond 2**53" in err


# -- one deadline for the whole read --------------------------------------------------------------

def _trickled_series(h: _Handler, body: dict) -> None:
    h.trickle(b"HTTP/1.1 200 OK\r\nX-Filler: " + b"x" * 300, 0.5)


def test_a_series_request_cut_by_the_deadline_is_an_error(fake, capsys):  # noqa: F811
    fake.series_act = _trickled_series
    began = time.monotonic()
    rc, err = _backtest(fake.url, capsys, "--timeout", "2")
    assert rc == 2 and err.count("\n") == 1
    assert "did not answer within 2 s, the deadline of the whole read; raise --timeout" in err
    assert time.monotonic() - began < 30  # generous: the trickle alone lasts 150 s
    with pytest.raises(ServerError, match=r"within 2 s, the deadline of the whole read; raise "
                                          r"timeout="):
        _read(fake.url, timeout=2)


def _slow(h: _Handler, payload: bytes) -> None:
    if h.server.stop.wait(1.0):
        return
    try:
        h.send(200, payload)
    except OSError:  # the client hung up at its deadline
        h.close_connection = True


def test_timeout_covers_all_the_requests_of_a_read(fake, capsys):  # noqa: F811
    """Each answer comes after 1 s, well within 2.5 s; the read asks /api/v1/series twice, one
    after the other, then the queries: at least 3 s, over the deadline of the whole read."""
    empty = json.dumps({"status": "success", "data": []}).encode()
    fake.series_act = lambda h, body: _slow(h, empty)
    fake.act = lambda h, body: _slow(h, _matrix([{"metric": {}, "values": _values()}]))
    with pytest.raises(ServerError, match=r"did not answer within 2.5 s, the deadline of the "
                                          r"whole read"):
        _read(fake.url, timeout=2.5)
    rc, err = _backtest(fake.url, capsys, "--timeout", "2.5")
    assert rc == 2 and "within 2.5 s" in err and err.count("\n") == 1
    fake.series_act = None  # answered at once: the same read within the deadline
    fake.act = lambda h, body: h.send(200, _matrix([{"metric": {}, "values": _values()}]))
    bins = _read(fake.url, timeout=2.5)
    assert isinstance(bins, pd.DataFrame) and len(bins) == N and (bins["total"] == 5).all()
