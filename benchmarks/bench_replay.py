"""Replay output paid for only when used (issue 20, point 2): the transitions-only path, column
subsets, and the cost of transitions per row (``python -m benchmarks --only replay_columns``).

Baseline of the one-group cases: the ONE-CALL pandas ``series.rolling("24h").agg(["count", "sum"])``
on the failure flags, run interleaved in the same process. The transitions-per-row case compares
:func:`budgetlab.transitions` with the same table rounded by Python's ``round`` row by row (the
previous implementation, kept here as the baseline).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchmarks.harness import Result, peak_memory, time_pair


def _pandas_one_call(events: pd.DataFrame):  # type: ignore[no-untyped-def]
    from budgetlab.events.schema import ts_ns

    series = pd.Series((~events["ok"].to_numpy()).astype(np.int64),
                       index=pd.DatetimeIndex(ts_ns(events).view("datetime64[ns]")))

    def baseline() -> None:
        series.rolling("24h").agg(["count", "sum"])

    return baseline


def _python_rounded_transitions(states: pd.DataFrame) -> pd.DataFrame:
    """The previous transitions() (git HEAD before issue 20), kept here verbatim as the baseline:
    the changed rows taken with ``iloc`` and rounded by Python's round() one value at a time. It
    does not call the current transitions(), so the baseline holds none of the code it is compared
    with."""
    from budgetlab.budget.figures import STATUS_DTYPE
    from budgetlab.budget.replay_status import REPLAY_COLUMNS
    from budgetlab.windows.groups import group_codes, previous_in_group

    def py_round(values: np.ndarray, digits: int) -> list[float]:
        return [round(v, digits) for v in values.tolist()]

    keys = [c for c in states.columns if c not in REPLAY_COLUMNS]
    code = states["status"].cat.codes.to_numpy()
    prev_code = previous_in_group(code, group_codes(states, keys, dense=False), 0)
    rows = np.flatnonzero(code != prev_code)
    sub = states.iloc[rows]
    cols: dict[str, object] = {"ts": sub["ts"].array}
    for k in keys:
        cols[k] = sub[k].array
    cols["from_status"] = pd.Categorical.from_codes(prev_code[rows], dtype=STATUS_DTYPE)
    cols["to_status"] = pd.Categorical.from_codes(code[rows], dtype=STATUS_DTYPE)
    cols["current_rate"] = py_round(sub["success_rate"].to_numpy(), 4)
    cols["total_events"] = sub["total"].to_numpy()
    cols["successes"] = sub["successes"].to_numpy()
    cols["failures"] = sub["failures"].to_numpy()
    cols["budget_total"] = py_round(sub["budget_total"].to_numpy(), 1)
    cols["budget_remaining"] = py_round(sub["budget_remaining"].to_numpy(), 1)
    cols["budget_remaining_pct"] = py_round(sub["remaining_fraction"].to_numpy() * 100, 1)
    cols["burn_rate"] = py_round(sub["burn_rate"].to_numpy(), 2)
    out = pd.DataFrame(cols)
    for c in ("current_rate", "budget_total", "budget_remaining", "budget_remaining_pct",
              "burn_rate"):
        out[c] = out[c].astype(np.float64)
    return out


def case(events: pd.DataFrame, repeat: int) -> list[Result]:
    from budgetlab import SLO, replay, transitions
    from budgetlab.budget.status_changes import replay_transitions

    slo = SLO(target=0.95, window="24h")
    n = len(events)
    baseline = _pandas_one_call(events)
    base_name = "pandas rolling('24h').agg(['count','sum']), one call"
    results = []

    def direct() -> None:
        replay_transitions(events, slo)

    t_direct, b_direct = time_pair(direct, baseline, repeat=repeat)
    mem = peak_memory(lambda: replay_transitions(events, slo))
    results.append(
        Result(
            "replay_transitions, 24h, 1 group",
            n,
            t_direct,
            base_name,
            b_direct,
            mem,
            "<= 0.7x baseline; <= 40 B/event",
            t_direct <= 0.7 * b_direct and mem / n <= 40,
            {"bytes_per_event": mem / n, "transitions": len(replay_transitions(events, slo))},
        )
    )

    def full() -> None:
        transitions(replay(events, slo))

    t_full, t_direct_b = time_pair(full, direct, repeat=repeat)
    results.append(Result("transitions(replay(...)), 24h, 1 group", n, t_full,
                          "replay_transitions, same data",
                          t_direct_b, None, "(reported: what replay_transitions saves)", None,
                          {"vs_pandas": t_full / b_direct}))

    for cols in (["status"], ["burn_rate", "status"]):
        def subset(cols: list[str] = cols) -> None:
            replay(events, slo, columns=cols)

        t_sub, b_sub = time_pair(subset, baseline, repeat=repeat)
        mem_sub = peak_memory(lambda cols=cols: replay(events, slo, columns=cols))
        results.append(Result(f"replay(columns={cols}), 24h, 1 group", n, t_sub, base_name, b_sub,
                              mem_sub,
                              "(reported)", None, {"bytes_per_event": mem_sub / n}))

    def direct20() -> None:
        replay_transitions(events, slo, by="group")

    t20, b20 = time_pair(direct20, baseline, repeat=repeat)
    results.append(Result("replay_transitions, 24h, 20 groups", n, t20, base_name, b20, None,
                          "(reported; the grouped pandas rolling is ~10x the one-group call)", None,
                          {"transitions": len(replay_transitions(events, slo, by="group"))}))

    # transitions cost independent of their count: the same events with few changes (24 h window)
    # and many (1 h window), 20 groups, end to end; then transitions(states) of the many against
    # the same table rounded by Python's round() per value (the previous implementation)
    hourly = SLO(target=0.95, window="1h")
    n_few = len(replay_transitions(events, slo, by="group"))
    n_many = len(replay_transitions(events, hourly, by="group"))
    t_many, t_few = time_pair(lambda: replay_transitions(events, hourly, by="group"), direct20,
                              repeat=repeat)
    # was ~10: five Python round() a change
    per_change_us = (t_many - t_few) / max(n_many - n_few, 1) * 1e6
    results.append(Result(f"replay_transitions, 1h, 20 groups ({n_many:,} changes)", n, t_many,
                          f"replay_transitions, 24h, 20 groups ({n_few:,} changes)", t_few, None,
                          "<= 0.5 us per extra change (cost ~independent of their count)",
                          per_change_us <= 0.5,
                          {"us_per_extra_change": per_change_us}))
    many = replay(events, hourly, by="group")
    pd.testing.assert_frame_equal(transitions(many), _python_rounded_transitions(many),
                                  check_exact=True)
    t_tr, t_py = time_pair(lambda: transitions(many), lambda: _python_rounded_transitions(many),
                           repeat=max(1, repeat // 2))
    results.append(Result(f"transitions(states), 1h, 20 groups ({n_many:,} changes)", n, t_tr,
                          "same table, Python round() per value (previous code)", t_py, None,
                          "(reported)", None, {}))
    return results
