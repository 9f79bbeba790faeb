"""What an alert tier of the incident report could not do, against hand-worked cases: a tier whose
long window held no event at any of its evaluations during the incident is unseen (no traffic),
not "not detected" with a peak burn of 0; a tier whose threshold ``burn x (1 - target)`` is 1 or
more can never fire, said so rather than "peaked at 4.33, its threshold is 14.4"; a burn and a
budget share on under 10 expected failures are said when the failures decide a miss (a binomial
tail of at most 0.1 %), withheld otherwise; the figure keys its no-data hatches in a legend.

The log: one event at the start of each minute from 00:00 to 07:59 on 2026-03-02, then none
until 14:00 (a silence), then one a minute to 17:59; SLO over 1 h, the workbook policy (1 h, 6 h,
24 h, 3 d windows)."""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd

from budgetlab import SLO, AlertPolicy, as_events, incident_report
from budgetlab.analyses.incident_budget_text import budget_sentence

matplotlib.use("Agg")

T0 = pd.Timestamp("2026-03-02 00:00", tz="UTC")


def silent_log(fail_from: int = 10_000, fail_to: int = 10_000) -> pd.DataFrame:
    """One event a minute, 00:00 .. 07:59 and 14:00 .. 17:59; minutes ``fail_from`` ..
    ``fail_to - 1`` after 00:00 fail."""
    mins = [*range(0, 480), *range(840, 1080)]
    return as_events([T0 + pd.Timedelta(minutes=i) for i in mins],
                     [not fail_from <= i < fail_to for i in mins])


def at(hhmm: str) -> pd.Timestamp:
    return pd.Timestamp(f"2026-03-02 {hhmm}", tz="UTC")


def test_a_tier_whose_window_held_no_traffic_is_unseen_not_a_burn_of_zero():
    # incident 09:00 .. 10:00: the last event before it is at 07:59, so page_1h's 1 h window
    # (its evaluations 09:01 .. 10:00 cover 08:01 .. 10:00) is empty at every one: unseen.
    # page_6h's 6 h window at 09:01 reaches back to 03:01: it holds events, so it is seen
    rep = incident_report(silent_log(), SLO(target=0.99, window="1h"), at("09:00"), at("10:00"),
                          context="2h")  # the report window 07:00 .. 12:00 holds events
    t = rep.tiers.set_index("tier")
    assert bool(t.loc["page_1h", "unseen"]) and not bool(t.loc["page_6h", "unseen"])
    assert np.isnan(t.loc["page_1h", "peak_burn_long"])  # no traffic, not 0
    assert t.loc["page_6h", "peak_burn_long"] == 0.0  # traffic, no failure: a burn of 0
    assert "page_1h saw no traffic: its 1 h window held no event" in rep.summary
    assert "page_1h's 1 h burn" not in rep.summary
    # incident 08:30 .. 09:30: page_1h's window at 08:31 reaches back to 07:31, holding the
    # events of 07:31 .. 07:59: seen, its peak a burn of 0
    seen = incident_report(silent_log(), SLO(target=0.99, window="1h"), at("08:30"),
                           at("09:30"), context="2h")
    t = seen.tiers.set_index("tier")
    assert not bool(t.loc["page_1h", "unseen"]) and t.loc["page_1h", "peak_burn_long"] == 0.0
    assert "saw no traffic" not in seen.summary


def test_the_cli_table_says_unseen_and_no_traffic(tmp_path, capsys):
    from budgetlab.cli import main

    ev = silent_log()
    path = tmp_path / "log.csv"
    pd.DataFrame({"ts": ev["ts"].dt.strftime("%Y-%m-%d %H:%M:%S"),
                  "outcome": np.where(ev["ok"], "success", "error")}).to_csv(path, index=False)
    main(["incident", str(path), "--start", "2026-03-02 09:00", "--end", "2026-03-02 10:00",
          "--context", "2h", "--target", "0.99", "--window", "1h"])
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.strip().startswith("page_1h"))
    assert row.split()[-3:] == ["unseen", "no", "traffic"]  # a word, explained under the table
    assert ("note: unseen: the tier's long window (page_1h: 1 h) held no event at any of its"
            in out)
    assert "not detected" not in row
    assert "no traffic" in out.split("peak_burn_long")[-1]


def test_a_tier_that_can_never_fire_is_said_so():
    # incident 06:00 .. 07:00: minutes 360 .. 389 fail, 30 of its 60 events.
    # At 90 %: page_1h needs an error ratio above 14.4 x 0.1 = 1.44 > 1: it can never fire;
    # page_6h's 6 x 0.1 = 0.6 can be reached. At 99 %: 14.4 x 0.01 = 0.144: page_1h can fire
    ev = silent_log(360, 390)
    rep = incident_report(ev, SLO(target=0.9, window="1h"), at("06:00"), at("07:00"),
                          context="0s")
    t = rep.tiers.set_index("tier")
    assert not bool(t.loc["page_1h", "can_fire"]) and bool(t.loc["page_6h", "can_fire"])
    assert ("page_1h can never fire at target 0.9: it needs an error ratio above 14.4 x (1 - 0.9)"
            " = 1.44" in rep.summary)
    assert "page_1h's 1 h burn" not in rep.summary  # never the tier that "came closest"
    ok = incident_report(ev, SLO(target=0.99, window="1h"), at("06:00"), at("07:00"),
                         context="0s")
    assert bool(ok.tiers["can_fire"].all()) and "can never fire" not in ok.summary


def _budget(events: int, failures: int, target: float, per_day: float) -> pd.DataFrame:
    """A one-row budget table: a 30 d budget of ``(1 - target) x per_day x 30``, read over 35 h
    of traffic."""
    allowed = events * (1 - target)
    return pd.DataFrame({"events": [events], "failures": [failures],
                         "excess_failures": [failures - allowed],
                         "period_budget": [(1 - target) * per_day * 30],
                         "period_events": [per_day * 30],
                         "log_events": [int(per_day * 35 / 24)],
                         "log_hours": [35.0], "log_traffic_hours": [35.0]})


def test_a_miss_the_failures_decide_is_said_on_few_events():
    # 78 of 180 at 99 %: 1.8 expected failures (under 10), but P(X >= 78 | 180, 0.01) ~ 1e-90:
    # decided. Burn 78 / 1.8 = 43.3; share 78 / (0.01 x 4,320 x 30 = 1,296) = 6.02 %
    text = budget_sentence(_budget(180, 78, 0.99, 4320.0), SLO(target=0.99, window="1h"),
                           AlertPolicy.workbook("30D"), pd.Timedelta("1h"))
    assert "(burn 43.3 over the incident)" in text
    assert "6.0 % of a 30 d error budget" in text
    assert "withheld" not in text
    assert ("missed: 78 of 180 events failed (43.33 %); even with 180 events, a service at 99 % "
            "would fail this often with probability < 0.1 %") in text
    # 1 of 60 at 90 %: 6 expected failures; P(X >= 1) = 1 - 0.9 ** 60 = 0.998: not decided
    text = budget_sentence(_budget(60, 1, 0.9, 1440.0), SLO(target=0.9, window="1h"),
                           AlertPolicy.workbook("30D"), pd.Timedelta("1h"))
    assert "its burn over the incident and its share of a 30 d error budget are withheld" in text
    assert "missed" not in text and "burn 1.67" not in text


def test_the_no_data_hatch_is_keyed_in_the_legend_not_written_past_the_axes():
    # the log ends at 17:59; incident 17:00 .. 18:30 with 30 min of context: the window runs to
    # 19:00 and 17:59 .. 19:00 is hatched. Its words are a legend key, no text on the panels
    import matplotlib.pyplot as plt

    rep = incident_report(silent_log(), SLO(target=0.99, window="1h"), at("17:00"), at("18:30"),
                          context="30min")
    fig = rep.plot()
    keyed = [t.get_text() for ax in fig.axes if ax.get_legend() is not None
             for t in ax.get_legend().get_texts()]
    assert keyed.count("no data: the log ends") == 1
    assert not [t for ax in fig.axes for t in ax.texts if "no data" in t.get_text()]
    plt.close(fig)
