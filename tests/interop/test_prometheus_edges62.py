"""The edges of a Prometheus read a hostile stranger found: a 5xx retried until the deadline is
named as such, an error text over its fixed cap, terminal escape codes in the server's words,
a label named for people (``by="user"``) and one of personal data with a fix that exists for a
Prometheus read. The fake server runs on 127.0.0.1 and is stopped by its fixture; its loops are
bounded."""

from __future__ import annotations

import json

import pytest

from budgetlab.errors import ConfigError, PersonalDataError, ServerError
from budgetlab.interop import prometheus_http
from budgetlab.privacy import redact
from tests.interop.test_prometheus_hostile import Fake, _backtest, _matrix, _read, _values, serving


@pytest.fixture()
def fake():
    with serving(Fake()) as server:
        yield server


# a Retry-After on a 502 is not a wait asked for (RFC 9110: 429 and 503 only); a 503's is kept
# (tests/interop/test_prometheus_retry_after.py)
@pytest.mark.parametrize("code,headers", [(500, {}), (502, {"Retry-After": "120"})])
def test_a_5xx_retried_until_the_deadline_names_the_status_and_attempts(fake, monkeypatch, code,
                                                                         headers):
    monkeypatch.setattr(prometheus_http, "BACKOFF_SECONDS", 0.5)
    fake.act = lambda h, body: h.send(code, b"overloaded", headers)
    # hand: attempts at 0, 0.5 and 1.5 s; the next wait (2 s) would pass the 3 s deadline
    with pytest.raises(ServerError) as info:
        _read(fake.url, timeout=3, retries=5)
    said = str(info.value)
    assert f"answered HTTP {code} (3 attempts) until the 3 s deadline" in said, said
    assert "did not answer" not in said


def test_an_error_text_over_its_cap_is_not_a_series_cap(fake, capsys):
    text = "x" * 200_000
    fake.act = lambda h, body: h.send(400, json.dumps({"status": "error", "errorType": "bad_data",
                                                       "error": text}).encode())
    with pytest.raises(ServerError) as info:
        _read(fake.url, max_series=100_000)
    said = str(info.value)
    assert "answered HTTP 400 with an error text longer than 64 KiB" in said, said
    assert "series" not in said and "max_series" not in said
    rc, err = _backtest(fake.url, capsys)
    assert rc == 2 and "longer than 64 KiB" in err and "--max-series" not in err


def test_terminal_escape_codes_in_the_servers_words_never_reach_the_terminal(fake, capsys):
    text = "bad query\nsecond line\r\n\x1b[31mRED\x1b[0m end\x07 \x1b]0;owned\x07x \u202eevil"
    fake.act = lambda h, body: h.send(400, json.dumps({"status": "error", "errorType": "bad_data",
                                                       "error": text}).encode())
    with pytest.raises(ConfigError) as info:
        _read(fake.url)
    # hand: the sequences left out, every other control character a space
    assert "bad_data: bad query second line RED end x evil; fix the query" in str(info.value)
    rc, err = _backtest(fake.url, capsys)
    assert rc == 2 and err.count("\n") == 1 and "RED end" in err
    assert not any(c in err for c in "\x1b\x07\r\u202e")


def test_redact_leaves_out_escape_sequences_and_control_characters():
    # hand: ESC [ 2 J and the C1 CSI 9B "31m" left out; NUL and DEL spaces
    assert redact("a\x1b[2Jb\x9b31mc\x00d\x7fe") == "abc d e"


def _labelled(key: str, values: tuple[str, ...]):
    return lambda h, body: h.send(200, _matrix([{"metric": {key: v}, "values": _values()}
                                                for v in values]))


def test_a_by_label_named_for_people_is_refused_before_the_server_is_asked(fake, capsys):
    fake.act = _labelled("user", ("jsmith", "root"))
    with pytest.raises(PersonalDataError, match=r"group key 'user' is named like personal data"
                                                r".*not_personal=\['user'\]"):
        _read(fake.url, by="user")
    assert fake.seen == []
    rc, err = _backtest(fake.url, capsys, "--by", "user")
    assert rc == 2 and err.count("\n") == 1 and "--not-personal user" in err
    assert "jsmith" not in err and "--pii" not in err
    assert fake.seen == []
    # declared: the groups are the labels served
    bins = _read(fake.url, by="user", not_personal=["user"])
    assert set(bins["user"].astype(str)) == {"jsmith", "root"}
    rc, err = _backtest(fake.url, capsys, "--by", "user", "--not-personal", "user")
    assert rc == 0, err


def test_a_label_of_personal_data_is_given_a_fix_a_prometheus_read_has(fake, capsys):
    fake.act = _labelled("region", ("x@example.com",))
    with pytest.raises(PersonalDataError) as info:
        _read(fake.url, by="region")
    said = str(info.value)
    assert "label_replace" in said and "pii" not in said and "salt" not in said
    assert "x@example.com" not in said
    rc, err = _backtest(fake.url, capsys, "--by", "region")
    assert rc == 2 and "label_replace" in err and "--pii" not in err and "--salt" not in err


def test_a_count_beyond_2_53_names_freq_as_each_interface_spells_it(fake, capsys):
    fake.act = lambda h, body: h.send(200, _matrix([{"metric": {}, "values": _values("1e19")}]))
    with pytest.raises(ServerError, match=r"or use a shorter freq=\.$"):
        _read(fake.url)
    rc, err = _backtest(fake.url, capsys)
    assert rc == 2 and err.endswith("or use a shorter --freq.\n"), err
