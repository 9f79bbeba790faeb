"""Comparing a table with the oracle's (the verbatim copies of earlier implementations), where the
current API differs from them on purpose, each difference stated and checked."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab.alerts.score_table import DURATION_COLUMNS


def assert_same_as_oracle(got: pd.DataFrame, want: pd.DataFrame) -> None:
    """``got`` equals the oracle table ``want``: exactly, except (1) the score table's duration
    columns are always timedelta64[ns], (2) its rates per day are over observed time (checked here
    against the oracle's counts and ``observed_days``; observed_days itself by a loop in
    tests/alerts/test_observed_time.py) and withheld (NaN, a ``rates_note`` saying why) under one
    day of it, (3) alert_episodes records ``tier_windows`` in attrs, (4) the score tables record
    ``incidents_outside`` in attrs (incidents wholly outside the grid, not scored; the oracle
    scored every incident, so the count must be 0 for the tables to be equal), (5) they record
    ``budget_note`` in attrs (why budget_before_alert is withheld, when the period is longer than
    the span; the oracle never withheld it, so the note must be empty)."""
    # the oracle built its table from dicts: a duration column without any detection came out as
    # all-NaT datetime64[s]; the columnar table keeps it timedelta64[ns] (NaT): the same values
    want = want.copy()
    for col in DURATION_COLUMNS:
        if col in want.columns and want[col].dtype.kind == "M" and bool(want[col].isna().all()):
            want[col] = pd.Series(pd.NaT, index=want.index, dtype="timedelta64[ns]")
    if "observed_days" in got.columns and "observed_days" not in want.columns:
        # rates per day are over observed time now (tests/alerts/test_observed_time.py checks
        # observed_days by a loop); the oracle's rates were over the whole span: rescaled here
        days = got["observed_days"].to_numpy()
        # under one day (24 h) of observed time a rate per day or week is withheld
        thin = ~(days >= 1.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            rates = {
                "pages_per_day": want["episodes"].to_numpy() / days,
                "false_pages_per_week": (want["episodes"] - want["true_episodes"]).to_numpy()
                / (days / 7),
            }
        for col, values in rates.items():
            np.testing.assert_allclose(got[col].to_numpy(), np.where(thin, np.nan, values),
                                       rtol=1e-12, atol=0)
        np.testing.assert_array_equal(got["rates_note"].to_numpy() != "", thin)
        got = got.drop(columns=[*rates, "observed_days", "rates_note"])
        want = want.drop(columns=list(rates))
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert got.attrs.get("incidents_outside", 0) == 0
    assert got.attrs.get("budget_note", "") == ""
    assert {k: v for k, v in got.attrs.items()
            if k not in ("tier_windows", "incidents_outside", "budget_note")} == want.attrs
