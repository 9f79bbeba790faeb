"""The score table says WHICH incidents were unseen (``attrs["unseen_incidents"]``), and the alert
chart of ``alerts --plot`` draws those, read off the scores, instead of scoring every policy a
second time (stop 59).

Oracle: three hand-made incidents against one event a minute, a failure burst and a silence,
worked out by hand from the rule of budgetlab.alerts.unseen (no event in the tier's long window
from the incident's start to its end + grace, and no alert matched it): A is the burst (detected),
B lies in the silence (unseen), C in good traffic (missed). Only B is unseen."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

import budgetlab as bl  # noqa: E402
import budgetlab.alerts.scoring as scoring  # noqa: E402
from budgetlab.cli import main  # noqa: E402
from tests.alerts.test_unseen_incidents import _hand_case as unseen_hand_case  # noqa: E402

T0 = pd.Timestamp("2026-01-01", tz="UTC")
MIN = pd.Timedelta("1min")


def _at(minutes: float) -> pd.Timestamp:
    return T0 + minutes * MIN


def _incidents(spans: dict[str, tuple[float, float]], index: list[int] | None = None
               ) -> pd.DataFrame:
    return pd.DataFrame({"incident_id": list(spans), "scope": ["*"] * len(spans),
                         "start": [_at(a) for a, _ in spans.values()],
                         "end": [_at(b) for _, b in spans.values()]}, index=index)


def _hand_case():
    """The hand case of ``test_unseen_incidents`` (one event a minute for 10 h, a silence in
    minutes 200..319, minutes 100..119 failing; the 10 min tier fires from 01:45): its bins,
    policy and episodes."""
    _, bins, pol, ep = unseen_hand_case()
    return bins, pol, ep


# A: the failures (detected at 01:45); B: in the silence, its end + 10 min grace (04:00..04:30)
# long after the 10 min window last held an event (bin 199 leaves it at the evaluation 03:30)
# and before traffic is back (05:21): unseen; C: good traffic throughout, no alert: missed
SPANS = {"A": (100, 120), "B": (240, 260), "C": (400, 420)}


def test_the_scores_name_the_one_unseen_incident_by_its_row():
    bins, pol, ep = _hand_case()
    # a first incident wholly before the data (not scored) and labels that are not positions:
    # B is the table's third row (position 2) whatever its label
    inc = pd.concat([_incidents({"early": (-60, -30)}), _incidents(SPANS)]).set_axis([7, 3, 5, 1])
    sc = bl.score_alerts(ep, inc, grace="10min", bins=bins, target=0.9, policy=pol)
    # the one tier's row and both merged rows: B, and only B
    assert sc.attrs["unseen_incidents"] == [
        {"tier": "page_10m", "severity": "page", "rows": [2], "filling_rows": []},
        {"tier": "*", "severity": "page", "rows": [2], "filling_rows": []},
        {"tier": "*", "severity": "*", "rows": [2], "filling_rows": []}]
    assert inc.iloc[sc.attrs["unseen_incidents"][0]["rows"]]["incident_id"].tolist() == ["B"]
    # with filling="count" nothing is scored apart: no filling_rows, B still named
    count = bl.score_alerts(ep, inc, grace="10min", bins=bins, target=0.9, policy=pol,
                            filling="count")
    assert [r["rows"] for r in count.attrs["unseen_incidents"]] == [[2], [2], [2]]
    assert all("filling_rows" not in r for r in count.attrs["unseen_incidents"])


def test_an_unseen_incident_begun_while_the_window_filled_is_named_apart():
    """Groups ams (good events every minute from 00:00: the grid's start) and fra (good events
    from minute 300 only). A 3 h window fills at 03:00. F (region=fra, 01:00..01:10, 10 min
    grace): fra's window holds no event before 05:01, no alert: unseen, but begun while the
    window filled, so scored apart: in ``filling_rows``, not ``rows``. G (region=fra, 06:40..
    06:50): traffic, no alert: missed, not unseen."""
    ams = [(m, "ams") for m in range(600)]
    fra = [(m, "fra") for m in range(300, 600)]
    ev = bl.as_events(pd.DatetimeIndex([_at(m) for m, _ in ams + fra]), [True] * 900,
                      groups={"region": [g for _, g in ams + fra]})
    bins = bl.bin_events(ev, "1min", by="region")
    pol = bl.AlertPolicy.single_window("3h", burn=4.5)
    ep = bl.alert_episodes(bins, 0.9, pol)
    inc = _incidents({"F": (60, 70), "G": (400, 410)}).assign(scope="region=fra")
    sc = bl.score_alerts(ep, inc, grace="10min", bins=bins, target=0.9, policy=pol)
    assert [(r["tier"], r["rows"], r["filling_rows"]) for r in sc.attrs["unseen_incidents"]] \
        == [("page_3h", [], [0]), ("*", [], [0]), ("*", [], [0])]
    star = sc[(sc["region"] == "*") & (sc["tier"] == "*") & (sc["severity"] == "*")].iloc[0]
    assert (star["unseen"], star["incidents_filling"]) == (0, 1)  # counted apart, as named


def test_compare_policies_keeps_each_policys_unseen_incidents():
    bins, pol, _ = _hand_case()
    # the 10 min tier: B unseen (above); a 3 h window holds bin 199's event until the
    # evaluation 06:19, past B's grace: B is seen (missed), nothing unseen
    long = bl.AlertPolicy.single_window("3h", burn=4.5)
    t = bl.compare_policies(bins, 0.9, {"short": pol, "long": long}, _incidents(SPANS),
                            grace="10min", filling="count")
    assert [(r["policy"], r["tier"], r["rows"]) for r in t.attrs["unseen_incidents"]] == [
        ("short", "page_10m", [1]), ("short", "*", [1]), ("short", "*", [1]),
        ("long", "page_3h", []), ("long", "*", []), ("long", "*", [])]
    assert t.attrs["policies"] == {"short": {"period": "30d", "tiers": [["page_10m", "page"]]},
                                   "long": {"period": "30d", "tiers": [["page_3h", "page"]]}}


def _count_calls(monkeypatch) -> dict[str, int]:
    calls = {"score_alerts": 0, "incident_detections": 0}
    for name in calls:
        real = getattr(scoring, name)

        def counted(*a, _real=real, _name=name, **kw):
            calls[_name] += 1
            return _real(*a, **kw)

        monkeypatch.setattr(scoring, name, counted)
    return calls


def _incident_gids(ax) -> list[str | None]:
    bars = next(c for c in ax.containers if c.get_label() == "incidents").patches
    return [b.get_gid() for b in bars]


def _keep_drawn(monkeypatch) -> list[list[str | None]]:
    """The incident bars' gids of each figure the CLI saves, as it saves it."""
    import budgetlab._util.figures as figures

    drawn: list[list[str | None]] = []
    real_save = figures.save_figure

    def keep(fig, *a, **kw):
        drawn.append(_incident_gids(fig.axes[0]))
        return real_save(fig, *a, **kw)

    monkeypatch.setattr(figures, "save_figure", keep)
    return drawn


def test_policy_figure_draws_the_scored_unseen_incident_without_scoring_again(monkeypatch):
    from budgetlab.cli.alert_figure import policy_figure

    bins, pol, ep = _hand_case()
    inc = _incidents(SPANS)
    sc = bl.score_alerts(ep, inc, grace="10min", bins=bins, target=0.9, policy=pol)
    calls = _count_calls(monkeypatch)
    fig, _ = policy_figure({"p": ep}, inc, bins=bins, grace="10min", scores={"p": sc})
    assert _incident_gids(fig.axes[0]) == [None, "incident_unseen", None]  # B only
    assert calls == {"score_alerts": 0, "incident_detections": 0}
    plt.close(fig)


def test_alerts_plot_scores_each_policy_once_and_marks_exactly_the_unseen_one(tmp_path,
                                                                               monkeypatch):
    """``alerts --plot`` with the preset single_window (one 1 h window): its window holds bin
    199's event through the evaluation 04:19 and is empty from 04:20 to 05:20 (bin 320's end:
    05:21). B at 04:40..05:00 with 10 min grace (to 05:10): unseen; A (the failures: 20 of 60
    bins, an error ratio of 1/3 > 0.9 x 0.1) detected; C missed. One policy: one scoring, and
    no second one for the chart."""
    minutes = [m for m in range(600) if not 200 <= m < 320]
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": [_at(m).strftime("%Y-%m-%dT%H:%M:%SZ") for m in minutes],
                  "outcome": ["error" if 100 <= m < 120 else "success" for m in minutes]}
                 ).to_csv(log, index=False)
    inc = tmp_path / "inc.csv"
    spans = {"A": (100, 120), "B": (280, 300), "C": (400, 420)}
    _incidents(spans).assign(start=lambda d: d["start"].dt.strftime("%Y-%m-%dT%H:%M:%SZ"),
                             end=lambda d: d["end"].dt.strftime("%Y-%m-%dT%H:%M:%SZ")
                             ).to_csv(inc, index=False)
    drawn = _keep_drawn(monkeypatch)
    calls = _count_calls(monkeypatch)
    out = tmp_path / "al.png"
    assert main(["alerts", str(log), "--incidents", str(inc), "--target", "0.9", "--freq",
                 "1min", "--policy", "single_window", "--grace", "10min",
                 "--plot", str(out)]) == 0
    assert drawn == [[None, "incident_unseen", None]]  # B, and only B
    assert calls == {"score_alerts": 1, "incident_detections": 0}


def test_alerts_plot_finds_the_unseen_incident_among_those_it_drew(tmp_path, monkeypatch):
    """``alerts --by region --plot``: the first incident's scope names no group (not scored, but
    drawn), so the scores hold the other three under their labels 1..3 of the file's rows. fra
    as above (failures 100..119, silent 200..319), ams good every minute: B (region=fra, 04:40
    ..05:00 + 10 min) is unseen (fra's 1 h window empty from 04:20 to 05:20), A and C (``*``)
    are seen. The chart marks B, the file's third row: not the scores' second one."""
    fra = [m for m in range(600) if not 200 <= m < 320]
    rows = [(m, "fra", 100 <= m < 120) for m in fra] + [(m, "ams", False) for m in range(600)]
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": [_at(m).strftime("%Y-%m-%dT%H:%M:%SZ") for m, _, _ in rows],
                  "region": [r for _, r, _ in rows],
                  "outcome": ["error" if bad else "success" for _, _, bad in rows]}
                 ).to_csv(log, index=False)
    inc = tmp_path / "inc.csv"
    spans = {"X": (100, 120), "A": (100, 120), "B": (280, 300), "C": (400, 420)}
    _incidents(spans).assign(scope=["region=nowhere", "*", "region=fra", "*"],
                             start=lambda d: d["start"].dt.strftime("%Y-%m-%dT%H:%M:%SZ"),
                             end=lambda d: d["end"].dt.strftime("%Y-%m-%dT%H:%M:%SZ")
                             ).to_csv(inc, index=False)
    drawn = _keep_drawn(monkeypatch)
    calls = _count_calls(monkeypatch)
    assert main(["alerts", str(log), "--incidents", str(inc), "--target", "0.9", "--freq",
                 "1min", "--by", "region", "--policy", "single_window", "--grace", "10min",
                 "--plot", str(tmp_path / "al.png")]) == 0
    assert drawn == [[None, None, "incident_unseen", None]]  # B, the file's third row
    assert calls == {"score_alerts": 1, "incident_detections": 0}
