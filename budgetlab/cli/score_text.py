"""The alert score table as the CLI prints it (``alerts``, ``incident``, ``backtest``): its
columns, the figures in words where a number does not exist, and the notes under it (thin rates,
episodes begun while the long window filled: :mod:`~budgetlab.cli.score_filling`, incidents
outside what was read or only partly in it)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..alerts.unseen import row_name
from .score_coverage import incident_ids, partly_line, span_ns
from .score_filling import filling_notes
from .shared import table_text, wrap

__all__ = ["ALREADY_LINE", "SCORE_COLUMNS", "SCORE_FOOTNOTE", "median_words", "outside_line",
           "print_score_notes", "score_text", "thin_rates_line"]

#: The columns of a score table (:func:`budgetlab.score_alerts`) the CLI prints.
SCORE_COLUMNS = ["tier", "severity", "episodes", "precision", "incidents", "detected", "unseen",
                 "already_firing", "recall",
                 "detection_median",
                 "reset_median", "alerts_per_day", "observed_days", "episodes_filling",
                 "incidents_filling"]

#: What the score table's rate columns count: the one footnote of ``alerts`` and ``backtest``.
SCORE_FOOTNOTE = ("recall: detected / (incidents - unseen - already_firing), the incidents the "
                  "row's alerts could detect; detection_median over the detected ones; "
                  "alerts_per_day: the row's alert episodes (pages on a page row, tickets on a "
                  "ticket row, both on the * * row) per day of observed time (observed_days: "
                  "the bins after the tier's long window first filled whose long window holds "
                  "at least one event; silences are not counted), withheld under 24 h of it; "
                  "reset_median: from the incident's end to its alert's end, negative when the "
                  "alert stopped first, still firing when an alert of the row had not stopped "
                  "by the end of what was read (no reset to count); episodes_filling: over before "
                  "the long window filled (one still firing then is scored), incidents_filling: "
                  "begun before it filled, scored apart (not in the other columns)")


#: Under the score rows when an incident began while its row's alert already fired.
ALREADY_LINE = ("already_firing: incidents that began while the row's alert already fired (it "
                "was not caused by them): neither detected nor missed, left out of recall (it "
                "is over incidents - unseen - already_firing) and of detection_median (not "
                "\"0 s\"); their reset is in reset_median. On a row of tier * (merged tiers), "
                "only when every tier of it that fired during the incident already fired at "
                "its start; a tier that was not firing then and fires during it detects it.")


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
    already = "already_firing" in rows.columns and bool((rows["already_firing"] > 0).any())
    show = rows[[c for c in SCORE_COLUMNS if c in rows.columns
                 and (c != "unseen" or unseen) and (c != "already_firing" or already)]].copy()
    words = {"precision": ("never fired", "episodes_filling"),
             "recall": ("no incidents", "incidents_filling")}
    for col, (word, apart) in words.items():
        if col in show.columns:
            # none scored but some apart while the window filled: not "never fired"
            later = (rows[apart] > 0 if apart in rows.columns
                     else pd.Series(False, index=rows.index))
            silent = (rows["unseen"] + rows.get("already_firing", 0) > 0
                      if col == "recall" and (unseen or already)
                      else pd.Series(False, index=rows.index))
            show[col] = [(_none_counted(r) if quiet else "none after fill" if filling else word)
                         if pd.isna(v) else f"{v:.3g}"
                         for v, filling, quiet, r in zip(show[col], later, silent,
                                                         rows.to_dict("records"), strict=True)]
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


def _none_counted(row: dict[Any, Any]) -> str:
    """Why a row with incidents has no recall, with the counts: ``n/a (3 of 3 already firing)``
    (each began while the row's alert already fired: the alert was not caused by it), ``n/a
    (2 of 2 unseen)`` (no traffic to detect them by), or ``n/a (1 unseen, 2 already firing, of
    3)``.

    >>> _none_counted({"incidents": 3, "unseen": 0, "already_firing": 3})
    'n/a (3 of 3 already firing)'
    >>> _none_counted({"incidents": 3, "unseen": 1, "already_firing": 2})
    'n/a (1 unseen, 2 already firing, of 3)'
    """
    n = int(row.get("incidents", 0))
    unseen, already = int(row.get("unseen", 0)), int(row.get("already_firing", 0))
    if unseen and already:
        return f"n/a ({unseen} unseen, {already} already firing, of {n})"
    return f"n/a ({already} of {n} already firing)" if already else f"n/a ({unseen} of {n} unseen)"


def _no_time_words(row: dict[Any, Any], *, reset: bool) -> str:
    """Why a score row has no detection or (``reset``) reset time, in words: ``no incidents``
    (none scored; ``none after fill`` when some began while the long window filled), ``none
    detected`` (its incidents were all missed), ``all unseen`` (none had traffic to detect it
    by: :mod:`budgetlab.alerts.unseen`), ``already firing at start`` (a detection only: no
    incident it could detect, each began while its alert already fired), ``still firing`` (a
    reset only: detected, but an
    alert of the row had not stopped by the end of what was read, no reset to count); blank when
    the row says neither."""
    incidents, detected = row.get("incidents"), row.get("detected")
    already = row.get("already_firing", 0)
    if incidents is not None and incidents == 0:
        return "none after fill" if row.get("incidents_filling", 0) > 0 else "no incidents"
    if incidents is not None and row.get("unseen", 0) == incidents:
        return "all unseen"
    if not reset and already and incidents is not None \
            and row.get("unseen", 0) + already == incidents:
        return "already firing at start"
    if detected is not None and detected == 0 and not (reset and already):
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
    if "already_firing" in rows.columns and bool((rows["already_firing"] > 0).any()):
        print(wrap(ALREADY_LINE, indent=""))
    thin = thin_rates_line(rows)
    if thin:
        print(wrap(thin, indent=""))
    if budget and scores.attrs.get("budget_note"):  # the budget_before_alert_* columns
        print(wrap(scores.attrs["budget_note"], indent=""))
