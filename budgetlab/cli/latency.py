"""``budgetlab latency LOG --duration COL --thresholds 10s,20s,30s``: the latency profile of a log
(shares within each threshold, censored quantiles of the time to success), and with
``--timeouts`` the client-timeout trade-off. The input flags are those of ``replay``.

The parser is in :mod:`budgetlab.cli.commands`; the work is
:func:`budgetlab.analyses.latency_profile.latency_profile` and
:func:`budgetlab.analyses.timeout_tradeoff.timeout_tradeoff`, never recomputed here.
"""

from __future__ import annotations

import argparse
from typing import Any

import pandas as pd

from .._util.durations import duration_scale, measured_duration, measured_interval
from .._util.percent import fraction_to_percent, given_fraction, measured_percent
from .._util.validation import check_whole, to_timedelta, window_words
from .._util.words import counted, given_duration, length_words, speak
from ..errors import ConfigError
from ..slo import SLO, PerGroup
from .latency_shown import Chosen, choose_groups
from .latency_thresholds import default_grid, given_quantiles, given_thresholds
from .latency_tradeoff import check_timeouts, tradeoff_candidates, tradeoff_lines
from .prose import fill_line
from .reading import describe_slo, group_keys, read_log, slo_from_args, slo_list
from .replay import span_words
from .shared import group_label, save_plot, wrap, write_output
from .shown_groups import group_limit
from .unused_flags import refuse_unused

#: ``measured_duration``: a quantile or the waiting saved as these lines say it (``16.1 s``,
#: ``440 ms``), for notebook 05's tables (:func:`budgetlab._util.durations.measured_duration`);
#: ``given_duration`` and ``window_words``: a threshold or timeout (``10 s``, ``1.5 ms``) and the
#: window (``1 h``) as they say them, for its given durations; ``quantile_text``: the quantile
#: table as the lines say it, in one unit
__all__ = ["COMMANDS", "supported_lines", "frontier_lines", "one_period_note", "measured_duration",
           "given_duration", "window_words", "quantile_text"]


def quantile_text(quantiles: pd.DataFrame) -> pd.DataFrame:
    """The quantile table with ``value``, ``ci_low`` and ``ci_high`` said as the lines say them:
    in one unit for the whole table, that of the largest duration said (a quantile, a bound, or
    the timeout a quantile lies above; :func:`measured_duration`'s ``like``), with the digits
    that tell each estimate from its bounds (:func:`measured_interval`, at most 4 significant);
    ``> 60 s`` above the timeout in force (the timeout as given); a withheld quantile (its
    interval has no upper end within the data, the reason in ``note``) is ``withheld``, an
    end the data give none ``none``. The unit is ``attrs["unit"]``, for the table's header.

    >>> q = pd.DataFrame({"value": pd.to_timedelta(["220ms", None]),
    ...     "ci_low": pd.to_timedelta(["1.84ms", "900ms"]), "ci_high": pd.to_timedelta([
    ...     "228ms", None]), "above_timeout": [False, True], "ci_high_above_timeout":
    ...     [False, True], "timeout": pd.to_timedelta(["1s", "1s"])})
    >>> said = quantile_text(q)
    >>> said.attrs["unit"], said[["value", "ci_low", "ci_high"]].to_numpy().tolist()
    ('s', [['0.22000 s', '0.00184 s', '0.22800 s'], ['> 1 s', '0.9 s', '> 1 s']])
    """
    above = quantiles["above_timeout"] | quantiles["ci_high_above_timeout"]
    said = [quantiles[c] for c in ("value", "ci_low", "ci_high")] + [quantiles["timeout"][above]]
    most = max((x for col in said for x in col if pd.notna(x)), default=pd.NaT)
    out = quantiles.copy()
    out.attrs["unit"] = duration_scale(most)[1]
    for c in ("value", "ci_low", "ci_high"):
        out[c] = out[c].astype(object)
    for i, q in quantiles.iterrows():
        value, low, high = measured_interval(q["value"], q["ci_low"], q["ci_high"], like=most)
        if pd.isna(q["value"]):  # a bound alone: three digits, no estimate to tell it from
            low, high = (measured_duration(q[c], like=most) for c in ("ci_low", "ci_high"))
        said_value, said_low, said_high = (
            (f"> {given_duration(q['timeout'])}" if above else missing) if pd.isna(x) else text
            for x, text, above, missing in (
                (q["value"], value, q["above_timeout"], "withheld"),
                (q["ci_low"], low, q["above_timeout"], "none"),
                (q["ci_high"], high, q["ci_high_above_timeout"], "none")))
        out.loc[i, ["value", "ci_low", "ci_high"]] = [said_value, said_low, said_high]
    return out


def _print_profile(whole: Any, by: list[str], chosen: Chosen) -> None:
    """Per group (those ``chosen``, then the line that says so): the timeout in force, each
    threshold's share and each quantile, in words, the quantiles in one unit
    (:func:`quantile_text`); a group's withheld quantiles in one note."""
    from ..analyses.latency_profile import withheld_note

    cens = chosen.rows(whole.censoring)
    said = quantile_text(whole.quantiles)
    for _, row in cens.iterrows():
        shares = whole.shares[(whole.shares[by] == row[by]).all(axis=1)] if by else whole.shares
        quants = said[(said[by] == row[by]).all(axis=1)] if by else said
        timeout = row["timeout"]
        has_to = timeout == timeout  # not NaT
        # the analysis names its keyword; the command line, its flag
        source = ("--client-timeout" if row["timeout_source"] == "client_timeout"
                  else row["timeout_source"])
        attempts = counted(int(shares["attempts"].iloc[0]), "attempt")
        print(fill_line(f"\n{group_label(row, by)}: {attempts}; timeout "
                        + (f"{given_duration(timeout)} ({source})" if has_to
                           else f"unknown ({source})")))
        for _, s in shares.iterrows():
            extra = (" (at or above the timeout: equals "
                     "availability)") if s["at_or_above_timeout"] else ""
            print(fill_line(f"  within {given_duration(s['threshold'])}: "
                            f"{measured_percent(s['share'])} ({int(s['good']):,} good; 95 % "
                            f"interval {measured_percent(s['share_low'])} .. "
                            f"{measured_percent(s['share_high'])}){extra}"))
        for _, q in quants.iterrows():
            interval = (f"95 % interval {q['ci_low']} .. {q['ci_high']}" if q["value"] != "withheld"
                        else "no 95 % interval" if q["ci_low"] == "none" else
                        f"95 % interval from {q['ci_low']}, no upper end")
            print(fill_line(f"  p{fraction_to_percent(q['quantile'])} time to success: "
                            f"{q['value']} ({interval})"))
        note = withheld_note(quants, whole.quantiles.attrs["confidence"])  # one note a group
        if note:
            print(fill_line(f"  {note}"))
    if chosen.line:
        print(fill_line(f"\n{chosen.line}"))
    print(fill_line(f"\nquantiles in {said.attrs['unit']} (one unit, that of the largest): "
                    "Kaplan-Meier, timeouts censored at each group's timeout in force "
                    "(--client-timeout, else the smallest timeout no success of the group "
                    "outlasts; a timeout shorter than a success at its own duration), solve "
                    "errors censored at their duration (cause-specific); intervals "
                    "Brookmeyer-Crowley"))


def _recalibration_lines(events: Any, args: argparse.Namespace, thresholds: list[str],
                         by: list[str], slo: SLO | PerGroup, chosen: Chosen) -> list[str]:
    """The supported target of each threshold and the frontier, in words (no NaN: a threshold
    that supports no candidate says so with its note); computed before anything is printed, so
    that a --target the log refuses stops the run with one line. ``slo``: that of ``--target``
    and ``--window``, or of ``--slo FILE`` (its target the current one, its window the
    tracker's)."""
    from ..analyses.latency_recalibration import latency_recalibrate
    from ..analyses.recalibration.rules import NO_INTERVAL

    n_boot = 200 if args.n_boot is None else args.n_boot
    rec = latency_recalibrate(events, slo=slo, thresholds=thresholds, by=by or None, n_boot=n_boot,
                              client_timeout=args.client_timeout)
    compare = args.target is not None or bool(args.slo)  # a current target given
    current = [] if not compare else [
        f"current {describe_slo(slo, by, window=False, events=events)}"]
    windows = list(dict.fromkeys(window_words(s.window) for s in slo_list(slo)))
    span = f"{windows[0]} window" if len(windows) == 1 else "each group's SLO window"
    return [f"\nlatency targets the history supports ({span}{chosen.also}; a "
            "target is supported when the tracker "
            "would have been CRITICAL or worse at most 1 % of the observed time after warm-up):",
            *current,  # the current SLO, each supported target compared with it
            *([speak(NO_INTERVAL)] if n_boot == 0 else []),  # no interval: said once
            *supported_lines(chosen.rows(rec.summary), by, compare),
            "frontier (the smallest threshold each target allows):",
            *frontier_lines(chosen.rows(rec.frontier), by)]


def supported_lines(summary: Any, by: list[str], compare: bool) -> list[str]:
    """The supported target of each group and threshold in words, one line per group and run of
    neighbouring thresholds with the same answer: ``within 250 ms, 500 ms, 1 s: withheld: (...)``
    rather than three lines saying the same (a withheld answer does not depend on the
    threshold when the group's events are too few). With ``compare``, each supported target is
    compared with the group's current target (the summary's ``current_target``). Without the
    bootstrap (``n_boot=0``: both bounds NaN) there is no interval, said once above the lines
    (:data:`~budgetlab.analyses.recalibration.rules.NO_INTERVAL`); one bound below the candidate
    grid (NaN) is said so, as ``recalibrate`` says it.

    >>> import pandas as pd
    >>> nan = float("nan")
    >>> summary = pd.DataFrame({"g": ["a", "a", "b"],
    ...     "threshold": pd.to_timedelta(["250ms", "500ms", "250ms"]),
    ...     "supported_target": [nan, nan, 0.9], "supported_low": [nan, nan, nan],
    ...     "supported_high": [nan, nan, 0.95], "note": ["withheld: 3 events", "withheld: 3 events",
    ...     ""], "current_target": [0.95, 0.95, 0.95]})
    >>> for line in supported_lines(summary, ["g"], True):
    ...     print(line)  # doctest: +NORMALIZE_WHITESPACE
      g=a: within 250 ms, 500 ms: withheld: 3 events
      g=b: within 250 ms: supported target 0.9 (interval below the candidates' range .. 0.95); the
      current 0.95 is above it
    """
    runs: list[list[Any]] = []  # [group label, answer, thresholds]
    for _, r in summary.iterrows():
        if pd.isna(r["supported_target"]):
            said = r["note"] or "no candidate target supported"
        else:
            sup, low, high = (given_fraction(r[c], missing="below the candidates' range") for c in
                              ("supported_target", "supported_low", "supported_high"))
            interval = (f" (interval {low} .. {high})"
                        if pd.notna(r["supported_low"]) or pd.notna(r["supported_high"]) else "")
            said = f"supported target {sup}{interval}"
            if compare:
                target = float(r["current_target"])
                said += (f"; the current {given_fraction(target)} is "
                         + ("at or below it" if target <= r["supported_target"] else "above it"))
            if r["note"]:
                said += f"; {r['note']}"
        label = group_label(r, by)
        if runs and runs[-1][:2] == [label, said]:
            runs[-1][2].append(given_duration(r["threshold"]))
        else:
            runs.append([label, said, [given_duration(r["threshold"])]])
    return [f"  {label}: within {', '.join(within)}: {said}" for label, said, within in runs]


def frontier_lines(frontier: Any, by: list[str]) -> list[str]:
    """The frontier in words, one line per group and run of neighbouring targets with the same
    answer (the same smallest threshold, or none for the same reason): ``targets 0.85 .. 0.999:
    none (...)`` rather than one line per target saying the same. The smallest threshold never
    falls as the target rises, so a target between two of a run has the run's answer too. Too few
    events for each target of a run is one reason (the frontier's ``withheld`` kind and
    ``events``; its figures differ per target): said once, with the events the run's first and
    last targets need (:func:`_too_few_words`); so is a miss the failures decide on few events
    (a ``missed`` note), said at the run's first target."""
    runs: list[list[Any]] = []  # [group label, key, answer, first target, last target]
    for _, f in frontier.iterrows():
        label = group_label(f, by)
        smallest = ("none" if pd.isna(f["smallest_threshold"])
                    else given_duration(f["smallest_threshold"]))
        answer = smallest + (f" ({f['note']})" if f["note"] else "")
        few = smallest == "none" and f.get("withheld", "") == "too_few_events"
        # a miss decided on few events (the group's failures at the longest threshold): a
        # higher target is missed more surely still, one run said at its first target
        missed = smallest == "none" and str(f["note"]).startswith("missed")
        key = (("too_few_events", int(f["events"])) if few else
               ("missed", int(f["events"])) if missed else answer)
        if runs and runs[-1][:2] == [label, key]:
            runs[-1][4] = f["target"]
        else:
            runs.append([label, key, answer, f["target"], f["target"]])
    return [f"  {label}: target {given_fraction(lo)}: {answer}" if lo == hi else
            f"  {label}: targets {given_fraction(lo)} .. {given_fraction(hi)}: "
            + (answer if not isinstance(key, tuple) else _too_few_words(key[1], lo, hi)
               if key[0] == "too_few_events" else f"{answer[:-1]}, at a higher target less still)")
            for label, key, answer, lo, hi in runs]


def _too_few_words(events: int, lo: float, hi: float) -> str:
    """A run of targets ``lo`` .. ``hi`` none of which ``events`` can judge, in words: the
    events the lowest and highest of them need for 10 expected failures each.

    >>> _too_few_words(12, 0.5, 0.999)  # doctest: +NORMALIZE_WHITESPACE
    'none (12 events in the evaluated span: too few for a verdict at any of them; one needs at
    least 10 expected failures: 20 events at 0.5, 10,000 at 0.999)'
    """
    from ..analyses.recalibration.rules import MIN_EXPECTED_FAILURES, events_for

    return (f"none ({counted(events, 'event')} in the evaluated span: too few for a verdict at "
            f"any of them; one needs at least {MIN_EXPECTED_FAILURES} expected failures: "
            f"{events_for(lo):,} events at {given_fraction(lo)}, {events_for(hi):,} at "
            f"{given_fraction(hi)})")


def one_period_note(freq: str, span: Any) -> str:
    """What a shares plot with one period shows (one point per line) and the flag that draws a
    curve, for a log that spans less than ``--freq``; the proposed period is the longest of a few
    round ones that gives the log at least ten periods.

    >>> import pandas as pd
    >>> print(one_period_note("1D", pd.Timedelta(minutes=3, seconds=20)))
    ... # doctest: +NORMALIZE_WHITESPACE
    note: the plot has one 1D period (the log spans 3 min 20 s), one point per line; give --freq
    10s (or another period shorter than the log) for the shares over time.
    """
    hint = next((f for f in ("1h", "15min", "5min", "1min", "30s", "10s")
                 if pd.Timedelta(f) * 10 <= span), "1s")
    return (f"note: the plot has one {freq} period (the log spans {length_words(span)}), one "
            f"point per line; give --freq {hint} (or another period shorter than the log) for the "
            "shares over time.")


def _freq(args: argparse.Namespace) -> str:
    """``--freq``, else one day: the period of the shares table and plot."""
    return str(args.freq or "1D")


def _check_args(args: argparse.Namespace
                ) -> tuple[list[float], list[str] | None, SLO | PerGroup | None]:
    """The quantiles, thresholds and the SLO of the supported targets (``--window`` or ``--slo``;
    ``None`` without either); every flag checked before the log is read, and none given that
    this run would not use."""
    if args.duration is None:
        raise ConfigError("latency needs the duration column: --duration COLUMN (with "
                          "--duration-unit s|ms|us|ns "
                          "for plain numbers).")
    if args.slow_above is not None:
        raise ConfigError("--slow-above makes slow successes failures; latency reads the durations "
                          "themselves: "
                          "give --thresholds instead.")
    unused = [f for f, v in (("--target", args.target), ("--n-boot", args.n_boot)) if v is not None]
    if unused and not (args.window or args.slo):
        verb = "apply" if len(unused) > 1 else "applies"
        raise ConfigError(f"{' and '.join(unused)} {verb} to the supported targets, which need "
                          "--window "
                          "(e.g. --window 24h) or --slo FILE.")
    if args.n_boot is not None:  # recalibrate's rule: 0 skips the bootstrap (no interval)
        check_whole("n_boot", args.n_boot)
    quantiles = given_quantiles(args.quantiles)  # in (0, 1), before the log is read
    if not (args.out or (args.plot and not args.timeouts)):  # the shares per period: neither
        refuse_unused(args, ["--freq"], "it sets the period of the --out table and of the shares "
                      "--plot, and this run writes neither")
    to_timedelta(_freq(args), name="freq")
    check_timeouts(args.timeouts)  # auto alone, or durations
    if args.client_timeout:  # a duration with its unit, before the log is read
        to_timedelta(args.client_timeout, name="client_timeout")
    thresholds = given_thresholds(args)  # None: the default grid, read from the log
    # the supported targets' SLO (--target, --window; --slo FILE), checked before the work
    return quantiles, thresholds, slo_from_args(args) if args.window or args.slo else None


def _cmd_latency(args: argparse.Namespace) -> int:
    from ..analyses.latency_profile import latency_profile
    from ..analyses.timeout_tradeoff import timeout_tradeoff
    from ..plotting import plot_latency_shares, plot_timeout_tradeoff

    quantiles, thresholds, slo = _check_args(args)
    limit = group_limit(args)  # --show-groups without --by: refused before the read
    read = read_log(args, {"--out": args.out, "--plot": args.plot})
    by = group_keys(args)
    stated = ""
    if thresholds is None:  # no --thresholds: the default grid, stated
        thresholds, stated = default_grid(read.events, args)
    whole = latency_profile(read.events, thresholds=thresholds, by=by or None, freq=None,
                            quantiles=quantiles,
                            client_timeout=args.client_timeout)
    chosen = choose_groups(whole.shares, by, limit)  # the groups printed, in every block
    # computed before anything is printed: a candidate or target the data refuse stops the run
    # whole
    # --timeouts auto: read from the log, the reading stated
    candidates, reading = tradeoff_candidates(read.events, args, by, whole.censoring)
    tradeoff = None if not args.timeouts else timeout_tradeoff(
        read.events, timeouts=candidates, by=by or None, client_timeout=args.client_timeout)
    supported = [] if slo is None else _recalibration_lines(read.events, args, thresholds, by,
                                                            slo, chosen)
    ts = read.events["ts"]
    print(wrap(f"{read.title}: {counted(len(read.events), 'attempt')} with durations, "
               f"{span_words(read.events, args.tz)}", indent=""))
    if stated:
        print(fill_line(stated))
    _print_profile(whole, by, chosen)
    if tradeoff is not None:
        print("\n".join(tradeoff_lines(tradeoff, by, chosen, whole.censoring, reading)))
    for line in supported:
        print(fill_line(line))
    if args.out or (args.plot and tradeoff is None):  # the shares per --freq period
        per = latency_profile(read.events, thresholds=thresholds, by=by or None, freq=_freq(args),
                              quantiles=quantiles, client_timeout=args.client_timeout)
    if args.out:
        write_output(per.shares, args, "row",
                     f"(shares per group, threshold and {_freq(args)} period)")
    if args.plot:
        if tradeoff is not None:
            save_plot(lambda ax: plot_timeout_tradeoff(tradeoff, ax=ax, tz=args.tz),
                      args.plot, force=args.force)
        else:
            if per.shares["period"].nunique() == 1:
                print(wrap(one_period_note(_freq(args), ts.iloc[-1] - ts.iloc[0])))
            save_plot(lambda ax: plot_latency_shares(per.shares, ax=ax, tz=args.tz,
                                                     freq=_freq(args)), args.plot,
                      force=args.force)
    return 0


COMMANDS = {"latency": _cmd_latency}
