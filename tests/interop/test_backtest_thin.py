"""Stop 61: ``budgetlab backtest`` scored alerts across groups without notebook 02's thin rule
(``alerts`` applies it: tests/cli/test_alerts_thin.py). A group with fewer events than hold 10
expected failures under its target decided the all-groups precision with no word. Now its pages
are scored apart, kept out of precision and recall, said in one line; ``--out``'s scores and
detections keep its rows with ``left_out``; ``--plot`` draws its bars light and hatched.

The log is tests/policy_thin_log.py's, served per minute bin by the fake Prometheus on
127.0.0.1 (tests/interop/test_prometheus_hostile.py). Under 90 % and the single_window preset
(one 1 h window at burn 0.9: an error ratio above 0.09), by hand: big (one event a minute) pages
twice: at 6 of 60 failed in I1 (day 3 00:06, detected after 6 min, true) and on day 5 (false);
tiny (20 events: 2 expected failures, under the 10 a verdict needs) pages on days 1 and 2
(false). Every group: 4 pages, 1 true, precision 1/4 (what backtest said). Without tiny: 2 pages,
1 true, precision 1/2, recall 1/1; 2 pages over big's 167 h of observed time (from 01:00 of day
0, when the 1 h window first filled, to day 7 00:00): 2 * 24 / 167 = 0.287 a day."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from budgetlab import bin_events
from budgetlab.cli import main
from tests.interop.test_prometheus_hostile import (
    _Handler,
    _matrix,
    fake,  # noqa: F401  (the fixture)
)
from tests.policy_thin_log import (
    DAY0,
    assert_thin_bars_drawn,
    capture_policy_figure,
    incidents,
    log,
)

WHY = "20 events: 2 expected failures under 90 %, under the 10 a verdict needs"
P2 = "(2 pages as the rows of tier * count them, 2 false)"
LINE = (f"2 alert episodes on 1 thin group left out {P2}: g=tiny ({WHY}); the rows above score "
        "the other groups (precision, recall and every count)")


def _answer(groups: tuple[str, ...]):
    """The fake's answer to a count query: each group's failed (``e_total``) or all
    (``t_total``) events in the minute bin ending at each evaluation time asked."""
    ev = log()
    b = bin_events(ev[ev["g"].isin(groups)], "1min", by="g")
    b = b[b["g"].isin(groups)]
    counts = {g: dict(zip((b.loc[b["g"] == g, "bin_start"].astype("int64") // 10**9 + 60)
                          .tolist(), b.loc[b["g"] == g, ["total", "bad"]].values.tolist(),
                          strict=True)) for g in groups}

    def act(h: _Handler, body: dict) -> None:
        col = 1 if "e_total" in body["query"][0] else 0
        t0, t1, step = (round(float(body[k][0])) for k in ("start", "end", "step"))
        h.send(200, _matrix([{"metric": {"g": g},
                              "values": [[t, str(counts[g].get(t, (0, 0))[col])]
                                         for t in range(t0, t1 + 1, step)]}
                             for g in groups]))
    return act


def _run(fake, tmp_path, capsys, groups=("big", "tiny"), *more):  # noqa: F811
    fake.act = _answer(groups)
    inc, out = tmp_path / "inc.csv", tmp_path / "out"
    incidents().to_csv(inc, index=False)
    out.mkdir()
    rc = main(["backtest", "--prometheus", fake.url, "--total", "t_total", "--errors", "e_total",
               "--by", "g", "--target", "0.9", "--policy", "single_window",
               "--start", DAY0.isoformat(), "--end", (DAY0 + pd.Timedelta("7D")).isoformat(),
               "--incidents", str(inc), "--out", str(out), *more])
    got = capsys.readouterr()
    assert (rc, got.err) == (0, "")
    read = {n: pd.read_csv(out / f"{n}.csv", keep_default_na=False)
            for n in ("scores", "detections")}
    return " ".join(got.out.split()), read["scores"], read["detections"]


def _star(table: pd.DataFrame) -> pd.DataFrame:
    return table[(table["g"] == "*") & (table["tier"] == "*") & (table["severity"] == "*")]


def test_the_thin_groups_pages_are_kept_out_of_precision(fake, tmp_path, capsys):  # noqa: F811
    text, scores, _ = _run(fake, tmp_path, capsys)
    star = _star(scores)
    assert star[["episodes", "true_episodes", "incidents", "detected"]].values.tolist() == [
        [2, 1, 1, 1]]  # not 4 pages, 1 true
    assert star["precision"].astype(float).tolist() == [0.5]  # 1 / 2, not 1 / 4
    assert star["recall"].astype(float).tolist() == [1.0]
    assert abs(float(star["alerts_per_day"].iloc[0]) - 2 * 24 / 167) < 1e-9
    assert star["left_out"].tolist() == [""]
    assert LINE in text


def test_the_printed_table_scores_the_groups_with_a_verdict(fake, tmp_path, capsys):  # noqa: F811
    text, _, _ = _run(fake, tmp_path, capsys)
    block = text.split("Incidents, policy single_window")[1].split("left out")[0]
    assert " 0.5 " in block and "0.25" not in block


def test_out_keeps_the_thin_groups_rows_with_why(fake, tmp_path, capsys):  # noqa: F811
    _, scores, detections = _run(fake, tmp_path, capsys)
    tiny = scores[scores["g"] == "tiny"]
    assert len(tiny) == 3 and set(tiny["left_out"]) == {WHY}  # page_1h, * page, * *
    assert tiny["episodes"].tolist() == [2, 2, 2]
    assert tiny["true_episodes"].tolist() == [0, 0, 0]
    assert set(scores.loc[scores["g"] != "tiny", "left_out"]) == {""}
    i1 = _star(detections)
    assert i1[["incident_id", "detected", "detection_time", "left_out"]].values.tolist() == [
        ["I1", True, "6m", ""]]  # big's page at 00:06
    assert set(detections.loc[detections["g"] == "tiny", "left_out"]) == {WHY}


def test_every_group_thin_withholds_precision_and_recall_in_words(fake, tmp_path,  # noqa: F811
                                                                  capsys):
    text, scores, _ = _run(fake, tmp_path, capsys, ("tiny",))
    assert (f"every group is too thin for a verdict: g=tiny ({WHY}); the rows above are its own "
            f"(2 alert episodes, {P2[1:-1]}); precision and recall withheld (too thin)") in text
    assert "thin group left out" not in text  # the rows above are tiny's own, not left out
    assert "too thin" in text.split("Incidents, policy single_window")[1].split("every group")[0]
    assert "nan" not in text.lower()
    assert set(_star(scores)["left_out"]) == {"every group is too thin for a verdict"}
    # withheld in words on the terminal, so no figure in --out either (0 true of 2 would be 0)
    assert set(scores["precision"]) == {""} and set(scores["recall"]) == {""}
    assert scores["episodes"].tolist() == [2] * 6 and scores["true_episodes"].tolist() == [0] * 6


def test_the_thin_groups_episodes_are_said_as_the_header_counts_them(fake, tmp_path,  # noqa: F811
                                                                    capsys):
    """workbook under 90 %, by hand as in tests/cli/test_alerts_thin.py: big fires no tier;
    tiny's page_6h, ticket_1d and ticket_3d fire on days 1 and 2: 6 episodes. page_6h's 2 are no
    page of tier *: each fires [12:01, 12:31), over before tiny's own 6 h window filled at 18:00
    (from tiny's first bin, day 1 12:00; day 2's 12:00 bin comes 24 h later, a new stretch), so
    both are scored apart while the window filled (stop 62: filling is per group)."""
    text, _, _ = _run(fake, tmp_path, capsys, ("big", "tiny"), "--policy", "workbook")
    assert "Policy workbook: 6 alert episodes" in text
    assert ("6 alert episodes on 1 thin group left out (no page as the rows of tier * count "
            f"them): g=tiny ({WHY}); the rows above score the other groups (precision, recall "
            "and every count)") in text


def test_the_plot_draws_the_thin_group_light(fake, tmp_path, capsys, monkeypatch):  # noqa: F811
    drawn = capture_policy_figure(monkeypatch)
    png = tmp_path / "a.png"
    _run(fake, tmp_path, capsys, ("big", "tiny"), "--plot", str(png))
    assert png.exists()
    assert_thin_bars_drawn(drawn)
    plt.close("all")


def test_an_incident_of_the_thin_group_only_is_said_apart(fake, tmp_path, capsys):  # noqa: F811
    """I2 (day 1, 12:00-12:30, g=tiny) covers tiny's day-1 page: tiny's 2 pages, 1 false; it
    covers only the thin group, so the rows above score I1 alone (1 of 1 detected). I3's scope
    (g=nowhere) matches no group: said so with how --incidents was read (as alerts says it),
counting every incident given (scored apart, it was "1 of the 2")."""
    fake.act = _answer(("big", "tiny"))
    inc = tmp_path / "inc.csv"
    inc.write_text("incident_id,start,end,scope\nI1,2026-03-05T00:00:00Z,2026-03-05T00:30:00Z,*\n"
                   "I2,2026-03-03T12:00:00Z,2026-03-03T12:30:00Z,g=tiny\n"
                   "I3,2026-03-03T12:00:00Z,2026-03-03T12:30:00Z,g=nowhere\n")
    assert main(["backtest", "--prometheus", fake.url, "--total", "t_total", "--errors",
                 "e_total", "--by", "g", "--target", "0.9", "--policy", "single_window",
                 "--start", DAY0.isoformat(), "--end", (DAY0 + pd.Timedelta("7D")).isoformat(),
                 "--incidents", str(inc)]) == 0
    got = capsys.readouterr()
    text = " ".join(got.out.split())
    assert got.err == ""
    assert ("2 alert episodes on 1 thin group left out (2 pages as the rows of tier * count "
            f"them, 1 false): g=tiny ({WHY}); the rows above score the other groups "
            "(precision, recall and every count); 1 incident covers only it, not in the rows "
            "above") in text
    table = text.split("(all tiers merged):")[1].split("episodes precision")[0]
    assert "I1" in table and "I2" not in table and "I3" not in table
    assert ("1 of the 3 incidents of --incidents ('I3') has a scope that matches no group of "
            "the log (by g): not scored, neither detected nor missed") in text
