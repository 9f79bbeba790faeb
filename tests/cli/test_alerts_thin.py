"""``budgetlab alerts`` applies notebook 02's thin rule (stop 61): a group with fewer events than
hold 10 expected failures under its target is kept out of precision and recall, its pages said
apart, and ``--out`` and ``--plot`` say so. The log is tests/policy_thin_log.py's: under 90 %
and the single-window preset (1 h, burn 0.9: fires above 6 failures of big's 60 a window, and
on any failure of tiny's), by hand: big pages twice (the incident I1's, true; day 5's, false),
tiny twice (days 1 and 2, false). Every group: 4 pages, 1 true, precision 1/4, recall 1/1.
Without tiny: 2 pages, 1 true, precision 1/2, recall 1/1."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from budgetlab.cli import main
from tests.policy_thin_log import assert_thin_bars_drawn, capture_policy_figure, incidents, log

WHY = "20 events: 2 expected failures under 90 %, under the 10 a verdict needs"
P2 = "(2 pages as the rows of tier * count them, 2 false)"


def _files(tmp_path, groups=("big", "tiny")):
    ev = log()
    ev = ev[ev["g"].isin(groups)]
    path, inc = tmp_path / "log.csv", tmp_path / "inc.csv"
    pd.DataFrame({"ts": ev["ts"], "outcome": ev["bucket"], "g": ev["g"]}).to_csv(path,
                                                                                  index=False)
    incidents().to_csv(inc, index=False)
    return path, inc


def _run(tmp_path, capsys, groups=("big", "tiny"), *more):
    path, inc = _files(tmp_path, groups)
    out = tmp_path / "scores.csv"
    assert main(["alerts", str(path), "--by", "g", "--incidents", str(inc), "--target", "0.9",
                 "--policy", "single_window", "--out", str(out), *more]) == 0
    return " ".join(capsys.readouterr().out.split()), pd.read_csv(out, keep_default_na=False)


def test_the_thin_groups_pages_are_said_apart_and_kept_out_of_precision(tmp_path, capsys):
    text, table = _run(tmp_path, capsys)
    assert (f"2 alert episodes on 1 thin group left out {P2}: g=tiny ({WHY}); the rows above "
            "score the other groups") in text
    star = table[(table["g"] == "*") & (table["tier"] == "*") & (table["severity"] == "*")]
    assert star[["episodes", "true_episodes"]].values.tolist() == [[2, 1]]  # not 4 and 1
    assert star["precision"].astype(float).tolist() == [0.5]  # 1 / 2, not 1 / 4
    assert star["recall"].astype(float).tolist() == [1.0]
    assert star["left_out"].tolist() == [""]


def test_out_keeps_the_thin_groups_rows_with_why(tmp_path, capsys):
    _, table = _run(tmp_path, capsys)
    tiny = table[table["g"] == "tiny"]
    assert len(tiny) == 3 and set(tiny["left_out"]) == {WHY}  # page_1h, * page, * *
    assert tiny["episodes"].tolist() == [2, 2, 2]
    assert tiny["true_episodes"].tolist() == [0, 0, 0]
    assert set(table.loc[table["g"] != "tiny", "left_out"]) == {""}


def test_every_group_thin_withholds_precision_and_recall_in_words(tmp_path, capsys):
    text, table = _run(tmp_path, capsys, ("tiny",))
    assert (f"every group is too thin for a verdict: g=tiny ({WHY}); the rows above are its own "
            f"(2 alert episodes, {P2[1:-1]}); precision and recall withheld (too thin)") in text
    assert "thin group left out" not in text  # the rows above are tiny's own, not left out
    assert "too thin" in text.split("policy single_window")[1].split("every group is")[0]
    assert "nan" not in text.lower()
    star = table[(table["g"] == "*")]
    assert set(star["left_out"]) == {"every group is too thin for a verdict"}


def test_every_group_thin_out_withholds_what_the_terminal_withholds(tmp_path, capsys):
    # the terminal says "too thin" for precision and recall: --out writes no figure there either
    # (tiny's 0 true of 2 pages would be precision 0), left_out saying why on every row
    _, table = _run(tmp_path, capsys, ("tiny",))
    assert len(table) == 6  # tiny's and all groups' page_1h, * page, * *
    assert set(table["precision"]) == {""} and set(table["recall"]) == {""}
    assert table["episodes"].tolist() == [2] * 6 and table["true_episodes"].tolist() == [0] * 6
    assert set(table["left_out"]) == {WHY, "every group is too thin for a verdict"}


def test_the_thin_groups_episodes_are_said_as_the_header_counts_them(tmp_path, capsys):
    """workbook under 90 % (30 d period: page_1h burn 14.4 over 1h/5m, page_6h 6 over 6h/30m,
    ticket_1d 3 over 1d/2h, ticket_3d 1 over 3d/6h), by hand: big (60 events an hour, 40 failed
    in all) stays under every tier's threshold (0.6 over 6 h needs 216 failures;
    0.3 over 1 d, 432; 0.1 over 3 d, 432); page_1h can never fire (1.44 > 1). tiny's failing
    days 1 and 2 fill each window with failures only: page_6h, ticket_1d and ticket_3d fire on
    each day, 3 x 2 = 6 episodes, as many as the header's. page_6h's 2 are no page of tier *:
    each fires [12:01, 12:31) (its 30 min short window holds the 12:00 bin through the
    evaluation at 12:30), over before tiny's 6 h window filled at 18:00 from tiny's own first
    bin (day 1 12:00; day 2's 12:00 bin starts 24 h after it, a window or more: a new stretch,
    filled at 18:00 again), so both are scored apart, not pages (the grid's start, big's first
    bin on day 0, was not when tiny's window filled)."""
    text, _ = _run(tmp_path, capsys, ("big", "tiny"), "--policy", "workbook")
    assert "policy workbook (6 alert episodes;" in text
    assert ("6 alert episodes on 1 thin group left out (no page as the rows of tier * count "
            f"them): g=tiny ({WHY}); the rows above score the other groups (precision, recall "
            "and every count)") in text


def test_the_plot_draws_the_thin_group_light_keyed_as_left_out(tmp_path, capsys, monkeypatch):
    drawn = capture_policy_figure(monkeypatch)
    png = tmp_path / "a.png"
    _run(tmp_path, capsys, ("big", "tiny"), "--plot", str(png))
    assert png.exists()
    assert_thin_bars_drawn(drawn)
    plt.close("all")


def test_the_table_printed_scores_the_judged_groups(tmp_path, capsys):
    text, _ = _run(tmp_path, capsys)
    block = text.split("policy single_window")[1].split("left out")[0]
    assert "0.5" in block and "0.25" not in block


def test_an_incident_of_the_thin_group_only_is_said_not_unmatched(tmp_path, capsys):
    """I2 (day 1, 12:00-12:30, g=tiny) covers tiny's day-1 page: tiny's 2 pages, 1 false now;
    it is an incident of the thin group only, not one whose scope "matches no group"."""
    path, _ = _files(tmp_path)
    inc = tmp_path / "inc2.csv"
    inc.write_text("incident_id,start,end,scope\nI1,2026-03-05T00:00:00Z,2026-03-05T00:30:00Z,*\n"
                   "I2,2026-03-03T12:00:00Z,2026-03-03T12:30:00Z,g=tiny\n")
    assert main(["alerts", str(path), "--by", "g", "--incidents", str(inc), "--target", "0.9",
                 "--policy", "single_window"]) == 0
    got = capsys.readouterr()
    text = " ".join((got.out + got.err).split())
    assert "matches no group" not in text
    assert ("2 alert episodes on 1 thin group left out (2 pages as the rows of tier * count "
            f"them, 1 false): g=tiny ({WHY}); the rows above score the other groups "
            "(precision, recall and every count); 1 incident covers only it, not in the rows "
            "above") in text
