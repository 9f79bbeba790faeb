"""An access log whose name says no table format (``apache_logs``, ``access.log``) and
``format='access'`` (the command line's ``--format access``): the refusal names the ways the API
reads it, and reading it those ways gives the hand-counted events."""

import shutil
from pathlib import Path

import pytest

import budgetlab as bl
from budgetlab import ConfigError, FileFormatError

APACHE = Path(__file__).parents[1] / "fixtures" / "elastic_apache" / "apache_logs"

# Five lines written by hand: statuses 200, 304, 404, 500, 503 -> 3 successes (below 500),
# 2 server errors; times 10/Oct/2026 13:55:36..40 +0200 = 11:55:36..40 UTC, one a second.
LINES = [
    '192.0.2.1 - - [10/Oct/2026:13:55:36 +0200] "GET /a HTTP/1.1" 200 10\n',
    '192.0.2.2 - - [10/Oct/2026:13:55:37 +0200] "GET /b HTTP/1.1" 304 0\n',
    '192.0.2.3 - - [10/Oct/2026:13:55:38 +0200] "POST /c HTTP/1.1" 404 7\n',
    '192.0.2.4 - - [10/Oct/2026:13:55:39 +0200] "GET /d HTTP/1.1" 500 3 "-" "curl/8"\n',
    '192.0.2.5 - - [10/Oct/2026:13:55:40 +0200] "GET /e HTTP/1.1" 503 3\n',
]
WAYS = ("budgetlab.read_access_log(path)", "read_events(path, preset='access')")


def _hand_counts(events):
    assert len(events) == 5
    assert events["ok"].tolist() == [True, True, True, False, False]
    assert events["bucket"].astype(str).tolist()[3:] == ["server_error", "server_error"]
    assert str(events["ts"].iloc[0]) == "2026-10-10 11:55:36+00:00"
    assert str(events["ts"].iloc[-1]) == "2026-10-10 11:55:40+00:00"


@pytest.mark.parametrize("name", ["apache_logs", "access.log"])
def test_the_refusal_names_the_readers_and_they_read_it(tmp_path, name):
    log = tmp_path / name
    log.write_text("".join(LINES))
    with pytest.raises(FileFormatError) as err:
        bl.read_events(log)
    message = str(err.value)
    assert "access log" in message and all(way in message for way in WAYS), message
    _hand_counts(bl.read_access_log(log))
    _hand_counts(bl.read_events(log, preset="access"))


def test_format_access_names_the_readers(tmp_path):
    log = tmp_path / "apache_logs"
    log.write_text("".join(LINES))
    with pytest.raises(ConfigError) as err:
        bl.read_events(log, format="access")
    message = str(err.value)
    assert "--format access" in message and all(way in message for way in WAYS), message


def test_another_text_log_hears_every_way(tmp_path):
    log = tmp_path / "app.log"
    log.write_text("Dec 10 06:55:46 LabSZ sshd[24200]: session opened\n")
    with pytest.raises(FileFormatError) as err:
        bl.read_events(log)
    message = str(err.value)
    assert "unsupported file type '.log'" in message
    for way in (*WAYS, "format='csv'|'tsv'|'parquet'|'jsonl'", "'sshd'", "'proxifier'",
                "pattern="):
        assert way in message, (way, message)


def test_the_published_log_without_extension(tmp_path):
    # ../fixtures/elastic_apache/README.md: 10,000 lines, the three with status 500 the only
    # failures (tests/events/test_accesslog.py: STATUS_COUNTS)
    log = tmp_path / "apache_logs"
    shutil.copy(APACHE, log)
    with pytest.raises(FileFormatError, match="read_access_log"):
        bl.read_events(log)
    events = bl.read_access_log(log)
    assert len(events) == 10_000 and int((~events["ok"]).sum()) == 3
