"""The row of a tier that can never fire says so inside the axes, in its own row: never over the
tier names left of the axes nor over the legend right of them (stop 58: the whole sentence, "page_1h
can never fire at target 0.88: it needs an error ratio above ...", was centred in the row and ran
over both). The row says it short; the rule is a line of the legend.

Oracles: the thresholds by hand, the workbook's page_1h burn 14.4 x (1 - target): 14.4 x 0.12 =
1.728 at 0.88 and 14.4 x 0.07 = 1.008 at 0.93 (both above 1: never), 14.4 x 0.03 = 0.432 at 0.97
(it can fire: no text); pyrra's 1 h tier at 0.88, burn 14 x 0.12 = 1.68. Positions are the text
artists' window extents once drawn, against the axes' and the legend's."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from budgetlab import SLO, PerGroup, alert_episodes, as_events, bin_events  # noqa: E402
from budgetlab.cli.alert_figure import policy_figure  # noqa: E402

T0 = pd.Timestamp("2026-03-02 00:00", tz="UTC")
TARGETS = {"image": 0.88, "recaptcha_v2": 0.93, "turnstile": 0.97}


def _bins() -> pd.DataFrame:
    """Three groups, one event a minute each for 12 h; each fails minutes 300..599 (5 h: every
    group fires, and so has its rows)."""
    ts = pd.DatetimeIndex([T0 + pd.Timedelta(minutes=m) for m in range(720)]).repeat(3)
    ok = [not 300 <= i // 3 < 600 for i in range(720 * 3)]
    groups = {"captcha_type": list(TARGETS) * 720}
    return bin_events(as_events(ts, ok, groups=groups), "1min", by=["captcha_type"])


def _inside(inner, outer) -> bool:
    return (inner.x0 >= outer.x0 - 0.5 and inner.x1 <= outer.x1 + 0.5
            and inner.y0 >= outer.y0 - 0.5 and inner.y1 <= outer.y1 + 0.5)


def test_the_cannot_fire_rows_stay_inside_their_axes_and_rows() -> None:
    bins = _bins()
    per = PerGroup(TARGETS, base=SLO(target=0.95, window="24h"))
    episodes = {name: alert_episodes(bins, per, name) for name in ("workbook", "pyrra")}
    incidents = pd.DataFrame({"incident_id": ["D1"], "start": [T0 + pd.Timedelta("5h")],
                              "end": [T0 + pd.Timedelta("5h30min")],
                              "scope": ["captcha_type=recaptcha_v2"]})
    fig, _ = policy_figure(episodes, incidents, groups=bins, width=12)
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        said = {}
        for ax in fig.axes:
            box = ax.get_window_extent(renderer)
            legend = ax.get_legend().get_window_extent(renderer)
            ticks = [t.get_window_extent(renderer) for t in ax.get_yticklabels()]
            for text in (t for t in ax.texts if t.get_gid() == "cannot_fire"):
                ext = text.get_window_extent(renderer)
                assert _inside(ext, box), (text.get_text(), ext, box)
                assert not ext.overlaps(legend)
                assert not any(ext.overlaps(t) for t in ticks)
                # in its own row: within half a row of the row's centre
                row = text.get_position()[1]
                lo, hi = sorted(ax.transData.transform([(0, row - 0.5), (0, row + 0.5)])[:, 1])
                assert lo <= ext.y0 and ext.y1 <= hi
                label = ax.get_yticklabels()[int(row)].get_text()
                said[label] = text.get_text()
            keys = [t.get_text() for t in ax.get_legend().get_texts()]
            if any(t.get_gid() == "cannot_fire" for t in ax.texts):
                assert ("cannot fire: a tier needs an error\nratio above burn x (1 - target),\n"
                        "and an error ratio is at most 1") in keys
        assert said == {
            "image · page_1h (page)": "cannot fire at target 0.88: needs an error ratio above "
                                      "1.728",
            "recaptcha_v2 · page_1h (page)": "cannot fire at target 0.93: needs an error ratio "
                                             "above 1.008",
            "image · critical_1h4m (critical)": "cannot fire at target 0.88: needs an error "
                                                "ratio above 1.68",
        }
    finally:
        plt.close(fig)


def test_a_narrow_panel_clips_the_words_to_the_axes() -> None:
    """However narrow the panel, the words are clipped to the axes: drawn only inside them."""
    bins = _bins()
    per = PerGroup(TARGETS, base=SLO(target=0.95, window="24h"))
    fig, _ = policy_figure({"workbook": alert_episodes(bins, per, "workbook")}, None,
                           groups=bins, width=5)
    try:
        texts = [t for t in fig.axes[0].texts if t.get_gid() == "cannot_fire"]
        assert len(texts) == 2
        # clipped to the axes (ax.text sets the clip box, used only with clip_on)
        assert all(t.get_clip_on() for t in texts)
        fig.canvas.draw()
        box = fig.axes[0].bbox.extents
        assert all(t.get_clip_box().extents == pytest.approx(box) for t in texts)
    finally:
        plt.close(fig)
