"""``budgetlab incident``'s alert tier table as printed: its cells in words (never a blank cell)
and its notes under it: what an ``unseen`` cell means, where the log's end cut the grace,
the tiers still firing at the log's end (followed past the report's span), and the span its
peaks are read over when a tier fired after it (in the grace after the incident, ``--grace``)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from .._util.attrs import MINUTE, clock_at, clock_text
from .._util.burns import three_digits
from .._util.words import duration_words
from ..analyses.incident_tier_apart import APART_CELL, apart_cell, apart_note
from ..analyses.incident_tier_reach import peaks_span_note, silent_cells, tier_table_notes
from .shared import table_text, wrap
from .shown_groups import shown_groups

__all__ = ["print_tier_table"]


def print_tier_table(rep: Any, by: list[str], limit: int = 0) -> None:
    """The alert tiers' table of an incident report ``rep`` (with more than ``limit`` groups,
    ``--show-groups``, those that fired first) and its notes."""
    cut = shown_groups(rep.tiers, by, limit, order=("fired", "peak_burn_long"),
                       most="those that fired first, then the highest peak_burn_long",
                       full="--tiers-out FILE writes every group's rows")
    tiers = cut.rows[[*by, "tier", "severity", "burn", "fired", "first_alert",
                      "detection_delay", "peak_burn_long"]].copy() if len(rep.tiers) else rep.tiers
    if len(tiers):
        # a tier that did not fire has no first alert nor delay: words, never a blank cell; one
        # that fired before the incident began did not detect it: already firing, no delay
        before = cut.rows["already_firing"].to_numpy(dtype=bool)
        # a tier never evaluated (its window reached before the data's start): not known,
        # unless it can never fire at its target: the stronger fact, the summary's words
        can = cut.rows.get("can_fire", pd.Series(True, index=tiers.index)).to_numpy(dtype=bool)
        unknown = cut.rows.get("evaluated_from", pd.Series(0, index=tiers.index)).isna() & can
        # an alert over while its long window filled detected nothing: scored apart
        apart = [apart_cell(r) for _, r in cut.rows.iterrows()]
        tiers["detection_delay"] = [
            "not evaluated" if no else "already firing" if early else APART_CELL if away
            else duration_words(v) if pd.notna(v) else why for v, early, no, away, why in zip(
                tiers["detection_delay"], before, unknown, apart,
                silent_cells(cut.rows, rep.slo.target), strict=True)]
        # on the clock of the header (--tz), with its UTC offset off UTC
        tiers["first_alert"] = clock_text(tiers["first_alert"], rep.tz or "UTC",
                                          MINUTE).fillna("none")
        # the threshold as the policy writes it; the peak as the summary says it
        tiers["burn"] = tiers["burn"].map(lambda v: f"{v:g}")
        # an unseen tier's window was empty: no traffic, not a burn of 0 (nor withheld)
        quiet = cut.rows.get("unseen", pd.Series(False, index=tiers.index))
        tiers["peak_burn_long"] = [
            "no traffic" if q else three_digits(v, missing="withheld")
            for v, q in zip(tiers["peak_burn_long"], quiet, strict=True)]
        print(table_text(tiers, [*by, "tier"]))
        # what the short cells mean, once; where the log's end cut the grace
        for said in tier_table_notes(cut.rows, list(tiers["detection_delay"]), rep, "--grace"):
            print(wrap(f"note: {said}", indent=""))
        if said := apart_note(cut.rows, list(tiers["detection_delay"]), rep.tz or "UTC",
                              rep.start):
            print(wrap(f"note: {said}", indent=""))
        if said := peaks_span_note(cut.rows, rep.tz or "UTC", rep.start, rep.grace):
            print(wrap(f"note: {said}", indent=""))  # fired after the span of its peaks
        if said := _ongoing_note(cut.rows, by, rep.tz or "UTC", rep.freq):
            print(wrap(f"note: {said}", indent=""))
    if cut.line:
        print(wrap(cut.line, indent=""))


def _ongoing_note(rows: pd.DataFrame, by: list[str], tz: str, freq: pd.Timedelta) -> str:
    """The tiers whose alert was still firing at the log's last evaluation (``ongoing``; the
    report follows an alert past its span until it resets or the log ends): that evaluation,
    one step (``freq``) before their ``alert_end`` (``--tiers-out``), said on the clock ``tz``;
    ``""`` when none was.

    >>> rows = pd.DataFrame({"svc": ["api", "api", "web"], "tier": ["page_1h", "page_6h", "p"],
    ...                      "ongoing": [True, True, False],
    ...                      "alert_end": pd.to_datetime(["2026-03-02 08:01"] * 3, utc=True)})
    >>> print(_ongoing_note(rows, ["svc"], "UTC", pd.Timedelta("1min")))
    ... # doctest: +NORMALIZE_WHITESPACE
    still firing at the log's end (its last evaluation, 2026-03-02 08:00 UTC): page_1h, page_6h
    (svc=api); their alert_end (--tiers-out) is one step after that evaluation, not where they
    stopped firing.
    """
    if "ongoing" not in rows.columns or not rows["ongoing"].any():
        return ""
    on = rows[rows["ongoing"].to_numpy(dtype=bool)]
    parts = []
    for key, part in (on.groupby(by, sort=False, observed=True) if by else [((), on)]):
        values = key if isinstance(key, tuple) else (key,)
        where = ", ".join(f"{k}={v}" for k, v in zip(by, values, strict=True))
        parts.append(", ".join(part["tier"].astype(str)) + (f" ({where})" if where else ""))
    one = len(on) == 1
    # every alert still firing there ends one step after the log's last evaluation
    last = clock_at(on["alert_end"].max() - freq, tz)
    return (f"still firing at the log's end (its last evaluation, {last}): {'; '.join(parts)}; "
            f"{'its' if one else 'their'} alert_end (--tiers-out) is one step after that "
            f"evaluation, not where {'it' if one else 'they'} stopped firing.")
