"""Why a point of :func:`~budgetlab.plotting.plot_window_comparison` is not drawn, said at its
window: a time share or rate per day withheld on a row with under a day of evaluated time
(:func:`mark_thin`), or a detection or recovery time that does not exist (NaT: none detected, no
incident, none recovered; :func:`mark_no_time`). A gap in a line is never left unexplained.
Words in a panel stay inside their window's slot (:func:`keep_in_slots`): with many windows, a
key there and the words in the note under the x label.
"""

from __future__ import annotations

import re
import textwrap
from string import ascii_lowercase
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.text import Text

from .._util.thin import MIN_EVALUATED_HOURS
from .._util.validation import window_words
from ..analyses.recalibration.rules import MIN_EXPECTED_FAILURES

__all__ = ["CLEAR_PT", "MOST_NAMED", "REASONS", "SLOT_SHARE", "THIN_LABEL", "THIN_WHY",
           "already_words", "fits_slot", "keep_in_slots", "keep_units",
           "mark_no_time", "mark_thin", "no_time_note", "why_no_time"]

#: The words on a window whose drawn column is withheld (too little evaluated time, no event in
#: it, or too few events for the target: :func:`~budgetlab.analyses.window_clock.thin_rows`).
THIN_LABEL = "too thin for a verdict"
#: Why, in the figure's note: the three rules of ``thin_rows``.
THIN_WHY = (f"under {MIN_EVALUATED_HOURS:g} h evaluated, no event in it, or under "
            f"{MIN_EXPECTED_FAILURES:g} expected failures")
#: Why a detection or recovery time is missing (:func:`why_no_time`), in the order said.
REASONS = ("none detected", "unseen (no traffic)", "no incident", "none recovered",
           "0 events evaluated")
#: A figure and the unit after it (``24 h``, ``1 h 47 min``, ``5 %``): the space between them
#: is made non-breaking by :func:`keep_units`.
_FIGURE_UNIT = re.compile(r"(?<=\d) (?=(?:h|min|s|ms|d|w|%)(?![\w]))")
#: The most series named before a reason at a window (more: ``k of n``).
MOST_NAMED = 2
#: The room (points) kept on each side of words in a window's slot: a neighbour's largest
#: marker reaches 5 pt into it, the words' white ground 2.4 pt out of them.
CLEAR_PT = 8.5
#: The share of its slot's width (and of the panel's height) words may take: the panels narrow
#: a little after they are measured (room made for the y labels).
SLOT_SHARE = 0.9

#: A window's words for a note (its position, its words).
Said = tuple[float, str]
#: Words drawn in a panel (the window's position, its words for a note, the text drawn).
Placed = tuple[float, str, Text]


def mark_thin(p: Axes, column: str, x_all: np.ndarray, series: np.ndarray, thin: np.ndarray,
              windows: list[str]) -> tuple[bool, list[str], list[Placed]]:
    """On each window where ``column`` is withheld for every series (thin rows): a hatched band
    over the panel's height and the words :data:`THIN_LABEL`. Where only some are withheld, the
    other series' marks are drawn there: no band (it lay over them) and no words in the panel
    (they covered the marks of thousands of groups), only the words returned for a note outside
    it, naming those not drawn at each such window (``POST at 12 h``; ``k of n`` beyond
    :data:`MOST_NAMED`). Whether a band was drawn (what the legend's hatched key stands for),
    those words, and the words placed on the bands (for :func:`keep_in_slots`; their words
    ``""``: the legend's key says them)."""
    from ..analyses.window_clock import THIN_COLUMNS

    if column not in THIN_COLUMNS or not thin.any():
        return False, [], []
    n_series, banded, said = len(pd.unique(series)), False, []
    placed: list[Placed] = []
    for x in np.unique(x_all[thin]).tolist():
        named = [str(n) for n in pd.unique(series[thin & (x_all == x)])]
        if len(named) < n_series:  # marks of the others drawn here: said outside the panel
            who = (", ".join(named) if len(named) <= MOST_NAMED
                   else f"{len(named):,} of {n_series:,}")
            said.append(f"{who} at {window_words(windows[int(x)])}")
            continue
        p.axvspan(x - 0.3, x + 0.3, fill=False, hatch="//", edgecolor="0.8", lw=0, zorder=0.5,
                  gid=f"thin:{column}:{windows[int(x)]}")
        placed.append((x, "", _say(p, x, textwrap.fill(THIN_LABEL, 14), 3,
                                   f"thin_label:{column}:{windows[int(x)]}")))
        banded = True
    return banded, said, placed


def _say(p: Axes, x: float, text: str, zorder: float, gid: str) -> Text:
    """``text`` at window ``x``, centred on the panel's height, on a white ground."""
    return p.text(x, 0.5, text, transform=p.get_xaxis_transform(), ha="center", va="center",
                  fontsize=8, color="0.3", zorder=zorder,
                  bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.85}, gid=gid)


def why_no_time(table: pd.DataFrame, column: str) -> np.ndarray:
    """Why each row of ``table`` has no time in ``column`` (a detection or recovery time, NaT):
    ``no incident`` (none counted for the row: nothing to detect), ``unseen (no traffic)`` (the
    window held no traffic during any of them: nothing to detect, no miss), ``none detected``
    (the window missed them all: no detection, nothing to recover from), ``none recovered``
    (every detected incident still alerting when the log ends: recovery columns only), ``0 events
    evaluated`` (detections withheld: no event in the row's evaluated span, ``detected`` NaN),
    ``already CRITICAL or worse at start`` (detection columns: each incident neither detected nor
    missed began while the window was already at ``alert_at``, ``attrs["alert_at"]``, or
    worse, ``already_at_alert``: a median over none; ``... or unseen`` when some were unseen:
    :func:`already_words`); ``""`` where it has one, or for another column. Without the counts
    (``incidents``, ``detected``, ``missed``): ``none detected``, what the table's NaT says.

    >>> t = pd.DataFrame({"incidents": [2, 0, 2, 2, 1, 2], "detected": [0, 0, 2, 1, 0, None],
    ...                   "missed": [2, 0, 0, 1, 0, None],
    ...                   "recovery_median": pd.to_timedelta([None] * 3 + ["5min"] + [None] * 2)})
    >>> why_no_time(t, "recovery_median").tolist()
    ... # doctest: +NORMALIZE_WHITESPACE
    ['none detected', 'no incident', 'none recovered', '', 'unseen (no traffic)',
     '0 events evaluated']
    """
    if not column.startswith(("detection_", "recovery_")):
        return np.full(len(table), "", dtype=object)
    n = len(table)

    def count(name: str, default: int) -> np.ndarray:
        # float, NaN where withheld (a nullable Int64 count's <NA> compares as no number)
        return (table[name].to_numpy(dtype=np.float64, na_value=np.nan)
                if name in table.columns else np.full(n, default, dtype=np.float64))

    counted, detected, missed = count("incidents", 1), count("detected", 0), count("missed", 1)
    already, unseen = count("already_at_alert", 0), count("unseen", 0)
    withheld = pd.isna(detected) & (counted != 0)
    none = (detected == 0) & (missed == 0)  # neither detected nor missed
    at_alert = already > 0  # began at the alert status: no detection time, a recovery one
    recovery = np.full(n, column.startswith("recovery_"))
    words = already_words(table)
    why = np.select([counted == 0, withheld, none & at_alert & ~recovery & (unseen > 0),
                     none & at_alert & ~recovery, none & ~at_alert,
                     (detected == 0) & ~(recovery & at_alert), recovery],
                    ["no incident", "0 events evaluated", f"{words} or unseen", words,
                     "unseen (no traffic)", "none detected", "none recovered"],
                    "").astype(object)  # a detection time missing though one was detected: ""
    return np.where(pd.isna(table[column]).to_numpy(), why, "")


def already_words(table: pd.DataFrame) -> str:
    """Why a detection time is missing where each incident began at the alert status (the
    table's ``attrs["alert_at"]``, critical when it has none) or worse: ``already CRITICAL or
    worse at start`` (the column legend's words; the window may have been EXHAUSTED), ``already
    EXHAUSTED at start`` (nothing is worse).

    >>> t = pd.DataFrame()
    >>> t.attrs["alert_at"] = "warning"
    >>> already_words(t)
    'already WARNING or worse at start'
    """
    alert_at = str(table.attrs.get("alert_at", "critical"))
    worse = "" if alert_at == "exhausted" else " or worse"
    return f"already {alert_at.upper()}{worse} at start"


def mark_no_time(p: Axes, column: str, table: pd.DataFrame, values: np.ndarray,
                 x_all: np.ndarray, series: np.ndarray, windows: list[str],
                 apart: np.ndarray | None = None) -> tuple[list[Said], list[Placed]]:
    """On each window where a series has no detection or recovery time (NaT: not a point, a
    gap), the reason in words (:func:`why_no_time`), after the series' names when not every
    series lacks it (``POST: no incident``; ``k of n:`` beyond :data:`MOST_NAMED`). Where no
    series has a mark at the window, in the panel (gid ``no_time:<column>:<window>``; returned
    as placed, for :func:`keep_in_slots`); where some have, the words are returned for a note
    outside the panel (:func:`no_time_note`): in it, at the window, they lay over the marks
    drawn there. Each with its window's position and its words on one line (``at 1 h POST: no
    incident``). ``apart`` (per row, the incidents counted apart in words:
    :func:`~budgetlab.plotting.window_counts.apart_words`) follows ``none detected`` and ``none
    recovered`` in brackets with up to :data:`MOST_NAMED` series (``none detected (2 already
    CRITICAL or worse at start, 1 missed)``): what none of how many is; not when they only say
    the reason again (every incident missed, or every one reached unrecovered)."""
    why = why_no_time(table, column)
    why = np.where(np.isnan(values), why, "")  # a value drawn needs no words
    n_series = len(pd.unique(series))
    base = why.copy()  # the reason, for the order said
    if apart is not None and n_series <= MOST_NAMED:
        # not when it says the reason again: "none detected (2 missed)"
        own = pd.Series(apart, dtype=object).str.fullmatch(r"[\d,]+ (missed|unrecovered)")
        add = np.isin(why, ["none detected", "none recovered"]) & (apart != "") & ~own.to_numpy()
        why = np.where(add, why + " (" + apart.astype(str) + ")", why)
    order = (*REASONS, already_words(table), f"{already_words(table)} or unseen")
    said: list[Said] = []
    placed: list[Placed] = []
    for x in np.unique(x_all[why != ""]).tolist():
        here = (x_all == x) & (why != "")
        lines = []
        for reason in sorted(set(why[here].tolist()), key=lambda r: order.index(base[
                here & (why == r)][0])):
            named = [str(n) for n in pd.unique(series[here & (why == reason)])]
            if not named:
                continue
            who = ("" if len(named) == n_series else ", ".join(named) + ": "
                   if len(named) <= MOST_NAMED else f"{len(named):,} of {n_series:,}: ")
            lines.append(who + reason)
        words = f"at {window_words(windows[int(x)])} " + ", ".join(lines)
        if np.isfinite(values[x_all == x]).any():  # marks drawn here: said outside the panel
            said.append((x, words))
            continue
        placed.append((x, words, _say(p, x, "\n".join(textwrap.fill(line, 14) for line in lines),
                                      1.2, f"no_time:{column}:{windows[int(x)]}")))
    return said, placed


def keep_in_slots(panels: list[Axes], placed: list[list[Placed]],
                  n_windows: int) -> list[list[Said]]:
    """The words drawn in the panels at windows without a mark (:func:`mark_thin`'s and
    :func:`mark_no_time`'s ``placed``, one list per panel), kept inside their windows' slots:
    with many windows (ten, 1 h .. 30 d) they reached the next window's words and marks. Each
    must be narrower than its slot (the panel's width over ``n_windows``, less the room of a
    neighbour's marker on both sides, :data:`CLEAR_PT`) and lower than the panel, as measured
    on the figure now. When one is not, the words of every window without a mark become a key
    there (``(a)``, ``(b)``, ...; nothing when even that is too wide) and are returned, keyed
    (``(a) at 2 h none detected``), for the note under the panels, by panel; the words of a
    hatched band (:data:`THIN_LABEL`, where every series is withheld) are taken out instead:
    the legend's hatched key says them."""
    keyed: list[list[Said]] = [[] for _ in panels]
    if _renderer(panels[0]) is None or not any(placed):
        return keyed

    def fits(p: Axes, text: Any) -> bool:
        return fits_slot(p, text, n_windows)

    fit = [[fits(p, text) for _, _, text in here] for p, here in zip(panels, placed, strict=True)]
    if all(all(ok) for ok in fit):
        return keyed
    n = sum(1 for here in placed for _, words, _ in here if words)
    keys = iter(list(ascii_lowercase) if n <= len(ascii_lowercase) else range(1, n + 1))
    for i, (p, here) in enumerate(zip(panels, placed, strict=True)):
        for (x, words, text), ok in zip(here, fit[i], strict=True):
            if not words:  # a band's words: the legend's hatched key says them
                if not ok:
                    text.remove()
                continue
            key = f"({next(keys)})"
            text.set_text(key)
            keyed[i].append((x, f"{key} {words}"))
            if not fits(p, text):
                text.remove()
    return keyed


def _renderer(p: Axes) -> Any:
    """The renderer of ``p``'s figure, ``None`` when its canvas has none (nothing to measure)."""
    fig = p.get_figure(root=True)
    get = getattr(fig.canvas, "get_renderer", None) if fig is not None else None
    return get() if get is not None else None


def fits_slot(p: Axes, text: Any, n_windows: int) -> bool:
    """Whether ``text`` (drawn in panel ``p`` of ``n_windows`` windows) is narrower than its
    window's slot, less the room of a neighbour's marker on both sides (:data:`CLEAR_PT`), and
    lower than the panel, as measured on the figure now; True when nothing can measure it."""
    r, fig = _renderer(p), p.get_figure(root=True)
    if r is None or fig is None:
        return True
    box, panel = text.get_window_extent(r), p.get_window_extent(r)
    room = SLOT_SHARE * panel.width / n_windows - 2 * CLEAR_PT * fig.dpi / 72
    return bool(box.width <= room and box.height <= SLOT_SHARE * panel.height)


def keep_units(text: str) -> str:
    """``text`` with each figure bound to its unit by a non-breaking space (``24\u00a0h``): a
    note drawn with ``wrap=True`` breaks its lines at spaces, and broke ``at 24`` from ``h``.

    >>> keep_units("19,000 of 20,000 at 24 h; 1 h 47 min; 5 % of 7 days")
    '19,000 of 20,000 at 24\xa0h; 1\xa0h 47\xa0min; 5\xa0% of 7 days'
    """
    return _FIGURE_UNIT.sub("\u00a0", text)


def no_time_note(bottom: Axes, said: list[tuple[str, list[str]]], under: Any) -> list[Any]:
    """The words of :func:`mark_no_time` at windows where other series have marks, and those
    keyed in the panel by :func:`keep_in_slots` (``said``: each panel's label and words, in
    window order), in one note (gid ``no_time_label``) under ``under`` (the x label, or the
    note of the thin words below it), outside the panels."""
    lines = [f"{label}, no mark: " + "; ".join(words) for label, words in said if words]
    if not lines:
        return []
    return [bottom.annotate(keep_units("\n".join(lines)), xy=(0, 0),
                            xycoords=("axes fraction", under),
                            xytext=(0, -4), textcoords="offset points", fontsize="small",
                            va="top", gid="no_time_label", wrap=True)]
