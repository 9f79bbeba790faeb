"""With more groups than ``--show-groups`` (default 40), a command's per-group table shows that
many, chosen by a stated order, and one line says what was shown and where every row is; the
file outputs hold every group. The oracle is the hand-built log: group ``gNN`` has ``NN + 1``
events, all successes except ``g00``'s one event, a timeout (the only group ever exhausted)."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from budgetlab.cli import main

N_GROUPS = 45


def _events(nn: int) -> int:
    return nn + 1


@pytest.fixture
def log(tmp_path):
    rows = ["ts,site,outcome"]
    start = pd.Timestamp("2026-01-01T00:00:00Z")
    for nn in range(N_GROUPS):
        for i in range(_events(nn)):
            ts = start + pd.Timedelta(minutes=10 * i, seconds=nn)
            outcome = "timeout" if nn == 0 else "success"
            rows.append(f"{ts:%Y-%m-%dT%H:%M:%SZ},g{nn:02d},{outcome}")
    path = tmp_path / "log.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def _table_groups(out: str) -> list[str]:
    """The group names in the first column of the printed rows, in their order."""
    firsts = [line.split()[0] for line in out.splitlines() if line.strip()]
    return [f for f in firsts if re.fullmatch(r"g\d\d", f)]


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_replay_shows_the_worst_then_the_busiest_and_says_so(log, tmp_path, capsys):
    summary = tmp_path / "summary.csv"
    assert main(["replay", str(log), "--by", "site", "--window", "1h",
                 "--summary-out", str(summary)]) == 0
    out = capsys.readouterr().out
    table = out.split("Summary")[1].split("showing")[0]
    # g00 alone was exhausted; then the most events: g44 (45 events) down to g06 (7)
    assert _table_groups(table) == ["g00", *(f"g{nn:02d}" for nn in range(44, 5, -1))]
    assert ("showing 40 of 45 groups (--by site), the most time exhausted first, then critical, "
            "then the most events; 5 more groups not shown: --summary-out FILE writes every "
            "group's row; --show-groups 0 prints them all") in _flat(out)
    written = pd.read_csv(summary)
    assert len(written) == N_GROUPS
    assert dict(zip(written["site"], written["events"], strict=True)) == {
        f"g{nn:02d}": _events(nn) for nn in range(N_GROUPS)}
    assert "wrote 45 summary rows (one per group) to" in out


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_show_groups_0_and_a_large_limit_print_every_group(log, capsys):
    for limit in ("0", "45"):
        assert main(["replay", str(log), "--by", "site", "--window", "1h",
                     "--show-groups", limit]) == 0
        out = capsys.readouterr().out
        table = out.split("Summary")[1].split("Time counts")[0]
        # every group, in the table's own order (by name), no line about a choice
        assert _table_groups(table) == [f"g{nn:02d}" for nn in range(N_GROUPS)]
        assert "showing" not in out


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_buckets_shows_the_most_events_and_out_holds_every_row(log, tmp_path, capsys):
    out_file = tmp_path / "buckets.parquet"
    assert main(["buckets", str(log), "--by", "site", "--window", "1h", "--show-groups", "3",
                 "--out", str(out_file)]) == 0
    out = capsys.readouterr().out
    assert _table_groups(out.split("showing")[0]) == ["g44", "g43", "g42"]
    assert ("showing 3 of 45 groups (--by site), the most events first; 42 more groups not "
            "shown: --out FILE writes every group's row; --show-groups 0 prints them all"
            ) in _flat(out)
    written = pd.read_parquet(out_file)
    assert sorted(written["site"].unique()) == [f"g{nn:02d}" for nn in range(N_GROUPS)]


def test_a_negative_show_groups_is_refused(log, capsys):
    assert main(["replay", str(log), "--by", "site", "--show-groups", "-1"]) == 2
    assert "--show-groups: -1 is below 0 (0 shows every group)" in capsys.readouterr().err


def test_summary_out_refused_before_the_work(log, tmp_path, capsys):
    missing = tmp_path / "no-such-folder" / "summary.csv"
    assert main(["replay", str(log), "--by", "site", "--summary-out", str(missing)]) == 2
    captured = capsys.readouterr()
    # refused by the plan of the outputs, before the log is read
    assert "--summary-out: folder 'no-such-folder' does not exist; create it first." in captured.err
    assert captured.out == ""


def test_show_groups_without_by_is_refused_before_the_read(log, capsys):
    # one group, all events: nothing to choose; refused, not ignored
    assert main(["replay", str(log), "--show-groups", "5"]) == 2
    captured = capsys.readouterr()
    assert captured.err == ("budgetlab: error: --show-groups chooses how many groups of --by the "
                            "terminal shows; without --by there is one group, all events: give "
                            "--by KEY too, or leave --show-groups out.\n")
    assert captured.out == ""
