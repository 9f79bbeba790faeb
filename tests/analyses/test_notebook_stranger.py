"""What a stranger found running notebook 04 on their own logs (g62nb): the tracker's peak judged
below ``wake_burn`` too, and a report's own scope key read within it, never warned as a missing
``by=`` key."""

from __future__ import annotations

import math
import warnings

import matplotlib
import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, AlertPolicy, as_events, incident_report
from budgetlab.analyses.paging import wake_verdict

matplotlib.use("Agg")
pytestmark = pytest.mark.usefixtures("close_figures")  # rep.plot() leaves its figure open

# one event every 34 s over two days, one failure at day 2 02:00: the tracker's hour at its
# peak holds that failure among 3600 // 34 + 1 = 106 events (t - 1h <= ts <= t)
TIMES = pd.date_range("2026-01-01", periods=2 * 86400 // 34, freq="34s", tz="UTC")
FAIL = pd.Timestamp("2026-01-02 02:00:02", tz="UTC")  # 2753 x 34 s after the start


def _wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of k successes in n, by its published formula."""
    p = k / n
    mid, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (mid - half) / (1 + z * z / n), (mid + half) / (1 + z * z / n)


def test_a_peak_below_wake_burn_on_few_events_is_withheld_not_refuted():
    # Apache log, 2015-05-18 04:05: 1 failure in 107 events at target 99 %, burn 0.935, was
    # said "not justified: nothing was to be done"; its interval straddles 5.
    assert FAIL in TIMES
    ev = as_events(TIMES, TIMES != FAIL)
    rep = incident_report(ev, SLO(target=0.99, window="1h"), "2026-01-02 02:00",
                          "2026-01-02 03:00", policy=AlertPolicy.single_window("1h", 50.0))
    at = pd.Timestamp(rep.tracker.iloc[0]["peak_burn_at"])
    n = int(((TIMES >= at - pd.Timedelta("1h")) & (TIMES <= at)).sum())
    assert n == 106
    lo_ok, hi_ok = _wilson(n - 1, n)  # by hand: burn 0.943, interval 0.167 – 5.15
    b_lo, b_hi = (1 - hi_ok) / 0.01, (1 - lo_ok) / 0.01
    assert b_lo < 1 / (n * 0.01) < 5.0 < b_hi
    v = wake_verdict(ev, {"mine": rep}, wake_burn=5.0)
    assert v.verdict is None
    assert v.sentence.startswith("No verdict on waking the team: the windows that would justify "
                                 "it held too few events to tell.")
    assert (f"No verdict on the tracker's peak burn: the burn interval {b_lo:.3f} – {b_hi:.2f} "
            f"straddles the threshold 5: too few events ({n}) to tell") in v.sentence


def test_a_reports_own_scope_key_in_incident_scopes_is_not_warned_as_a_by_key():
    # notebook 04 (scope_column captcha_type, no by parameter) printed "incident scopes name
    # captcha_type, not a by= key ... give by=['captcha_type']": the report's events are all of
    # captcha_type=a, so an incident scoped to it covers them and one scoped to b covers none.
    kind = np.where(np.arange(len(TIMES)) % 2 == 0, "a", "b")
    ok = ~((TIMES >= "2026-01-02 02:00") & (TIMES < "2026-01-02 03:00") & (kind == "a"))
    ev = as_events(TIMES, ok).assign(captcha_type=kind)
    inc = pd.DataFrame({"incident_id": ["P1", "P2"],
                        "start": pd.to_datetime(["2026-01-02 02:00"] * 2, utc=True),
                        "end": pd.to_datetime(["2026-01-02 03:00"] * 2, utc=True),
                        "scope": ["captcha_type=a", "captcha_type=b"]})
    rep = incident_report(ev, SLO(target=0.95, window="1h"), "2026-01-02 02:00",
                          "2026-01-02 03:00", policy=AlertPolicy.single_window("1h", 0.9),
                          scope="captcha_type=a", incidents=inc)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rep.plot()
    said = [str(w.message) for w in caught if "by=" in str(w.message)]
    assert said == []


def test_a_window_summary_row_with_pairs_none_detected_says_so():
    # notebook 02 on NAB: a row of 3 pairs, 0 detected showed its medians "no summed value",
    # the words the docs keep for a row too thin to sum (pairs not counted)
    from budgetlab.analyses.table_style import styled_table

    t = pd.DataFrame({"window": ["1h", "1d"], "pairs": [3, np.nan], "detected": [0, np.nan],
                      "detection_median": pd.to_timedelta([None, None]),
                      "recovery_median": pd.to_timedelta([None, None])})
    s = styled_table(t, durations=["detection_median", "recovery_median"],
                     na_rep="no summed value")
    rows = s.hide(axis="index").to_string(delimiter=" | ").splitlines()
    assert rows[1].endswith("| none detected | none detected")
    assert rows[2].endswith("| no summed value | no summed value")


def test_a_group_without_bucket_failures_says_none_once():
    # notebook 03 on the Apache log (no timeouts): "GET meets its target 99 % even with the
    # timeout failures ... 0 timeout failures". By hand: 1,998 of 2,000 attempts succeed, 99.90 %.
    from budgetlab.analyses.choices.targets import bucket_target_verdicts

    ok = np.arange(2000) >= 2
    ev = pd.DataFrame({"method": "GET", "ok": ok,
                       "bucket": np.where(ok, "success", "server_error")})
    v = bucket_target_verdicts(ev, pd.DataFrame({"method": ["GET"], "target": [0.99]}),
                               bucket="timeout")
    assert v.loc[0, "verdict"] == "keep"
    assert v.loc[0, "sentence"] == ("GET meets its target 99 %: keep the target (99.90 %; 2,000 "
                                    "attempts, 2 failures, none of them timeout failures).")


def test_a_missing_column_is_not_suggested_a_name_sharing_letters_out_of_order():
    # notebook 05 on a log without 'duration': "Did you mean 'region'?" (difflib ratio
    # 2 x 4 / 14 = 0.571: d-u-r-a-t-i-o-n and r-e-g-i-o-n share r, i, o, n)
    from budgetlab._util.validation import require_columns
    from budgetlab.errors import SchemaError

    frame = pd.DataFrame(columns=["ts", "outcome", "captcha_type", "region", "worker"])
    with pytest.raises(SchemaError) as e:
        require_columns(frame, ["duration"])
    assert str(e.value).startswith("events has no column 'duration'. Columns present: 'ts'")


def test_a_thin_groups_candidate_rows_are_said_once():
    # notebook 01 on the stranger's log: hcaptcha (7 events) showed a row at 95 % and another at
    # 99.99 %, every figure withheld; the groups with figures keep all their rows
    from budgetlab.analyses.table_style import withheld_once

    t = pd.DataFrame({"captcha_type": ["hcaptcha", "hcaptcha", "image", "image"],
                      "target": [0.95, 0.9999, 0.95, 0.975], "events": [7, 7, 9000, 9000],
                      "share_exhausted": [np.nan, np.nan, 0.0, 0.002]})
    kept = withheld_once(t, "captcha_type", ["share_exhausted"])
    assert kept["target"].tolist() == [0.95, 0.95, 0.975]


def test_a_non_whole_duration_cell_is_written_in_the_windows_spelling_exactly():
    # compare-windows --out wrote 4m45s418ms664000ns; by hand 285.418664 s = 4 min 45.418664 s
    from budgetlab._util.durations import duration_cell, to_timedelta

    td = pd.Timedelta(285_418_664_000, unit="ns")
    assert duration_cell(td) == "4m45.418664s"
    assert to_timedelta(duration_cell(td)) == td
