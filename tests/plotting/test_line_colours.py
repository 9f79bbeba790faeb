"""Line and fill colours read on white: the WCAG contrast, the status colours' meaning and the
common colour-vision deficiencies, each by its published formula written out here."""

from __future__ import annotations

import itertools

import numpy as np
from matplotlib.colors import to_rgb

from budgetlab.plotting import BUCKET_COLORS, STATUS_COLORS
from budgetlab.plotting._common import GROUP_COLORS, OTHER_COLOR
from budgetlab.plotting.charts import _EXTRA_COLORS

WHITE = "#FFFFFF"


def _linear(hex_color: str) -> np.ndarray:
    # WCAG 2.1 relative luminance: sRGB channels linearised
    c = np.array(to_rgb(hex_color))
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def contrast(a: str, b: str = WHITE) -> float:
    # WCAG 2.1: L = 0.2126 R + 0.7152 G + 0.0722 B; ratio (L1 + 0.05) / (L2 + 0.05), L1 lighter
    la, lb = (float(_linear(x) @ [0.2126, 0.7152, 0.0722]) for x in (a, b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def test_the_contrast_formula_on_known_pairs():
    # WCAG's extremes, and the yellow this replaces (1.3 to 1, as the issue measured)
    assert contrast("#000000") == 21.0 and contrast(WHITE) == 1.0
    assert round(contrast("#F0E442"), 1) == 1.3
    assert round(contrast("#767676"), 2) == 4.54  # the lightest grey with 4.5 to 1 on white


def test_every_group_line_colour_has_the_graphics_contrast():
    # WCAG 2.1 SC 1.4.11 (non-text contrast): graphical objects at least 3 to 1 against white
    low = {c: round(contrast(c), 2) for c in GROUP_COLORS if contrast(c) < 3.0}
    assert not low
    assert len(set(GROUP_COLORS)) == len(GROUP_COLORS)


def test_other_and_fill_colours_are_no_fainter_than_the_lightest_status_colour():
    # the "other" groups' lines stay lighter than every group (they are context), and they and
    # the bucket fills are at least as visible as the palest status colour the bands use
    floor = min(contrast(c) for c in STATUS_COLORS.values())
    assert floor > 2.0
    for c in (OTHER_COLOR, *BUCKET_COLORS.values(), *_EXTRA_COLORS):
        assert contrast(c) >= floor, c
    assert all(contrast(OTHER_COLOR) < contrast(c) for c in GROUP_COLORS)


def test_no_two_neighbouring_group_colours_are_both_status_colours():
    # the first groups drawn together must not read as healthy beside critical (or exhausted)
    status = {c.upper() for c in STATUS_COLORS.values()}
    pairs = [(a, b) for a, b in itertools.pairwise(GROUP_COLORS)
             if a.upper() in status and b.upper() in status]
    assert not pairs


# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB
CVD = {
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                     [-0.011820, 0.042940, 0.968881]],
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                   [-0.003882, -0.048116, 1.051998]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                   [0.004733, 0.691367, 0.303900]],
}


def _lab(linear_rgb: np.ndarray) -> np.ndarray:
    # sRGB (D65) to XYZ to CIELAB, the textbook formulas
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ np.clip(linear_rgb, 0, 1)
    t = xyz / [0.95047, 1.0, 1.08883]
    f = np.where(t > 0.008856, np.cbrt(t), 7.787 * t + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def test_group_colours_stay_apart_with_colour_vision_deficiencies():
    # Okabe–Ito's own closest pair (blue and bluish green under tritanopia) is 17 CIELAB units
    # apart; the group colours keep at least that much in every simulation
    def closest(colors, m):
        return min(float(np.linalg.norm(_lab(m @ _linear(a)) - _lab(m @ _linear(b))))
                   for a, b in itertools.combinations(colors, 2))
    okabe = closest(["#0072B2", "#009E73"], np.array(CVD["tritanopia"]))
    assert 16.5 < okabe < 17.5
    for name, m in CVD.items():
        assert closest(GROUP_COLORS, np.array(m)) >= okabe - 0.5, name
    assert closest(GROUP_COLORS, np.eye(3)) >= okabe


def test_each_timeline_line_has_its_own_colour_and_the_legend_says_which():
    """The budget line was blue as the success rate (its comment said black): one colour per
    line, the budget black, which stands apart from the budget panel's 0.35 grey thresholds and
    zero line by lightness too (WCAG 3 to 1), and the legend keys it in the colour drawn."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd
    from matplotlib.colors import to_hex

    import budgetlab as bl

    ts = pd.date_range("2026-01-01", periods=600, freq="1min", tz="UTC")
    slo = bl.SLO(target=0.9, window="1h")
    states = bl.replay(bl.as_events(ts, [i % 7 != 0 for i in range(600)]), slo)
    fig = plt.figure(figsize=(8, 6))
    ax = bl.plotting.plot_timeline(states, slo=slo, ax=fig.gca())
    drawn = {ln.get_gid(): to_hex(ln.get_color()) for p in ax.panels for ln in p.lines
             if ln.get_gid() in ("success_rate", "burn_rate", "budget_remaining")}
    assert drawn == {"success_rate": "#0072b2", "burn_rate": "#cc79a7",
                     "budget_remaining": "#000000"}
    keyed = {t.get_text(): to_hex(h.get_color()) for leg in fig.legends + [
        p.get_legend() for p in ax.panels if p.get_legend()] for t, h in zip(
        leg.get_texts(), leg.legend_handles, strict=True) if t.get_text().startswith("budget r")}
    assert keyed == {"budget remaining (%)": "#000000"}
    assert round(contrast("#000000", to_hex("0.35")), 1) == 3.0
    plt.close(fig)
