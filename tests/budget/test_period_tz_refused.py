"""An unknown time zone is refused at the entry of the functions that take ``tz=``, by the
package's one check (a :class:`~budgetlab.errors.ConfigError` naming ``tz=``), whether or not
anything would have read it later (``period_budget`` read it only in its partial-period warning,
and then raised the zone library's own error)."""

from __future__ import annotations

import warnings
from zoneinfo import ZoneInfo

import matplotlib.pyplot as plt
import pandas as pd
import pytest

import budgetlab as bl
from budgetlab.errors import ConfigError

REFUSED = r"^tz='Mars/Base' is not a time zone; give an IANA name"


def _bins(hours: int) -> pd.DataFrame:
    ts = pd.date_range("2026-01-01", periods=hours * 6, freq="10min", tz="UTC")
    return bl.bin_events(bl.as_events(ts, [i % 50 != 0 for i in range(len(ts))]), "1h")


@pytest.mark.parametrize("hours", [3, 31 * 24])  # every row partial (warned) / 30 d filled
def test_period_budget_refuses_an_unknown_zone_without_a_calendar(hours):
    # as with calendar="day", which refused it already
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bl.errors.PartialWindowWarning)
        with pytest.raises(ConfigError, match=REFUSED):
            bl.period_budget(_bins(hours), 0.97, tz="Mars/Base")


def test_period_budget_names_a_zone_object_by_its_name():
    # attrs hold JSON values: a ZoneInfo given is named, as every tz= check names it
    pb = bl.period_budget(_bins(31 * 24), 0.97, calendar="day", tz=ZoneInfo("Europe/Berlin"))
    assert pb.attrs["tz"] == "Europe/Berlin"


def test_plot_timeout_tradeoff_refuses_before_drawing(close_figures):
    from budgetlab.analyses.timeout_tradeoff import timeout_tradeoff
    from budgetlab.plotting import plot_timeout_tradeoff

    ev = pd.DataFrame({"ts": pd.to_datetime(["2026-01-01"] * 3, utc=True).as_unit("ns"),
                       "ok": [True, True, False],
                       "bucket": pd.Categorical(["success", "success", "timeout"]),
                       "duration": pd.to_timedelta([2, 8, 30], unit="s")})
    fig = plt.figure()
    ax = fig.gca()
    with pytest.raises(ConfigError, match=REFUSED):
        plot_timeout_tradeoff(timeout_tradeoff(ev, timeouts=["5s", "30s"]), ax=ax, tz="Mars/Base")
    assert fig.axes == [ax] and not ax.lines  # nothing drawn, no second axis
