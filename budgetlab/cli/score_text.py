"""The alert score table as the CLI prints it (``alerts``, ``incident``, ``backtest``): its
columns, the figures in words where a number does not exist, and the notes under it (thin rates,
episodes begun while the long window filled, incidents outside what was read or only partly
in it)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..alerts.unseen import row_name
from .score_coverage import incident_ids, partly_line, span_ns
from .shared import table_text, wrap

__all__ = ["SCORE_COLUMNS", "SCORE_FOOTNOTE", "filling_notes", "median_words", "outside_line",
           "print_score_notes", "score_text", "thin_rates_line"]

#: The columns of a score table (:func:`budgetlab.score_alerts`) the CLI prints.
SCORE_COLUMNS = ["tier", "severity", "episodes", "precision", "incidents", "detected", "unseen",
                 "recall",
                 "detection_median",
                 "reset_median", "alerts_per_day", "observed_days", "episodes_filling",
                 "incidents_filling"]

#: What the score table's rate columns count: the one footnote of ``alerts`` and ``backtest``.
SCORE_FOOTNOTE = ("alerts_per_day: the row's alert episodes (pages on a page row, tickets on a "
                  "ticket row, both on the * * row) per day of observed time (observed_days: "
                  "the bins after the tier's long window first filled whose long window holds "
                  "at least one event; silences are not counted), withheld under 24 h of it; "
                  "reset_median: from the incident's end to its alert's end, negative when the "
                  "alert stopped first, still firing when an alert of the row had not stopped "
                  "by the end of what was read (no reset to count); episodes_filling: over before "
                  "the long window filled (one still firing then is scored), incidents_filling: "
                  "begun before it filled, scored apart (not in the other columns)")


def median_words(value: Any) -> str:
    """A median detection or reset time in words down to its seconds, as ``--out`` writes it
    (``1h58m30s``): every unit from the largest to the last that is not zero. Two units only
    (:func:`~budgetlab._util.words.duration_words`) said ``1 h 58 min`` beside ``12 min 30 s``.
    Truncated to the second, never rounded; a negative time is its sign, then its magnitude.

    >>> [median_words(x) for x in ("1h58min30s", "12min30s", "-1h0min30s", "2D", "0s")]
    ['1 h 58 min 30 s', '12 min 30 s', '-1 h 0 min 30 s', '2 d', '0 s']
    """
    secs = int(pd.Timedelta(value).total_seconds())  # truncated toward 0
    sign, secs = ("-" if secs < 0 else ""), abs(secs)
    d, rest = divmod(secs, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    units = [(d, f"{d:,} d"), (h, f"{h} h"), (m, f"{m} min"), (s, f"{s} s")]
    shown = [i for i, (n, _) in enumerate(units) if n]
    if not shown:
        return "0 s"
    return sign + " ".join(text for _, text in units[shown[0]:shown[-1] + 1])


def score_text(rows: pd.DataFrame, duration: Any, *, width: int | None = None,
               withheld: str = "") -> str:
    """The score rows as text: a figure that does not exist in words or blank, never ``NaN``/``NaT``
    (``precision`` of a tier that never fired: ``never fired``; ``recall`` without incidents:
    ``no incidents``, ``all unseen`` when the long window held no traffic during any of them,
    and an ``unseen`` column when some row has such incidents; a rate per day over less than
    24 h of observed time (``rates_note``): ``withheld``, :func:`thin_rates_line` says why; a
    detection or reset time that does not exist: why, :func:`_no_time_words`); rates and days
    as people read them, thousands separated, never an exponent; ``duration`` formats the
    times. A table wider than ``width`` (the terminal's by default) goes in blocks, each
    repeating tier and severity (:func:`table_text`). With ``withheld`` (every group too thin
    for a verdict: ``budgetlab.cli.thin_scores``) precision and recall read ``too thin``.

    >>> t = pd.DataFrame({"tier": ["p", "q"], "severity": ["page", "page"], "episodes": [0, 14_566],
    ...     "precision": [float("nan"), 0.0], "incidents": [0, 1], "detected": [0, 0],
    ...     "recall": [float("nan"), 0.0], "detection_median": [pd.NaT, pd.NaT],
    ...     "reset_median": [pd.NaT, pd.NaT], "alerts_per_day": [0.0, 14_566 / 14],
    ...     "observed_days": [1.5, 14.0]})
    >>> print(score_text(t, str, width=130))  # a terminal the rows fit
    tier severity  episodes   precision  incidents  detected       recall detection_median
    reset_median  alerts_per_day  observed_days
       p     page         0 never fired          0         0 no incidents     no incidents
    no incidents              0            1.5
       q     page     14566           0          1         0            0    none detected
    none detected          1,040             14
    """
    from .._util.words import about_words

    unseen = "unseen" in rows.columns and bool((rows["unseen"] > 0).any())
    show = rows[[c for c in SCORE_COLUMNS if c in rows.columns
                 and (c != "unseen" or unseen)]].copy()
    words = {"precision": ("never fired", "episodes_filling"),
             "recall": ("no incidents", "incidents_filling")}
    for col, (word, apart) in words.items():
        if col in show.columns:
            # none scored but some apart while the window filled: not "never fired"
            later = (rows[apart] > 0 if apart in rows.columns
                     else pd.Series(False, index=rows.index))
            silent = (rows["unseen"] > 0 if col == "recall" and unseen
                      else pd.Series(False, index=rows.index))
            show[col] = [("all unseen" if quiet else "none after fill" if filling else word)
                         if pd.isna(v) else f"{v:.3g}"
                         for v, filling, quiet in zip(show[col], later, silent, strict=True)]
            if withheld:  # no verdict: the figure is no evidence, said in words
                show[col] = "too thin"
    for col in ("detection_median", "reset_median"):
        if col in show.columns:
            show[col] = [_no_time_words(r, reset=col == "reset_median") if pd.isna(v)
                         else duration(v)
                         for v, r in zip(show[col], rows.to_dict("records"), strict=True)]
    for col in ("alerts_per_day", "observed_days"):
        if col in show.columns:  # thousands separated, never an exponent (1,040, not 1.04e+03)
            show[col] = show[col].map(lambda v: "" if pd.isna(v) else about_words(float(v)))
    if "alerts_per_day" in show.columns and "rates_note" in rows.columns:
        no_rate = (rows["rates_note"] != "").to_numpy()
        show["alerts_per_day"] = show["alerts_per_day"].mask(no_rate, "withheld")
    return table_text(show, ["tier", "severity"], width=width)


def _no_time_words(row: dict[Any, Any], *, reset: bool) -> str:
    """Why a score row has no detection or (``reset``) reset time, in words: ``no incidents``
    (none scored; ``none after fill`` when some began while the long window filled), ``none
    detected`` (its incidents were all missed), ``all unseen`` (none had traffic to detect it
    by: :mod:`budgetlab.alerts.unseen`), ``still firing`` (a reset only: detected, but an
    alert of the row had not stopped by the end of what was read, no reset to count); blank when
    the row says neither."""
    incidents, detected = row.get("incidents"), row.get("detected")
    if incidents is not None and incidents == 0:
        return "none after fill" if row.get("incidents_filling", 0) > 0 else "no incidents"
    if incidents is not None and row.get("unseen", 0) == incidents:
        return "all unseen"
    if detected is not None and detected == 0:
        return "none detected"
    return "still firing" if reset and detected is not None else ""


def thin_rates_line(rows: pd.DataFrame) -> str | None:
    """One sentence on the score rows whose ``alerts_per_day`` is withheld (``rates_note``: under
    24 h of observed time, the one rule of :func:`budgetlab._util.thin.too_thin`): each tier
    with its observed time; ``None`` when there are none.

    >>> rows = pd.DataFrame({"tier": ["page_1h", "ticket_1d", "*", "*"],
    ...     "severity": ["page", "ticket", "page", "*"],
    ...     "observed_days": [5 / 24, 0.0, 5 / 24, 0.0], "rates_note": ["withheld: ..."] * 4})
    >>> print(wrap(thin_rates_line(rows), indent=""))
    alerts_per_day withheld, too thin to go by (a rate per day needs at least 24 h of observed
    time): page_1h (5 h observed), ticket_1d (no observed time), the page tiers merged (5 h
    observed), all tiers merged (no observed time).
    """
    from .._util.thin import MIN_EVALUATED_HOURS
    from .._util.words import hours_words

    if "rates_note" not in rows.columns:
        return None
    thin = rows[rows["rates_note"] != ""]
    if not len(thin):
        return None
    said = []
    for r in thin.to_dict("records"):
        name = row_name(str(r["tier"]), str(r["severity"]))
        hours = float(r["observed_days"]) * 24
        said.append(f"{name} ({hours_words(hours)} observed)" if hours > 0
                    else f"{name} (no observed time)")
    return (f"alerts_per_day withheld, too thin to go by (a rate per day needs at least "
            f"{MIN_EVALUATED_HOURS:g} h of observed time): {', '.join(said)}.")


def filling_notes(rows: pd.DataFrame, episodes: pd.DataFrame, *, what: str = "log",
                  span: pd.Timedelta | None = None) -> list[str]:
    """One sentence per tier with episodes over (begun and ended) or incidents begun while its
    long window filled (episodes: in the first long window of their group's traffic or of its
    return after a silence that long, :mod:`budgetlab.alerts.filling`; incidents: in the first
    long window of the ``what`` read, the grid's start in ``episodes.attrs``; an episode still
    firing when it filled is scored), and one
    for the merged rows (``tier`` ``*``); ``rows`` are the all-groups rows of a score table.
    A window that never filled says the length of the ``what`` to the second, truncated
    (:func:`~budgetlab._util.words.length_words`): ``span`` (``alerts``: the log's first to last
    event), else the grid's.
    ``what`` names what was read, as a noun the sentences take (``log`` for ``alerts``, ``span``
    for ``backtest``): "the log's first 3 d", "the span is 2 d long".

    >>> ep = pd.DataFrame(columns=["tier"])
    >>> ep.attrs.update(grid_start=pd.Timestamp("2026-01-01", tz="UTC"),
    ...                 grid_end=pd.Timestamp("2026-01-05", tz="UTC"),
    ...                 tier_windows={"ticket_3d": 3 * 86_400 * 10**9})
    >>> rows = pd.DataFrame({"tier": ["ticket_3d"], "severity": ["ticket"],
    ...     "episodes_filling": [3], "true_episodes_filling": [1], "incidents_filling": [1]})
    >>> print(wrap(filling_notes(rows, ep)[0], indent=""))
    3 episodes of ticket_3d began and ended in the first 3 d of a group's traffic (or of its return
    after a silence that long), while its long window filled; scored apart: 2 met no incident; 1
    incident began then: not scored for this tier.
    >>> ep.attrs["grid_end"] = pd.Timestamp("2026-01-03", tz="UTC")  # 2 d: filling throughout
    >>> print(wrap(filling_notes(rows, ep, what="span")[0], indent=""))
    ticket_3d's long window (3 d) never filled: the span is 2 d long; its 3 episodes are scored
    apart, 2 met no incident; 1 incident began then: not scored for this tier.

    A log of 2 d 23 h 59 min (one event a minute) is binned into 3 d: said as the log's length,
    never as "3 d" beside a 3 d window:

    >>> ep.attrs["grid_end"] = pd.Timestamp("2026-01-04", tz="UTC")
    >>> print(wrap(filling_notes(rows, ep, span=pd.Timedelta("2D23h59min"))[0], indent=""))
    ticket_3d's long window (3 d) never filled: the log is 2 d 23 h 59 min long; its 3 episodes
    are scored apart, 2 met no incident; 1 incident began then: not scored for this tier.
    >>> ep.attrs["grid_end"] = pd.Timestamp("2026-01-03", tz="UTC")

    Incidents alone (no episode began then) are said without a count of episodes:

    >>> ep.attrs["grid_end"] = pd.Timestamp("2026-01-05", tz="UTC")
    >>> rows.loc[0, ["episodes_filling", "true_episodes_filling"]] = 0
    >>> print(wrap(filling_notes(rows, ep)[0], indent=""))
    1 incident began in the log's first 3 d, while ticket_3d's long window filled: not scored for
    this tier.
    >>> ep.attrs["grid_end"] = pd.Timestamp("2026-01-03", tz="UTC")
    >>> print(wrap(filling_notes(rows, ep)[0], indent=""))
    ticket_3d's long window (3 d) never filled: the log is 2 d long; 1 incident began then: not
    scored for this tier.
    """
    from .._util.words import counted, length_words, prose_duration
    from ..alerts.filling import filling_words

    if "episodes_filling" not in rows.columns:
        return []
    windows = {k: pd.Timedelta(int(v), unit="ns")
               for k, v in episodes.attrs.get("tier_windows", {}).items()}
    grid = pd.Timestamp(episodes.attrs["grid_end"]) - pd.Timestamp(episodes.attrs["grid_start"])
    length = grid if span is None else span
    notes, merged = [], []
    for r in rows.to_dict("records"):
        n_ep, n_inc, tier = int(r["episodes_filling"]), int(r["incidents_filling"]), str(r["tier"])
        if not (n_ep or n_inc):
            continue
        if tier == "*":
            merged.append(str(r["severity"]))
            continue
        window, false = windows[tier], n_ep - int(r["true_episodes_filling"])
        first = f"the {what}'s first {prose_duration(window)}"
        episodes_, incidents_ = counted(n_ep, "episode"), counted(n_inc, "incident")
        if window >= grid:
            text = (f"{tier}'s long window ({prose_duration(window)}) never filled: the {what} "
                    f"is {length_words(length)} long")
            if n_ep:
                text += (f"; its {episodes_} {'is' if n_ep == 1 else 'are'} scored apart, "
                         f"{false:,} met no incident")
        elif n_ep:
            text = (f"{episodes_} of {tier} began and ended {filling_words(prose_duration(window))}"
                    f", while its long window filled; scored apart: {false:,} met no incident")
        else:  # incidents alone: no word about episodes that did not happen
            notes.append(f"{incidents_} began in {first}, while {tier}'s long window "
                         "filled: not scored for this tier.")
            continue
        if n_inc:
            text += f"; {incidents_} began then: not scored for this tier"
        notes.append(text + ".")
    if merged:
        sev = dict(zip(rows["tier"].astype(str), rows["severity"].astype(str), strict=True))
        longest = {m: max(w for t, w in windows.items() if m == "*" or sev.get(t) == m)
                   for m in merged}
        notes.append("the rows of tier * merge tiers and count from when the longest of their "
                     "long windows filled: " + ", ".join(
                         f"{'all tiers' if m == '*' else m} after {prose_duration(w)}"
                         for m, w in longest.items()) + ".")
    return notes


def outside_line(scores: pd.DataFrame, episodes: pd.DataFrame, n_incidents: int, *,
                 what: str = "log", tz: str = "UTC",
                 incidents: pd.DataFrame | None = None) -> str | None:
    """One sentence on the incidents of ``--incidents`` that lie wholly outside the evaluated
    span (``scores.attrs["incidents_outside"]``, the span from the episodes' ``grid_start`` and
    ``grid_end`` attrs, in UTC or on the clock of ``tz``: :func:`clock_span`), which are not
    scored, named (a few, then how many more) when the scored ``incidents`` are given; ``None``
    when there are none.

    >>> ep = pd.DataFrame(columns=["tier"])
    >>> ep.attrs.update(grid_start=pd.Timestamp("2026-10-06", tz="UTC"),
    ...                 grid_end=pd.Timestamp("2026-10-09", tz="UTC"))
    >>> sc = pd.DataFrame()
    >>> sc.attrs["incidents_outside"] = 2
    >>> print(wrap(outside_line(sc, ep, 3), indent=""))
    2 of the 3 incidents of --incidents lie wholly outside the log (2026-10-06 00:00 ..
    2026-10-09 00:00 UTC): not scored, neither detected nor missed; check their times and zone.
    >>> sc.attrs["incidents_outside"] = 1
    >>> print(outside_line(sc, ep, 1).split(" (")[0])
    the one incident of --incidents lies wholly outside the log
    >>> print(outside_line(sc, ep, 1, tz="Europe/Berlin").split("log ")[1].split("):")[0])
    (2026-10-06 02:00 +02:00 .. 2026-10-09 02:00 +02:00 (Europe/Berlin)
    """
    from .._util.attrs import clock_span
    from .._util.words import counted_of

    n = int(scores.attrs.get("incidents_outside", 0))
    if not n:
        return None
    span = clock_span(episodes.attrs["grid_start"], episodes.attrs["grid_end"], tz)
    named = ""
    if incidents is not None and len(incidents):
        from .._util.validation import utc_ns_column
        from .._util.words import some_named
        from ..alerts.score_inputs import outside_span

        away = outside_span(utc_ns_column(incidents["start"], "start"),
                            utc_ns_column(incidents["end"], "end"), span_ns(episodes))
        ids = incident_ids(incidents, away)
        named = (f" Outside the {what}: {some_named(ids, 5)}." if len(ids) == n
                 else "")  # else: some lie in excluded windows too
    return (f"{counted_of(n, n_incidents, 'incident')} of --incidents "
            f"{'lies' if n == 1 else 'lie'} wholly outside the {what} "
            f"({span}): not scored, neither detected "
            f"nor missed; check {'its' if n == 1 else 'their'} times and zone.{named}")


def print_score_notes(scores: pd.DataFrame, episodes: pd.DataFrame, n_incidents: int,
                      by: list[str], *, what: str = "log", budget: bool = True,
                      tz: str = "UTC", incidents: pd.DataFrame | None = None,
                      grace: Any = None, withheld: str = "",
                      span: pd.Timedelta | None = None) -> None:
    """One policy's scores as ``alerts`` and ``backtest`` print them: the rows of all groups
    (:func:`score_text`) between their notes (the score table's ``cannot_fire_note``,
    :func:`filling_notes`, :func:`outside_line`, :func:`thin_rates_line`, its ``unseen_note``
    (:mod:`budgetlab.alerts.unseen`), and with ``budget``
    its ``budget_note``); ``what`` as :func:`filling_notes` takes it, ``tz`` as
    :func:`outside_line`; with the scored ``incidents`` those outside are named, and with
    ``grace`` those only partly in it too (:func:`partly_line`); ``withheld`` as
    :func:`score_text` takes it; ``span`` as :func:`filling_notes` takes it."""

    rows = scores
    for k in by:
        rows = rows[rows[k] == "*"]
    if scores.attrs.get("cannot_fire_note"):  # before the rows that say "never fired"
        print(wrap(scores.attrs["cannot_fire_note"], indent="  "))
    for note in filling_notes(rows, episodes, what=what, span=span):
        print(wrap(note, indent="  "))
    outside = outside_line(scores, episodes, n_incidents, what=what, tz=tz, incidents=incidents)
    if outside:
        print(wrap(outside, indent="  "))
    partly = (partly_line(episodes, incidents, grace, what=what, tz=tz)
              if incidents is not None and grace is not None else None)
    if partly:
        print(wrap(partly, indent="  "))
    print(score_text(rows, median_words, withheld=withheld))
    if scores.attrs.get("unseen_note"):  # the unseen column: which incidents, and why
        print(wrap(scores.attrs["unseen_note"], indent=""))
    thin = thin_rates_line(rows)
    if thin:
        print(wrap(thin, indent=""))
    if budget and scores.attrs.get("budget_note"):  # the budget_before_alert_* columns
        print(wrap(scores.attrs["budget_note"], indent=""))
