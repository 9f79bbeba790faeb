"""The summary names groups by the keys that tell them apart, not by a column the scope pins
(stop 63: "across both groups by captcha_type and region" in the scope region=fra)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from budgetlab import SLO, AlertPolicy, incident_report


def _log() -> pd.DataFrame:
    """3 days, one event a minute per region (fra, ams) and captcha_type (image, v2); image
    times out from 10:00 to 11:00 on day 3 in both regions."""
    ts = pd.date_range("2026-01-01", periods=3 * 1440, freq="1min", tz="UTC").as_unit("ns")
    bad = (ts >= "2026-01-03 10:00") & (ts < "2026-01-03 11:00")
    parts = [pd.DataFrame({"ts": ts, "ok": ~(bad & (ct == "image")), "region": reg,
                           "captcha_type": ct,
                           "bucket": np.where(bad & (ct == "image"), "timeout", "success")})
             for reg in ("fra", "ams") for ct in ("image", "v2")]
    return pd.concat(parts).sort_values("ts", kind="stable").reset_index(drop=True)


def test_a_breakdown_in_a_region_scope_names_the_captcha_type_groups():
    rep = incident_report(_log(), SLO(target=0.95, window="1h"), "2026-01-03 10:00",
                          "2026-01-03 11:00", scope="region=fra", by="captcha_type",
                          breakdown_by=("captcha_type", "region"),
                          policy=AlertPolicy.workbook("30D"))
    # by hand: in region=fra the groups are captcha_type image and v2, 60 events each; image
    # fails all 60: 60 failures in 120 events, every one a timeout in image
    said = [s.strip() for s in re.findall(r"across ([^,;.(]*)", rep.summary)]
    assert said and set(said) == {"both groups by captcha_type"}, rep.summary
    assert ("100 % of the failures in the scope region=fra, across both groups by captcha_type, "
            "were timeouts in captcha_type=image") in rep.summary, rep.summary
    assert ("60 failures in 120 events in the scope region=fra, across both groups by "
            "captcha_type") in rep.summary, rep.summary
