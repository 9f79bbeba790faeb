"""What the "how it was read" block says a meaning came from, and the reading flags an input
cannot use. Expected lines are written by hand from the tiny logs built here."""

from __future__ import annotations

import pytest

from budgetlab import how_read, read_events
from budgetlab.cli import main

# 4 rows: 2 successes (true, 1) and 2 failures, one with the kind 'timeout', one with none
OK_LOG = ("ts,ok,kind\n2026-01-01T00:00:00Z,true,\n2026-01-01T00:01:00Z,false,\n"
          "2026-01-01T00:02:00Z,false,timeout\n2026-01-01T00:03:00Z,1,\n")
ACCESS_LOG = ('192.0.2.8 - - [10/Oct/2026:13:55:36 +0200] "GET / HTTP/1.1" 200 2326\n'
              '192.0.2.9 - alice [10/Oct/2026:13:55:40 +0200] "GET /a HTTP/1.1" 503 12\n')


def _outcome_lines(err: str) -> list[str]:
    lines = err.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  outcomes: "))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith("    ")),
               len(lines))
    return lines[start:end]


def test_failures_without_a_bucket_column_are_said_to_come_from_the_ok_column(tmp_path, capsys):
    # without --bucket every meaning is the --ok column's; it said '(--bucket column)' for the
    # failures, a flag the user never gave
    (tmp_path / "log.csv").write_text(OK_LOG)
    assert main(["replay", str(tmp_path / "log.csv"), "--ok", "ok", "--window", "1h"]) == 0
    assert _outcome_lines(capsys.readouterr().err) == [
        "  outcomes: column 'ok' (--ok), true/false values",
        "    'success'  -> success  2",
        "    'failure'  -> failure  2"]
    # with --bucket, the failure kinds are that column's
    assert main(["replay", str(tmp_path / "log.csv"), "--ok", "ok", "--bucket", "kind",
                 "--window", "1h"]) == 0
    assert _outcome_lines(capsys.readouterr().err) == [
        "  outcomes: column 'ok', true/false values",
        "    'success'  -> success  2  (--ok column)",
        "    'timeout'  -> timeout  1  (--bucket column)",
        "    'failure'  -> failure  1  (--bucket column)"]
    # the API keeps the same facts in its own words
    how = how_read(read_events(tmp_path / "log.csv", ok="ok"))
    assert [(x.meaning, x.rule, x.rows) for x in how.labels] == [
        ("success", "ok= column", 2), ("failure", "ok= column", 2)]


@pytest.mark.parametrize("reading", [[], ["--format", "access"], ["--preset", "access"]])
@pytest.mark.parametrize(("flags", "named", "it"), [
    (["--pii", "drop"], "--pii drop", "it"),
    (["--pii", "hash", "--salt", "S"], "--pii hash and --salt", "them"),
    (["--salt", "S"], "--salt", "it")])
def test_personal_data_flags_on_an_access_log_are_refused_not_ignored(tmp_path, capsys, reading,
                                                                       flags, named, it):
    # an access log's personal fields are never read, so --pii drop/hash and --salt did nothing
    # (auto-detected, --format access and --preset access alike); the run went on silently
    (tmp_path / "access.log").write_text(ACCESS_LOG)
    assert main(["replay", str(tmp_path / "access.log"), *reading, *flags]) == 2
    assert capsys.readouterr().err == (
        f"budgetlab: error: {named} would do nothing: an access log's client address, user, "
        "request path, referrer and user agent are never read (only the time, the status and "
        f"the method); leave {it} out.\n")
    # the fix it gives: without them the same log is read
    assert main(["replay", str(tmp_path / "access.log"), *reading, "--window", "1h"]) == 0
    assert "how it was read: access.log (2 rows)" in capsys.readouterr().err
