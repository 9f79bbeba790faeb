"""Which SLO a ``budgetlab backtest`` replays and under which alert policies: from ``--slo``
(an OpenSLO or Sloth file, at ``--period`` when given) or from the SLI flags (``--total`` with
``--errors``/``--good``, or ``--histogram`` with ``--slow-above``), and ``--policy`` or the spec's
own policies. Every combination of flags that would do nothing or contradict another is refused
here, before the server is asked."""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from ..errors import ConfigError
from .export_options import refuse_half_latency
from .prose import path_label

__all__ = ["at_period", "backtest_policies", "replayed_tiers", "target_slos", "file_targets",
           "spec_target"]


def at_period(spec: Any, period: Any, *, own_policy: bool = True) -> Any:
    """``spec`` at the budget period ``--period``: its own policies re-dated from their periods,
    each tier keeping its budget fraction (:func:`~budgetlab.interop.redate.redate_policies`),
    both said in its notes; dropped with ``own_policy=False`` (``--policy`` replaces them)."""
    from .._util.words import prose_duration
    from ..interop.openslo.model import merged_policy
    from ..interop.redate import redate_policies, redated_words

    slo = spec.slo.with_(period=period)
    notes = [*spec.notes, f"the period: {prose_duration(slo.period)} (--period), not the spec's"]
    was = spec.alert_policies if own_policy else ()
    pols = redate_policies(was, spec.slo.period, slo.period)
    notes += [redated_words(p) for p, w in zip(pols, was, strict=True)
              if w.period == spec.slo.period]
    return dataclasses.replace(spec, slo=slo, policy=merged_policy(pols, slo.period, spec.name),
                               alert_policies=pols, notes=tuple(notes))


def target_slos(args: argparse.Namespace) -> list[Any]:
    from ..interop.openslo.sloth import without_tracker_window
    from ..interop.sli_queries import SpecSLO, read_slo_spec
    from ..slo import SLO

    if args.window is not None:
        raise ConfigError("backtest replays alert policies over the SRE budget period, which is "
                          "--period (e.g. --period 28d), not --window (a tracker window, which "
                          "backtest does not use); give --period.")
    period = args.period or "30D"
    if args.slo:
        if args.histogram is not None or args.slow_above is not None:
            raise ConfigError("give the SLI either in --slo or with --histogram/--slow-above, not "
                              "both.")
        if args.total or args.errors or args.good:  # the counters here, the targets there
            return [file_targets(args)]
        slos = read_slo_spec(args.slo)
        if len(slos) > 1:
            raise ConfigError(f"{path_label(args.slo)}: holds {len(slos)} SLOs; pick one with "
                              f"FILE#NAME ({', '.join(s.name for s in slos)}).")
        spec = slos[0]
        spec = dataclasses.replace(spec, notes=without_tracker_window(spec.notes))
        if args.target is not None:
            spec = dataclasses.replace(spec, slo=spec.slo.with_(target=args.target))
        return [spec if args.period is None else at_period(spec, args.period,
                                                            own_policy=not args.policy)]
    refuse_half_latency(args)
    if args.histogram is not None:
        if args.total or args.errors or args.good:
            raise ConfigError("give the SLI either with --histogram/--slow-above or with "
                              "--total/--errors/--good, "
                              "not both.")
        if args.target is None:
            raise ConfigError("give --target (e.g. --target 0.99) with --histogram.")
        return [SpecSLO(name="latency", slo=SLO(target=args.target, window="30D", period=period),
                        total="",
                        good="", source="command line, latency")]
    if not args.total or not (args.errors or args.good):
        raise ConfigError("give --slo FILE (OpenSLO or Sloth), or --total with --errors or --good.")
    if args.target is None:
        raise ConfigError("give --target (e.g. --target 0.999) with --total.")
    return [SpecSLO(name="slo", slo=SLO(target=args.target, window="30D", period=period),
                    total=args.total,
                    errors=args.errors, good=args.good, source="command line")]


def file_targets(args: argparse.Namespace) -> Any:
    """``--slo FILE`` with ``--total`` and ``--errors``/``--good``: the counters named on the
    command line, the targets from the file; per group when its SLOs are bound to the ``--by``
    groups by their labels, as ``replay --slo FILE --by KEY`` binds them
    (:func:`~budgetlab.interop.openslo.load_slos`). One period: ``--period``, else the file's
    (its SLOs must share one)."""
    from .._util.words import prose_duration
    from ..interop.openslo import load_slos
    from ..interop.sli_queries import SpecSLO
    from ..slo import PerGroup
    from .reading import slo_list

    said = path_label(args.slo.partition("#")[0])
    if not args.total or not (args.errors or args.good):
        raise ConfigError(f"with --slo, give --total with --errors or --good to name the counters "
                          f"({said} gives the targets), or none of them to read the file's "
                          "queries.")
    loaded = load_slos(args.slo, by=tuple(k.strip() for k in (args.by or "").split(",")
                                          if k.strip()))
    source = f"targets from {said}, counters from --total/--{'errors' if args.errors else 'good'}"
    if not isinstance(loaded, PerGroup):
        slo = loaded if args.target is None else loaded.with_(target=args.target)
        return SpecSLO(name="slo", slo=slo.with_(period=args.period or slo.period),
                       total=args.total, errors=args.errors, good=args.good, source=source)
    if args.target is not None:
        raise ConfigError(f"--target would replace the target of every group of {said}; leave "
                          "it out, or edit the targets in the file.")
    for flag in ("--incidents", "--plot"):
        if getattr(args, flag[2:]) is not None:
            raise ConfigError(f"{flag} with the per-group targets of {said} is not supported "
                              "yet; backtest one group at a time (FILE#NAME), or leave out "
                              f"{flag}.")
    periods = sorted({s.period for s in slo_list(loaded)})
    if args.period is None and len(periods) > 1:
        raise ConfigError(f"{said}: its SLOs have different periods "
                          f"({', '.join(map(prose_duration, periods))}); backtest replays one: "
                          "give --period.")
    base = slo_list(loaded)[0].with_(period=args.period or periods[0])
    return SpecSLO(name="slo", slo=base, total=args.total, errors=args.errors, good=args.good,
                   source=source, targets=loaded)


def spec_target(spec: Any) -> Any:
    """The target a backtest replays: the per-group SLOs of :func:`file_targets`, else the
    SLO's one target."""
    return spec.slo.target if spec.targets is None else spec.targets


def backtest_policies(args: argparse.Namespace, spec: Any) -> dict[str, Any]:
    from ..interop.prometheus import POLICY_PRESETS, resolve_policy
    from ..privacy import shown

    names = [p.strip() for p in (args.policy or "").split(",") if p.strip()]
    unknown = [n for n in names if n not in POLICY_PRESETS]
    if unknown:
        raise ConfigError(f"--policy {shown(unknown[0])} is not a policy; give one or more of "
                          f"{', '.join(POLICY_PRESETS)}.")
    if not names:
        if spec.policy is None and spec.source == "command line":
            raise ConfigError("--total names counters, not alert policies (only a --slo spec "
                              "holds them); give --policy (e.g. --policy workbook, or "
                              "workbook,pyrra,sloth).")
        if spec.policy is None:
            from .export_report import no_policy_text

            raise ConfigError(no_policy_text([spec.name], 1))
        return {spec.policy.name or "slo": spec.policy}
    twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if twice is not None:  # a preset name (unknown ones are refused above)
        raise ConfigError(f"--policy lists {twice} twice; give each policy once.")
    return {n: resolve_policy(n, period=spec.slo.period) for n in names}


def replayed_tiers(spec: Any, policies: dict[str, Any], given: bool) -> Any:
    """``spec`` whose notes say the tiers replayed, each with its ``for:`` when it has one (it
    moves the episodes' starts): those of ``--policy`` (``given``) instead of the spec's own
    alerting note, or the spec's own when no note says them (a Pyrra spec's)."""
    from .._util.burns import three_digits
    from ..interop.openslo.sloth import ALERTS_NOTE
    from ..interop.promql import prom_duration

    own = [n for n in spec.notes if n.startswith(ALERTS_NOTE)]
    if own and not given:
        return spec

    def words(t: Any) -> str:
        held = f" (for: {prom_duration(t.for_, 'for')})" if t.for_.value else ""
        return (f"{t.name} {three_digits(t.burn)} over "
                f"{'/'.join(prom_duration(w, 'window') for w in t.windows)}{held}")

    said = "; ".join(f"{name}: {', '.join(words(t) for t in pol.tiers)}"
                     for name, pol in policies.items())
    notes = [n for n in spec.notes if not n.startswith(ALERTS_NOTE)]
    whose = ("the tiers of --policy replayed, not the spec's" if given
             else "the spec's tiers replayed")
    return dataclasses.replace(spec, notes=(*notes, f"{ALERTS_NOTE}{whose}: {said}"))
