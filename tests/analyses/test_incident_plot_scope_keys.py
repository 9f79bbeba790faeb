"""The incident figure scores its unseen incidents under the focus group's keys (``--plot``).
Before, it scored the focus group's episodes without its ``by`` keys, so an incident scoped by
those keys (``method=POST&region=fra``, run with ``--by method,region``) warned "incident scopes
name method, region, not --by keys ... give --by method,region": the keys the user gave.

Hand-built log: groups GET/POST x fra/iad, one event a minute each, 2026-04-01 00:00 .. 2026-04-02
23:59, all successes; POST/fra silent on 2026-04-02 00:00 .. 12:00. Incident I1, scope
method=POST&region=fra, 02:00 .. 03:00 that day: in POST/fra's silence, so no 1 h window evaluated
from its start to its end + 1 h grace holds an event of its scope: unseen (drawn hollow).

The figure's title names the scope and the focus group once when they are the same pairs (it read
"..., method=POST&region=fra, method=POST, region=fra")."""

from __future__ import annotations

import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import budgetlab as bl  # noqa: E402
from budgetlab.cli import main  # noqa: E402

START, END = "2026-04-02T02:00:00Z", "2026-04-02T03:00:00Z"


def _log() -> pd.DataFrame:
    t0 = pd.Timestamp("2026-04-01", tz="UTC")
    m = np.arange(2 * 1440)
    frames = []
    for method in ("GET", "POST"):
        for region in ("fra", "iad"):
            silent = (method, region) == ("POST", "fra")
            keep = ~(silent & (m >= 1440) & (m < 1440 + 720))
            frames.append(pd.DataFrame({"ts": t0 + pd.to_timedelta(m[keep], unit="min"),
                                        "method": method, "region": region,
                                        "outcome": "success"}))
    return pd.concat(frames).sort_values("ts", kind="stable").reset_index(drop=True)


def _incidents() -> pd.DataFrame:
    return pd.DataFrame({"incident_id": ["I1"], "start": [START], "end": [END],
                         "scope": ["method=POST&region=fra"]})


@pytest.fixture(scope="module")
def drawn():
    """The report's figure of I1 (--by method,region, scope method=POST&region=fra) and the
    warnings drawing it gave."""
    log = _log()
    ev = bl.as_events(log["ts"], np.ones(len(log), bool),
                      groups={"method": log["method"], "region": log["region"]})
    inc = _incidents().assign(start=pd.to_datetime([START], utc=True),
                              end=pd.to_datetime([END], utc=True))
    rep = bl.incident_report(ev, bl.SLO(0.95, "1h"), inc["start"][0], inc["end"][0],
                             by=["method", "region"], scope="method=POST&region=fra",
                             incidents=inc, policy=bl.AlertPolicy.single_window("1h"))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        fig = rep.plot()
    yield fig, [str(w.message) for w in seen]
    plt.close(fig)


def test_the_figure_scores_a_scoped_incident_under_the_focus_groups_keys_without_warning(drawn):
    fig, said = drawn
    assert [m for m in said if "scopes name" in m] == []
    (ax,) = [a for a in fig.axes if a.get_ylabel().startswith("alert\ntier")]
    bars = [p for c in ax.containers if c.get_label() == "incidents" for p in c.patches]
    assert [b.get_gid() for b in bars] == ["incident_unseen"]  # in POST/fra's silence


def test_the_title_names_a_scope_that_is_the_focus_group_once(drawn):
    # the scope names the focus group: said once, not again as "method=POST, region=fra"
    title = drawn[0].get_suptitle()
    assert title.startswith("Incident 2026-04-02 02:00")
    assert title.endswith("(UTC), method=POST&region=fra")


def test_incident_plot_with_the_scopes_keys_as_by_does_not_warn(tmp_path, capsys):
    log, inc = tmp_path / "log.csv", tmp_path / "incidents.csv"
    frame = _log()
    frame.assign(ts=frame["ts"].dt.strftime("%Y-%m-%dT%H:%M:%SZ")).to_csv(log, index=False)
    _incidents().to_csv(inc, index=False)
    assert main(["incident", str(log), "--by", "method,region", "--target", "0.95", "--window",
                 "1h", "--incidents", str(inc), "--id", "I1", "--policy", "single_window",
                 "--plot", str(tmp_path / "a.png")]) == 0
    out, err = capsys.readouterr()
    assert "not --by keys" not in " ".join((out + err).split())
    assert "wrote the plot to" in out
