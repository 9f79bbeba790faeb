"""The incident figure of a report of one scope (region=ams, no group keys) whose incidents name a
breakdown column too (captcha_type=v2&region=ams, as notebook 04 gives them): the alert panel
reads each incident over the group drawn, as the report reads its own, and raises no warning to
give ``by=`` (a notebook user gives no ``by=``)."""

from __future__ import annotations

import warnings

import matplotlib
import pandas as pd
import pytest

from budgetlab import SLO, as_events, incident_report

matplotlib.use("Agg")
pytestmark = pytest.mark.usefixtures("close_figures")  # rep.plot() leaves its figure open
T0 = pd.Timestamp("2026-03-02", tz="UTC")


def test_a_breakdown_key_in_an_incident_scope_raises_no_by_warning_in_the_figure():
    # an event every 30 s for 4 h in v2·ams and in v3·fra, all successes; the report: region=ams
    ts = [T0 + pd.Timedelta(seconds=30 * i) for i in range(4 * 120)]
    n = len(ts)
    ev = as_events(ts * 2, [True] * (2 * n), groups={"captcha_type": ["v2"] * n + ["v3"] * n,
                                                     "region": ["ams"] * n + ["fra"] * n})
    at = (T0 + pd.Timedelta("2h"), T0 + pd.Timedelta("2h10min"))
    inc = pd.DataFrame({"incident_id": ["x"], "start": [at[0]], "end": [at[1]],
                        "scope": ["captcha_type=v2&region=ams"]})
    rep = incident_report(ev, SLO(target=0.9, window="1h"), *at, scope="region=ams",
                          breakdown_by="captcha_type", incidents=inc, context="1h")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = rep.plot()
    assert fig is not None
    from budgetlab.analyses.incident_plot_alerts import on_report_keys  # after: new today
    # read within the report's scope (region=ams kept), captcha_type left out: no group key
    assert list(on_report_keys(rep.incidents, [])["scope"]) == ["region=ams"]
    # with captcha_type a group key it stays
    assert list(on_report_keys(rep.incidents, ["captcha_type"])["scope"]) == [
        "captcha_type=v2&region=ams"]


def test_the_span_of_start_end_is_keyed_in_the_alert_panel_where_it_is_shaded():
    # no incidents table: the report's span (10:00 .. 10:30) alone is shaded on every panel;
    # the alert panel has a legend of its own, so it keys the shade there too
    ts = [T0 + pd.Timedelta(seconds=30 * i) for i in range(24 * 120)]
    ev = as_events(ts, [not (T0 + pd.Timedelta("10h") <= t < T0 + pd.Timedelta("10h10min"))
                        for t in ts])
    rep = incident_report(ev, SLO(target=0.9, window="1h"), T0 + pd.Timedelta("10h"),
                          T0 + pd.Timedelta("10h30min"), context="2h")
    fig = rep.plot()
    alert = next(ax for ax in fig.axes if ax.get_ylabel() == "alert\ntier")
    assert "incident" in [t.get_text() for t in alert.get_legend().get_texts()]
