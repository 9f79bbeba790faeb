"""read_access_log against the real Elastic sample log (counts from ../shared/data/README.md),
a slow obviously-correct line-by-line parser, and hand-written lines."""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetlab import ConfigError, FileFormatError, check_events, read_access_log
from budgetlab.events.schema import ts_ns

FIXTURE = Path(__file__).parents[1] / "fixtures" / "elastic_apache" / "apache_logs"

# ../shared/data/README.md: github.com/elastic/examples "Common Data Formats/apache_logs" @ 6d86454
SHA256 = "f15c31e905f86c7b4b6ab44aee74d0a2086dce89f010187d983edea7ef0364ef"
STATUS_COUNTS = {200: 9126, 304: 445, 404: 213, 301: 164, 206: 45, 500: 3, 403: 2, 416: 2}


@pytest.fixture(scope="module")
def apache():
    return read_access_log(FIXTURE, by=["status", "method", "status_class"])


def _slow_parse(path: Path) -> list[tuple[int, int, str]]:
    """One line at a time with Python's re and datetime: (ns since epoch, status, method)."""
    line_re = re.compile(r'^\S+ \S+ \S+ \[([^\]]+)\] "([A-Z]*)[^"]*" (\d{3}) ')
    rows = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        m = line_re.match(line)
        assert m, "the fixture has only well-formed lines"
        t = dt.datetime.strptime(m.group(1), "%d/%b/%Y:%H:%M:%S %z")
        rows.append((int(t.timestamp()) * 10**9, int(m.group(3)), m.group(2)))
    return rows


def test_fixture_is_the_published_file():
    assert hashlib.sha256(FIXTURE.read_bytes()).hexdigest() == SHA256
    assert (FIXTURE.parent / "LICENSE").read_text().lstrip().startswith("Apache License")


def test_counts_match_the_published_ones(apache):
    assert len(apache) == 10_000
    counts = apache["status"].astype(int).value_counts().to_dict()
    assert counts == STATUS_COUNTS
    assert int((apache["bucket"] == "server_error").sum()) == 3  # the three 500s
    assert int(apache["ok"].sum()) == 10_000 - 3
    # time range 2015-05-17 10:05 to 2015-05-20 21:05 (+0000), to the minute
    assert apache["ts"].min().floor("min") == pd.Timestamp("2015-05-17 10:05", tz="UTC")
    assert apache["ts"].max().floor("min") == pd.Timestamp("2015-05-20 21:05", tz="UTC")
    assert apache["status_class"].astype(str).value_counts().to_dict() == {"2xx": 9171, "3xx": 609,
                                                                           "4xx": 217, "5xx": 3}


def test_matches_a_slow_line_by_line_parser(apache):
    rows = _slow_parse(FIXTURE)
    # stable sort by time: equal times keep file order (Python's sorted is stable)
    expected = sorted(rows, key=lambda r: r[0])
    assert ts_ns(apache).tolist() == [r[0] for r in expected]
    assert apache["status"].astype(int).tolist() == [r[1] for r in expected]
    assert apache["method"].astype(str).tolist() == [r[2] for r in expected]
    assert [r[0] for r in rows] != [r[0] for r in expected]  # the file is not in time order


def test_canonical_and_nothing_personal(apache):
    assert check_events(apache, ["status", "method", "status_class"])
    assert list(apache.columns) == ["ts", "ok", "bucket", "status", "method", "status_class"]
    plain = read_access_log(FIXTURE)
    assert list(plain.columns) == ["ts", "ok", "bucket"]
    text = apache.astype(str).to_csv()
    assert "83.149.9.216" not in text and "Mozilla" not in text and "/presentations" not in text


def test_custom_ok():
    strict = read_access_log(FIXTURE, ok=lambda status: status < 400)
    assert int((~strict["ok"]).sum()) == 213 + 2 + 2 + 3
    assert strict["bucket"].astype(str).value_counts().to_dict() == {"success": 9780,
                                                                     "client_error": 217,
                                                                     "server_error": 3}
    only_200 = read_access_log(FIXTURE, ok=lambda status: status == 200)
    assert int((only_200["bucket"] == "other_error").sum()) == 445 + 164 + 45


@pytest.mark.parametrize(
    "ok, match",
    [
        (lambda status: "yes", "not a bool"),
        (lambda status: 1 / 0, "raised ZeroDivisionError"),
        ("200", "must be a function"),
    ],
)
def test_bad_ok(ok, match):
    with pytest.raises(ConfigError, match=match):
        read_access_log(FIXTURE, ok=ok)


@pytest.mark.parametrize("by", ["path", ["method", "client_ip"], "user_agent", ["method",
                                                                                "method"]])
def test_only_declared_non_personal_keys(by):
    with pytest.raises(ConfigError):
        read_access_log(FIXTURE, by=by)


def _write(tmp_path: Path, lines: list[str], name: str = "access.log") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


GOOD = [
    # common format
    '192.0.2.1 - - [10/Oct/2026:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326',
    '2001:db8::1 - frank [10/Oct/2026:22:55:36 +0200] "POST /login HTTP/1.1" 502 - '
    '"http://example.com/" "Mozilla/5.0 (X11)"',
    '192.0.2.3 - - [10/Oct/2026:20:55:36 +0000] "-" 408 0 "-" "-"',  # no request line
    '192.0.2.4 - "user name" [10/Oct/2026:20:55:37 +0000] "HEAD / HTTP/1.1" 304 0 "-" "a '
    '\\"quoted\\" agent" 1234',
]


def test_hand_written_lines(tmp_path):
    events = read_access_log(_write(tmp_path, GOOD), by=["method", "status"])
    # 13:55:36 -0700 = 20:55:36 UTC; 22:55:36 +0200 = 20:55:36 UTC: equal times keep file order
    assert events["ts"].astype(str).tolist() == [
        "2026-10-10 20:55:36+00:00", "2026-10-10 20:55:36+00:00", "2026-10-10 20:55:36+00:00",
                                                 "2026-10-10 20:55:37+00:00"
    ]
    assert events["status"].astype(str).tolist() == ["200", "502", "408", "304"]
    assert events["method"].astype(str).tolist() == ["GET", "POST", "-", "HEAD"]
    assert events["bucket"].astype(str).tolist() == ["success", "server_error", "success",
                                                     "success"]
    assert "frank" not in events.astype(str).to_csv()


def test_blank_lines_crlf_and_gzip(tmp_path):
    raw = ("\r\n".join(["", GOOD[0], "   ", GOOD[1], ""]) + "\r\n").encode()
    (tmp_path / "a.log").write_bytes(raw)
    (tmp_path / "a.log.gz").write_bytes(gzip.compress(raw))
    a = read_access_log(tmp_path / "a.log")
    b = read_access_log(tmp_path / "a.log.gz")
    assert len(a) == 2 and a.attrs["skipped_lines"] == 0
    pd.testing.assert_frame_equal(a, b)


BAD = [
    GOOD[0],
    "secret-user@example.com did something",  # line 2
    GOOD[1],
    '192.0.2.9 - - [32/Oct/2026:13:55:36 +0000] "GET / HTTP/1.1" 200 1',  # line 4: impossible date
    # line 5: impossible status
    '192.0.2.9 - - [10/Oct/2026:13:55:36 +0000] "GET / HTTP/1.1" 999 1',
    '192.0.2.9 - - [10/Oct/2026:13:55:36 +0000] "GET / HTTP/1.1" 200',  # line 6: no size
]


def test_malformed_lines_are_named_by_number_never_by_content(tmp_path):
    path = _write(tmp_path, BAD)
    with pytest.raises(FileFormatError) as info:
        read_access_log(path)
    message = str(info.value)
    assert "4 lines not in" in message and "(lines 2, 4, 5, 6)" in message
    assert "on_error='skip'" in message
    assert "secret-user" not in message and "192.0.2" not in message


def test_skip_malformed_lines_reports_the_count(tmp_path):
    path = _write(tmp_path, BAD)
    with pytest.warns(UserWarning, match=r"skipped 4 lines not in .*\(lines 2, 4, 5, 6\)"):
        events = read_access_log(path, on_error="skip")
    assert len(events) == 2 and events.attrs["skipped_lines"] == 4


def test_many_malformed_lines_are_summarised(tmp_path):
    path = _write(tmp_path, [GOOD[0]] + ["junk"] * 25)
    with pytest.raises(FileFormatError,
                       match=r"\(lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 15 more\)"):
        read_access_log(path)


@pytest.mark.parametrize("content", ["", "\n\n", "not a log\n"])
def test_no_log_lines(tmp_path, content):
    path = tmp_path / "empty.log"
    path.write_text(content)
    with pytest.raises(FileFormatError):
        read_access_log(path, on_error="skip")


def test_missing_file_and_bad_options(tmp_path):
    with pytest.raises(FileFormatError, match="no such file"):
        read_access_log(tmp_path / "nope.log")
    with pytest.raises(FileFormatError, match="gzip"):
        (tmp_path / "bad.log.gz").write_bytes(b"not gzip")
        read_access_log(tmp_path / "bad.log.gz")
    with pytest.raises(ConfigError, match="on_error"):
        read_access_log(FIXTURE, on_error="ignore")


def test_input_file_is_not_modified(tmp_path):
    path = _write(tmp_path, GOOD)
    before = path.read_bytes()
    read_access_log(path)
    assert path.read_bytes() == before
    assert np.array_equal(ts_ns(read_access_log(path)), ts_ns(read_access_log(path)))


# ---------------------------------------------------------------------------------------------
# random well-formed logs against the slow parser (hypothesis)

_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
_token = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789.:-_", min_size=1, max_size=12)
_quoted_text = st.text(alphabet='abc /?=&%"\\-', max_size=20).map(
    lambda s: s.replace("\\", "\\\\").replace('"', '\\"')
)


@st.composite
def _log_line(draw):
    when = draw(
        st.datetimes(min_value=dt.datetime(2000, 1, 1), max_value=dt.datetime(2035, 12, 31))
    ).replace(microsecond=0)
    offset_min = draw(st.integers(-12 * 60, 14 * 60))
    sign = "+" if offset_min >= 0 else "-"
    zone = f"{sign}{abs(offset_min) // 60:02d}{abs(offset_min) % 60:02d}"
    stamp = f"{when.day:02d}/{_MONTHS[when.month - 1]}/{when.year}:{when:%H:%M:%S} {zone}"
    method = draw(st.sampled_from(["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", ""]))
    request = f"{method} /{draw(_quoted_text)} HTTP/1.1" if method else "-"
    status = draw(st.integers(100, 599))
    size = draw(st.one_of(st.just("-"), st.integers(0, 10**7).map(str)))
    user = draw(st.one_of(st.just("-"), _token))
    line = f'{draw(_token)} - {user} [{stamp}] "{request}" {status} {size}'
    if draw(st.booleans()):
        line += f' "{draw(_quoted_text)}" "{draw(_quoted_text)}"'
    utc = when.replace(tzinfo=dt.timezone(dt.timedelta(minutes=offset_min))).astimezone(dt.UTC)
    ns = (utc - dt.datetime(1970, 1, 1, tzinfo=dt.UTC)) // dt.timedelta(microseconds=1) * 1000
    return line, ns, status, method or "-"


@given(st.lists(_log_line(), min_size=1, max_size=30))
def test_random_logs_match_python_parsing(tmp_path_factory, lines):
    path = tmp_path_factory.mktemp("logs") / "random.log"
    path.write_text("\n".join(line for line, *_ in lines) + "\n")
    events = read_access_log(path, by=["status", "method"])
    expected = sorted(((ns, status, method) for _, ns, status, method in lines), key=lambda r: r[0])
    assert ts_ns(events).tolist() == [r[0] for r in expected]
    assert events["status"].astype(int).tolist() == [r[1] for r in expected]
    assert events["method"].astype(str).tolist() == [r[2] for r in expected]
    assert events["ok"].tolist() == [r[1] < 500 for r in expected]
