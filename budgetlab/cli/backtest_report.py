"""What ``budgetlab backtest`` prints, writes and draws: how the server's counters were read,
each policy's alert episodes with the budget spent at each firing, the incidents' detection and
the scores; the tables to ``--out`` (the episodes' timeline to ``--plot`` is
:mod:`budgetlab.cli.alert_figure`'s, shared with ``alerts``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .prose import fill_line, path_label, wrap

if TYPE_CHECKING:  # pandas is imported when a command runs, not for --help
    import pandas as pd

__all__ = ["print_reading", "print_episodes", "unfilled_clause", "filling_note",
           "budget_withheld_note", "print_scores", "write_outputs", "with_gap_column",
           "end_text"]

#: How many scrape gaps "How it was read" lists one per line before "and N more".
_GAPS_SHOWN = 10


def print_reading(bins: pd.DataFrame, spec: Any, start: pd.Timestamp, end: pd.Timestamp,
                  tz: str = "UTC") -> None:
    """The "how it was read" block: the server, the span counted (``bins.attrs["span"]``: wider
    than ``start``/``end`` when they fell inside a bin, said so) and its scrape gaps (in UTC, or
    on the clock of ``tz`` with their UTC offsets), the queries sent. Its prose is filled to 100
    columns as every command's (:func:`~budgetlab.cli.prose.fill_line`); a query too long for its
    line stands whole on a line of its own under its name, as it is copied (``export`` prints
    them so)."""
    import pandas as pd

    from .._util.attrs import clock_at, clock_span
    from .._util.percent import given_fraction
    from .._util.words import counted, prose_duration

    src = bins.attrs.get("source", {})
    counted_span = bins.attrs.get("span")  # the whole bins read, when start/end fell inside one
    if counted_span:
        first, last = pd.Timestamp(counted_span["start"]), pd.Timestamp(counted_span["end"])
    widened = bool(counted_span) and (first, last) != (start, end)
    if widened:
        start, end = first, last
    by = bins.attrs.get("by", [])
    groups = len(bins[by].drop_duplicates()) if by else 1
    targets = getattr(spec, "targets", None)  # per group: backtest_slos.file_targets
    print(fill_line(f"Prometheus {src.get('url', '')}: SLO {spec.name!r} ({spec.source}), "
                    + (f"target {given_fraction(spec.slo.target)}" if targets is None
                       else f"targets per group ({targets.binding})") + ", "
                    f"period {prose_duration(spec.slo.period)}"))
    print(fill_line(
        f"span {clock_span(start, end, tz)}"
        + (" (widened to whole bins; see how it was read)" if widened else "")
        + ", bins of "
        f"{prose_duration(bins.attrs.get('freq'))}, "
        f"{counted(groups, 'group')}"
        + (f" by {', '.join(by)}" if by else "")
        + f", {counted(int(bins['total'].sum()), 'event')}, "
        f"{int(bins['bad'].sum()):,} failed; {counted(int(src.get('requests', 0)), 'HTTP request')}"
    ))
    print("How it was read:")
    for note in getattr(spec, "notes", ()):
        print(fill_line(f"  {note}"))
    if by and tuple(by) == tuple(getattr(spec, "by", ())):
        print(fill_line(f"  grouped by {', '.join(by)}: the spec's grouping (--by overrides it)"))
    for name, q in src.get("queries", {}).items():
        said = f"  {name} per bin: {q}"
        print(said if len(said) <= 100 else f"  {name} per bin:\n    {q}")
    for note in bins.attrs.get("notes", []):
        print(fill_line(f"  {note}"))
    gaps = bins.attrs.get("gaps", [])
    if gaps:
        print(fill_line(f"  scrape gaps: {len(gaps):,} "
                        f"({counted(sum(g['bins'] for g in gaps), 'bin')}; counts unknown there):"))
        for g in gaps[:_GAPS_SHOWN]:
            where = ", ".join(f"{k}={g[k]}" for k in by)
            start, end = pd.Timestamp(g["start"]), pd.Timestamp(g["end"])  # ISO text in attrs
            print(f"    {where + ' ' if where else ''}{clock_at(start, tz, say_utc=False)} .. "
                  f"{clock_at(end, tz, '%H:%M', say_utc=False)} ({counted(g['bins'], 'bin')})")
        if len(gaps) > _GAPS_SHOWN:
            print(f"    and {counted(len(gaps) - _GAPS_SHOWN, 'more gap')}")
    else:
        print("  scrape gaps: none")


def print_episodes(name: str, ep: pd.DataFrame, policy: Any, span: pd.Timedelta,
                   tz: str = "UTC") -> None:
    """One policy's alert episodes, their times in UTC or on the clock of ``tz`` with their UTC
    offset (:func:`~budgetlab._util.attrs.clock_text`); the tiers whose long window never
    filled and the episodes over while it filled (:mod:`budgetlab.alerts.filling`: the rule
    the scores, ``episodes.csv``'s ``filling`` column and the plot's shading follow)."""
    from .._util.attrs import MINUTE, clock_text
    from .._util.percent import measured_percent
    from .._util.words import counted, duration_words
    from ..alerts.filling import episodes_filling

    print("\n" + wrap(f"Policy {name}: {counted(len(ep), 'alert episode')}"
                      + unfilled_clause(ep.attrs, span), indent=""))
    if ep.empty:
        return
    show = ep.copy()
    show["start"] = clock_text(show["start"], tz, MINUTE)
    show["end"] = end_text(ep["start"], ep["end"], tz) + show["ongoing"].map(
        {True: " (ongoing)", False: ""}
    )
    show["duration"] = show["duration"].map(duration_words)
    show["budget_spent_pct"] = show["budget_spent_pct"].map(  # a column in percent
        lambda v: measured_percent(v / 100, 1, missing="withheld"))
    filling = episodes_filling(ep)
    show["filling"] = ["yes" if f else "" for f in filling]
    by = ep.attrs.get("by", [])
    cols = [*by, "tier", "severity", "start", "end", "duration", "budget_spent_pct",
            *(["filling"] if filling.any() else [])]
    # flat, an episode a line, the group keys ordinary columns (blocks keyed by group, tier and
    # start would print every row twice); its end's date left out when it is the start's
    print(show[cols].head(60).to_string(index=False))
    if len(ep) > 60:
        print(f"... {len(ep) - 60} more (--out writes every episode)")
    if filling.any():
        print(wrap(filling_note(int(filling.sum()), len(ep)), indent=""))
    withheld = int(ep["budget_spent_pct"].isna().sum())
    if withheld:
        print(wrap(budget_withheld_note(withheld, len(ep), policy.period, span), indent=""))



def end_text(start: pd.Series, end: pd.Series, tz: str = "UTC") -> pd.Series:
    """The ends of episodes as the episodes table prints them: on the clock of ``tz`` (UTC
    offset after, :func:`~budgetlab._util.attrs.clock_text`), the date left out when it is the
    start's on that clock (the start beside it on the row says it).

    >>> import pandas as pd
    >>> t = pd.Series(pd.to_datetime(["2026-03-01 22:45", "2026-03-01 21:00"], utc=True))
    >>> end_text(t, t + pd.Timedelta("30min")).tolist()
    ['23:15', '21:30']
    >>> end_text(t, t + pd.Timedelta("30min"), "Europe/Berlin").tolist()
    ['2026-03-02 00:15 +01:00', '22:30 +01:00']
    """
    from .._util.attrs import MINUTE, clock_text

    day = clock_text(start, tz, "%Y-%m-%d") == clock_text(end, tz, "%Y-%m-%d")
    return clock_text(end, tz, MINUTE).mask(day, clock_text(end, tz, "%H:%M"))

def unfilled_clause(attrs: Any, span: pd.Timedelta) -> str:
    """The header's words for the tiers whose long window never filled in the span
    (:func:`~budgetlab.alerts.filling.unfilled_tiers`; ``attrs``: the episodes'), or nothing.
    Such a tier is evaluated (its episodes are listed, all in the filling column) but its
    episodes are kept out of precision and recall (``--incidents``: scored apart).

    >>> import pandas as pd
    >>> attrs = {"grid_start": "2026-01-01T00:00:00+00:00", "grid_end": "2026-01-02T00:00:00Z",
    ...          "tier_windows": {"page_1h": 3_600 * 10**9, "ticket_1d": 86_400 * 10**9,
    ...                           "ticket_3d": 259_200 * 10**9}}
    >>> unfilled_clause(attrs, pd.Timedelta("1D"))
    '; the long windows of ticket_1d (24 h) and ticket_3d (3 d) never filled in the 1 d span: \
their episodes are listed (filling) but not scored (--incidents scores them apart)'
    """
    import pandas as pd

    from .._util.words import duration_words, prose_duration
    from ..alerts.filling import unfilled_tiers

    unfilled = [f"{t} ({prose_duration(pd.Timedelta(w, unit='ns'))})"
                for t, w in unfilled_tiers(attrs).items()]
    if not unfilled:
        return ""
    if len(unfilled) == 1:
        return (f"; the long window of {unfilled[0]} never filled in the "
                f"{duration_words(span)} span: its episodes are listed (filling) but not scored "
                "(--incidents scores them apart)")
    listed = f"{', '.join(unfilled[:-1])} and {unfilled[-1]}"
    return (f"; the long windows of {listed} never filled in the {duration_words(span)} span: "
            "their episodes are listed (filling) but not scored (--incidents scores them apart)")


def filling_note(n: int, total: int) -> str:
    """What the ``filling`` column says, under the episodes.

    >>> print(filling_note(2, 4))
    filling: 2 of the 4 episodes ended while their tier's long window filled, or it never filled:
    with --incidents they are scored apart; --plot shades that time, --out marks them in its
    filling column.
    """
    from .._util.words import counted_of

    it = "it" if n == 1 else "they"
    return (f"filling: {counted_of(n, total, 'episode')} ended while "
            f"{'its' if n == 1 else 'their'} tier's long window filled, or it never filled: with "
            f"--incidents {it} {'is' if n == 1 else 'are'} scored apart; --plot shades that time, "
            f"--out marks {'it' if n == 1 else 'them'} in its filling column.")


def budget_withheld_note(withheld: int, n: int, period: pd.Timedelta, span: pd.Timedelta) -> str:
    """Why ``budget_spent_pct`` is withheld for ``withheld`` of the ``n`` episodes.

    >>> import pandas as pd
    >>> from budgetlab.cli.shared import wrap
    >>> print(wrap(budget_withheld_note(2, 2, pd.Timedelta("30D"), pd.Timedelta("2h")), ""))
    budget_spent_pct withheld for all 2 episodes: each began less than the 30 d period after
    the span's start, and a share of the 30 d budget needs the whole period before it (2 h read);
    read at least 30 d more history before them (--since/--start).
    """
    from .._util.words import counted_of, duration_words, prose_duration

    per = prose_duration(period)
    return (f"budget_spent_pct withheld for {counted_of(withheld, n, 'episode')}: "
            f"{'it' if withheld == 1 else 'each'} began less "
            f"than the {per} period after the span's start, and a share of the {per} budget "
            f"needs the whole period before it ({duration_words(span)} read); read at least "
            f"{per} more history before {'it' if withheld == 1 else 'them'} (--since/--start).")


def print_scores(name: str, det: pd.DataFrame, scores: pd.DataFrame, by: list[str],
                 episodes: pd.DataFrame, n_incidents: int, tz: str = "UTC", *,
                 incidents: pd.DataFrame | None = None, grace: Any = None, withheld: str = "",
                 left_out: str | None = None) -> None:
    """One policy's incidents (their starts in UTC or on the clock of ``tz`` with their UTC
    offset) and its scores (:func:`~budgetlab.cli.score_text.print_score_notes`: with the
    scored ``incidents`` those outside the span are named, and with ``--grace`` those only
    partly in it, as ``alerts`` says them; ``withheld`` as it takes it), then the pages of
    the groups too thin for a verdict, ``left_out`` (:mod:`budgetlab.cli.thin_scores`)."""
    import numpy as np
    import pandas as pd

    from .._util.attrs import MINUTE, clock_text
    from .score_text import SCORE_FOOTNOTE, median_words, print_score_notes
    from .shared import table_text

    overall = det[(det["tier"] == "*") & (det["severity"] == "*")]
    for k in by:
        overall = overall[overall[k] == "*"]
    print(f"\nIncidents, policy {name} (all tiers merged):")
    show = overall[["incident_id", "incident_start", "detected", "detection_time",
                    "reset_time"]].copy()
    show["incident_start"] = clock_text(show["incident_start"], tz, MINUTE)
    for c in ("detection_time", "reset_time"):  # to the second, as the score table below
        show[c] = show[c].map(lambda v: "" if pd.isna(v) else median_words(v))
    already = (overall["already_firing"].to_numpy(dtype=bool)
               if "already_firing" in overall.columns else np.zeros(len(overall), dtype=bool))
    # begun while an alert already fired: no detection (not caused by it; ALREADY_LINE says so)
    show["detection_time"] = show["detection_time"].mask(already, "already firing at start")
    # alerted on, no reset: the alert still fired when the span ended (as the score table says)
    show["reset_time"] = show["reset_time"].mask(
        (overall["reset_time"].isna() & (overall["detected"] | already)).to_numpy(),
        "still firing")
    if "unseen" in overall.columns and bool(overall["unseen"].any()):
        # no traffic in the window during it: neither detected nor missed (the note says why)
        show.insert(3, "unseen", overall["unseen"].to_numpy())
    if "filling" in overall.columns:
        # as the score table's rows of all tiers merged count it (filling_notes says why)
        show["scored"] = overall["filling"].map({True: "apart (filling)", False: "yes"})
    print(table_text(show, ["incident_id"]) if len(show) else "(no incident in scope)")
    print_score_notes(scores, episodes, n_incidents, by, what="span", tz=tz, incidents=incidents,
                      grace=grace, withheld=withheld)
    if left_out:
        print(wrap(left_out, indent=""))
    print(wrap(SCORE_FOOTNOTE, indent=""))


def with_gap_column(bins: pd.DataFrame) -> pd.DataFrame:
    """``bins`` with a boolean ``scrape_gap`` column: True in the bins of ``attrs["gaps"]`` (no
    scrape: their 0 counts are not known, not zero traffic), as ``--out``'s ``bins.csv`` writes
    it. A flag column, not empty count cells: :func:`~budgetlab.read_bins` takes it for no group
    key and reads the bins as the alerts were replayed (an empty bin adds no event to a window),
    where empty cells would be refused."""
    import numpy as np
    import pandas as pd

    flag = np.zeros(len(bins), dtype=bool)
    by = bins.attrs.get("by", [])
    for g in bins.attrs.get("gaps", []):
        start, end = pd.Timestamp(g["start"]), pd.Timestamp(g["end"])  # end exclusive
        here = (bins["bin_start"] >= start) & (bins["bin_start"] < end)
        for k in by:
            here &= bins[k].astype(str) == str(g[k])
        flag |= here.to_numpy()
    return bins.assign(scrape_gap=flag)


def write_outputs(planned: dict[str, Path], tables: dict[str, pd.DataFrame], force: bool) -> None:
    from .._util.files import write_table
    from .._util.words import counted
    from .shared import out_figures

    if "--out" in planned:
        write_table(out_figures(tables["episodes"]), planned["--out"], force=force)
        print(f"\nwrote {counted(len(tables['episodes']), 'episode')} to "
              f"{path_label(planned['--out'])}")
        return
    for name, table in tables.items():
        write_table(out_figures(table), planned[f"--out {name}.csv"], force=force)
    print(f"\nwrote {', '.join(f'{n}.csv' for n in tables)} to "
          f"{path_label(planned['--out bins.csv'].parent)}")
