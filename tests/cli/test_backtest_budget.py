"""``backtest``'s ``budget_spent_pct``: the share of the period's budget, shown only when the whole
period before the episode lies in the span read; counted by hand."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest

from budgetlab.alerts.policy import AlertPolicy
from budgetlab.cli.backtest import _episodes_with_budget
from budgetlab.cli.backtest_report import print_episodes
from budgetlab.slo import SLO
from budgetlab.windows.bins import read_bins
from tests.outage_bins import T0, outage_bins


def three_hours() -> object:
    """The outage's 3 h of bins (tests/outage_bins.py), read."""
    return read_bins(outage_bins())


def spec() -> SimpleNamespace:
    return SimpleNamespace(slo=SLO(0.9, window="10min"), targets=None)  # one target, no file


def test_a_period_inside_the_span_gives_its_share_of_the_budget():
    """10-min window, burn 1.5, target 0.9: fires when the window's error ratio exceeds 0.15. At
    the end of minute 100 (01:41) the window [01:31, 01:41) holds 10 failures in 100 events (0.1);
    at 01:42, 20 in 100 (0.2): the episode starts at 01:42. The 1 h period before it,
    [00:42, 01:42), lies in the span and holds 600 events, 20 failed: 20 / (0.1 x 600) = 33.3 %."""
    pol = AlertPolicy.single_window("10min", burn=1.5, period="1h")
    ep = _episodes_with_budget(three_hours(), spec(), pol)
    assert ep["start"].tolist() == [T0 + pd.Timedelta("1h42min")]
    assert ep["budget_spent_pct"].tolist() == [pytest.approx(100 * 20 / (0.1 * 600), rel=1e-12)]


def test_a_period_longer_than_the_history_before_the_episode_is_withheld(capsys):
    """The same episode under a 30 d period: 1 h 42 min of history before it, not 30 d. The
    history's own budget (20 / (0.1 x 1020) = 19.6 %) is no share of a 30 d budget: withheld."""
    pol = AlertPolicy.single_window("10min", burn=1.5, period="30D")
    ep = _episodes_with_budget(three_hours(), spec(), pol)
    assert ep["start"].tolist() == [T0 + pd.Timedelta("1h42min")]
    assert ep["budget_spent_pct"].isna().tolist() == [True]
    print_episodes("single", ep, pol, pd.Timedelta("3h"))
    text = capsys.readouterr().out
    row = [ln.split() for ln in text.splitlines() if ln.split()[:1] == ["page_10m"]]
    assert row[0][-1] == "withheld"
    assert ("budget_spent_pct withheld for the one episode: it began less than the 30 d "
            "period after the span's start") in " ".join(text.split())
    assert "(3 h read)" in " ".join(text.split())


def test_backtest_says_in_words_when_budget_before_alert_is_withheld(capsys):
    """An incident over the failing minutes, scored as ``backtest`` scores it: under a 30 d period
    the 3 h read withholds budget_before_alert (detections.csv/scores.csv: empty cells), and the
    scores say why in words, never ``nan``; under a 1 h period nothing is withheld."""
    from budgetlab.alerts.scoring import incident_detections, score_alerts
    from budgetlab.cli.backtest_report import print_scores

    inc = pd.DataFrame({"incident_id": ["i1"], "scope": ["*"],
                        "start": [T0 + pd.Timedelta("1h40min")],
                        "end": [T0 + pd.Timedelta("1h50min")]})
    grid = three_hours()
    for period, withheld in (("30D", True), ("1h", False)):
        pol = AlertPolicy.single_window("10min", burn=1.5, period=period)
        ep = _episodes_with_budget(grid, spec(), pol)
        kw = {"grace": "1h", "bins": grid, "target": 0.9, "period": pol.period, "policy": pol}
        det = incident_detections(ep, inc, **kw)
        sc = score_alerts(ep, inc, **kw)
        assert det["budget_before_alert_pct"].isna().all() == withheld
        print_scores("single", det, sc, [], ep, 1)
        text = " ".join(capsys.readouterr().out.split())
        assert "nan" not in text.lower().split()
        note = ("budget_before_alert withheld: the bins span 3 h, less than the 30 d budget "
                "period, and a share of the 30 d budget needs a whole period of traffic (3 h "
                "would be scaled to 30 d); read at least 30 d.")
        assert (note in text) == withheld
        assert ("budget_before_alert withheld" in text) == withheld
    # the 1 h period: 20 failures (01:40-01:42) before the page at 01:42, of 0.1 x 600 = 60
    # (rows: the tier, its severity's tiers merged, all tiers merged)
    assert det["budget_before_alert_pct"].tolist() == [pytest.approx(100 * 20 / 60)] * 3
