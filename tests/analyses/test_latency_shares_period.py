"""``plot_latency_shares(shares, freq=...)`` refuses a ``freq`` that differs from the period the
table was made with (``shares.attrs["freq"]``): its y label would misname the periods drawn (it
took ``freq`` silently); one that names the same period is drawn."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from budgetlab.analyses.latency_profile import latency_profile
from budgetlab.errors import ConfigError
from budgetlab.plotting import plot_latency_shares

pytestmark = pytest.mark.usefixtures("close_figures")

EV = pd.DataFrame({
    "ts": pd.to_datetime(["2026-01-01", "2026-01-02"], utc=True).as_unit("ns"),
    "ok": [True, True], "bucket": pd.Categorical(["success", "success"]),
    "duration": pd.to_timedelta([2, 8], unit="s")})


def test_a_freq_other_than_the_tables_period_is_refused():
    shares = latency_profile(EV, thresholds=["5s"]).shares  # freq "1D"
    with pytest.raises(ConfigError) as err:
        plot_latency_shares(shares, freq="1h", ax=plt.figure().gca())
    assert str(err.value) == (
        "freq='1h' differs from the table's period (freq='1D', from shares.attrs['freq'], which "
        "latency_profile wrote): the y label would misname its periods; leave freq unset, or "
        "make the table with latency_profile(freq='1h').")


def test_a_freq_on_a_whole_log_table_is_refused():
    shares = latency_profile(EV, thresholds=["5s"], freq=None).shares
    with pytest.raises(ConfigError, match=r"\(one period over the whole log, from shares"):
        plot_latency_shares(shares, freq="1D", ax=plt.figure().gca())


def test_the_same_period_spelled_otherwise_is_drawn():
    shares = latency_profile(EV, thresholds=["5s"]).shares  # "1D" is 24 h
    ax = plot_latency_shares(shares, freq="24h", ax=plt.figure().gca())
    assert ax.get_ylabel().splitlines()[1] == "the threshold per 24 h period (%)"
