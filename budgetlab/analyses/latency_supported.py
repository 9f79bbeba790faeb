"""The supported target of :func:`budgetlab.latency_recalibrate`, read out of the shares of
time at the limit status: the highest candidate the rule supports among those the evidence can
judge (:func:`supported_targets`), the frontier (for each target, the smallest threshold that
supports it: :func:`frontier_table`), and the words beside them: why no candidate is supported
and where the latency SLI equals availability (:func:`support_note`), what the evidence is too
thin for, withheld (:func:`withhold_thin`, :func:`budgetlab.recalibrate`'s rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import pandas as pd

from .._util.percent import given_fraction
from .recalibration.rules import beyond_evidence

__all__ = ["Tables", "supported_targets", "withhold_thin", "support_note", "frontier_table"]


class Tables(Protocol):
    """The three tables of a :class:`~budgetlab.LatencyRecalibration`."""

    @property
    def table(self) -> pd.DataFrame: ...

    @property
    def summary(self) -> pd.DataFrame: ...

    @property
    def frontier(self) -> pd.DataFrame: ...


def supported_targets(share: np.ndarray, cands: np.ndarray, max_share: float,
                      judgeable: np.ndarray) -> np.ndarray:
    """Highest candidate with ``share <= max_share`` along axis -2 (candidates) among those the
    group's evidence can judge (``judgeable``: groups x candidates); NaN if none."""
    ok = (share <= max_share) & judgeable[:, None, :, None]
    idx = len(cands) - 1 - np.argmax(ok[..., ::-1, :], axis=-2)
    return np.where(ok.any(axis=-2), cands[idx], np.nan)


def withhold_thin(out: Tables, why: list[list[str]], n_ev: np.ndarray,
                  cands: np.ndarray, max_share: float) -> None:
    """Withhold, in words, what the evidence is too thin for (``why``: groups x candidates, as
    :func:`~budgetlab.analyses.recalibration.rules.thin_evidence` says it), as
    :func:`budgetlab.recalibrate` does: a candidate the evidence cannot judge is never supported
    nor on the frontier (the frontier's ``note`` says why); the supported target stops at the
    highest candidate the evidence can judge, and the summary's ``note`` names a higher one the
    rule alone would support ("99.9 % would need 10,000 events ..."); a group whose evidence
    cannot judge even the lowest candidate gets no supported target (NaN), the reason in
    ``note``."""
    n_g, n_c = len(why), len(cands)
    out.frontier["note"] = [why[g][c] or n for g, c, n in zip(
        np.repeat(np.arange(n_g), n_c), np.tile(np.arange(n_c), n_g), out.frontier["note"],
        strict=True)]
    share = out.table["limit_share"].to_numpy(dtype=np.float64).reshape(n_g, -1, n_c)
    rule = supported_targets(share[..., None], cands, max_share, np.ones((n_g, n_c), dtype=bool))
    rule = rule[..., 0].ravel()  # the rule alone, every candidate judged
    g_s = np.repeat(np.arange(n_g), share.shape[1])
    sup = out.summary["supported_target"].to_numpy(dtype=np.float64)
    thin = np.array([bool(why[g][0]) if n_c else False for g in g_s], dtype=bool)
    notes = []
    for g, r, s, n, t in zip(g_s, rule, sup, out.summary["note"], thin, strict=True):
        if t:
            notes.append(f"withheld: {why[g][0]}")
        elif np.isfinite(r) and not s >= r:
            stop = (f"the supported target stops at {given_fraction(s)}" if np.isfinite(s) else
                    "no candidate it can judge meets the rule")
            notes.append("; ".join(x for x in (f"{beyond_evidence(int(n_ev[g]), r)}: {stop}", n)
                                   if x))
        else:
            notes.append(n)
    for col in ("supported_target", "supported_low", "supported_high"):
        out.summary[col] = np.where(thin, np.nan, out.summary[col].to_numpy(dtype=np.float64))
    out.summary["note"] = notes


def support_note(sup: float, high: float, at_timeout: bool, cands: np.ndarray) -> str:
    """A summary row's ``note``: no candidate supported (and what the bootstrap's resampled
    histories support beside none), a threshold at or above the client timeout."""
    words = []
    if np.isnan(sup):  # a bound beside none: what resampled days support, not this history
        low = given_fraction(cands[0])
        high_words = given_fraction(high) if np.isfinite(high) else ""
        words.append(f"no candidate target supported (even {low} is too strict)" + (
            f"; the bootstrap interval runs from below {low} to {high_words}: some histories "
            f"resampled by whole days support {high_words} or more" if high_words else ""))
    if at_timeout:
        words.append("at or above the client timeout: the latency SLI equals availability")
    return "; ".join(words)


def frontier_table(table: pd.DataFrame, keys: Sequence[str], cands: np.ndarray) -> pd.DataFrame:
    """Per group and candidate target, the smallest threshold the history supports (NaT where
    none does, said in ``note``)."""
    ok = table[table["supported"]]
    first = ok.groupby([*keys, "target"], sort=True, observed=True)["threshold"].min()
    grid = table.drop_duplicates([*keys, "target"])[[*keys, "target"]].reset_index(drop=True)
    out = grid.merge(first.reset_index(), on=[*keys, "target"], how="left")
    out = out.rename(columns={"threshold": "smallest_threshold"})
    out["note"] = np.where(out["smallest_threshold"].isna(),
                           "no threshold in the grid supports this target", "")
    return out

