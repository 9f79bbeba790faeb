"""An incident's shading across the rows of its scope is hatched as its bar and its legend key
("incident", a hatched box), never the light grey of a tier's silence ("no event in the tier's
long window: cannot fire"): an SRE read the chart as saying the group could not fire during its
incident (the shading was grey at alpha 0.12, filled, unhatched). Oracle: the legend keys'
looks (the incident's hatched box, the silence's filled band)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from budgetlab import AlertPolicy, alert_episodes, as_events, bin_events  # noqa: E402
from budgetlab.plotting import plot_alerts  # noqa: E402

T0 = pd.Timestamp("2026-03-02 00:00", tz="UTC")


def test_the_incident_shade_looks_like_its_key_not_like_a_silence() -> None:
    # an event a minute from 00:00 to 02:00 and 04:00 to 06:00 (a silence of the 1 h window
    # from 03:01 to 04:00), failing from 00:30 to 00:45, the incident's span
    minutes = [m for m in range(360) if m < 120 or m >= 240]
    ts = pd.DatetimeIndex([T0 + pd.Timedelta(minutes=m) for m in minutes])
    bins = bin_events(as_events(ts, [not 30 <= m < 45 for m in minutes]), "1min")
    ep = alert_episodes(bins, 0.9, AlertPolicy.single_window("1h", burn=1.0))
    inc = pd.DataFrame({"incident_id": ["I1"], "start": [T0 + pd.Timedelta("30min")],
                        "end": [T0 + pd.Timedelta("45min")]})
    ax = plot_alerts(ep, incidents=inc, bins=bins)
    plt.close(ax.figure)
    shades = [p for p in ax.patches if p.get_gid() == "incident"]
    assert len(shades) == 1
    silence = next(c for c in ax.collections if c.get_gid() == "no_traffic")
    keys = {h.get_label(): h for h in ax.alert_keys}
    shade, key = shades[0], keys["incident"]
    # as its key: hatched the same, no fill
    assert shade.get_hatch() == key.get_hatch() == "//"
    assert shade.get_facecolor()[3] == 0 and key.get_facecolor()[3] == 0
    # apart from the silence: its band is filled and ruled otherwise
    assert silence.get_facecolor()[0][3] > 0
    assert silence.get_hatch() != shade.get_hatch()
