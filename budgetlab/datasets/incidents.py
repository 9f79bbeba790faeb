"""Labelled incidents of the synthetic histories: the incident table (given or drawn), and what
each incident does to the outcome probabilities of the events in its scope and time range."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from .._util.units import DAY_NS, HOUR_NS, MINUTE_NS
from .._util.validation import check_fraction, utc_ns_column, utc_timestamp
from ..errors import BudgetlabError, ConfigError
from ..events.schema import INCIDENT_COLUMNS, parse_scope
from .model import CAPTCHA_TYPES, REGIONS, FloatArray, IntArray, MinuteModel

__all__ = ["INCIDENT_KINDS", "scope_masks", "incident_table", "auto_incidents",
           "incident_probabilities"]

#: Incident kinds and the bucket their excess goes to.
INCIDENT_KINDS = {
    "solver_degradation": "solve_error",  # sudden: full excess from start to end
    # excess ramps up linearly over the first half, then holds
    "gradual_degradation": "solve_error",
    "timeout_storm": "timeout",
    "outage": "timeout",  # failure probability set to severity (1.0 = nothing gets through)
    "slow_burn": "solve_error",  # small excess over days
    "sitekey_change": "solve_error",  # a site changed its protection: one sitekey fails more
}
_SCOPE_KEYS = ("captcha_type", "region", "sitekey")


def _incidents(ids: Sequence[str] = (), kinds: Sequence[str] = (), starts: Sequence[int] = (),
               ends: Sequence[int] = (), scopes: Sequence[str] = (),
               severities: Sequence[float] = ()) -> pd.DataFrame:
    """The incident table of these columns (times in int64 ns UTC); none given: empty."""
    def utc(ns: Sequence[int]) -> pd.DatetimeIndex:
        return pd.to_datetime(np.array(ns, dtype=np.int64), unit="ns", utc=True).as_unit("ns")

    return pd.DataFrame({"incident_id": pd.Series(list(ids), dtype="str"),
                         "kind": pd.Series(list(kinds), dtype="str"),
                         "start": utc(starts), "end": utc(ends),
                         "scope": pd.Series(list(scopes), dtype="str"),
                         "severity": np.array(severities, dtype=np.float64)})


def scope_masks(
    scope: str, keys: Mapping[str, list[str]], incident: str
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_], int]:
    """(types mask, regions mask, sitekey index or -1) of a scope string."""
    try:
        parts = parse_scope(scope)
    except BudgetlabError as exc:
        raise ConfigError(f"incident {incident}: {exc}") from None
    types = np.ones(len(CAPTCHA_TYPES), dtype=bool)
    regions = np.ones(len(REGIONS), dtype=bool)
    sitekey = -1
    all_keys = [k for t in CAPTCHA_TYPES for k in keys[t]]
    for key, value in parts.items():
        if key in ("captcha_type", "region"):
            names, mask = (CAPTCHA_TYPES, types) if key == "captcha_type" else (REGIONS, regions)
            if value not in names:
                raise ConfigError(f"incident {incident}: {key} must be one of {list(names)}.")
            mask &= np.array([n == value for n in names])
        elif key == "sitekey":
            if value not in all_keys:
                raise ConfigError(f"incident {incident}: unknown sitekey; use one of "
                                  "budgetlab.datasets.synth.sitekeys().")
            sitekey = all_keys.index(value)
            per_type = len(keys[CAPTCHA_TYPES[0]])
            types &= np.arange(len(CAPTCHA_TYPES)) == sitekey // per_type
        else:
            raise ConfigError(f"incident {incident}: scope key {key!r} is not one of "
                              f"{list(_SCOPE_KEYS)}.")
    if not types.any():
        raise ConfigError(f"incident {incident}: the scope matches no captcha type (sitekey of "
                          "another type?).")
    return types, regions, sitekey


def incident_table(spec: Any, model: MinuteModel, keys: Mapping[str, list[str]]) -> pd.DataFrame:
    if spec is None:
        return _incidents()
    if isinstance(spec, pd.DataFrame):
        frame = spec.copy()
    elif isinstance(spec, Sequence) and not isinstance(spec, str):
        frame = pd.DataFrame(list(spec))
    else:
        raise ConfigError("incidents must be 'auto', None, a DataFrame or a list of dicts with "
                          "columns "
                          f"{list(INCIDENT_COLUMNS)}.")
    if frame.empty:
        return _incidents()
    need = [c for c in INCIDENT_COLUMNS if c != "incident_id"]
    missing = [c for c in need if c not in frame.columns]
    extra = [c for c in frame.columns if c not in INCIDENT_COLUMNS]
    if missing or extra:
        raise ConfigError(f"incidents need columns {list(INCIDENT_COLUMNS)} (incident_id "
                          "optional); "
                          f"missing {missing}, unexpected {extra}.")
    if "incident_id" not in frame.columns:
        frame.insert(0, "incident_id", [f"I{i + 1:02d}" for i in range(len(frame))])
    ids = [str(x) for x in frame["incident_id"]]
    if len(set(ids)) != len(ids):
        raise ConfigError("incident_id values must be unique.")
    starts, ends, severities = [], [], []
    for i, row in enumerate(frame.itertuples(index=False)):  # a loop over incidents, not events
        iid = ids[i]
        if row.kind not in INCIDENT_KINDS:
            raise ConfigError(f"incident {iid}: kind must be one of {list(INCIDENT_KINDS)}.")
        a = int(utc_timestamp(row.start, name=f"incident {iid} start").value)
        b = int(utc_timestamp(row.end, name=f"incident {iid} end").value)
        if not model.start_ns <= a < b <= model.end_ns:
            raise ConfigError(f"incident {iid}: need span start <= start < end <= span end.")
        scope_masks(str(row.scope), keys, iid)
        starts.append(a)
        ends.append(b)
        severities.append(check_fraction(f"incident {iid} severity", row.severity, high_open=False))
    return _incidents(ids, [str(k) for k in frame["kind"]], starts, ends,
                      [str(s).strip() or "*" for s in frame["scope"]], severities)


def auto_incidents(model: MinuteModel, keys: Mapping[str, list[str]],
                   rng: np.random.Generator) -> pd.DataFrame:
    """One incident of each kind at seeded random times, scopes and severities, never
    overlapping."""
    span = model.end_ns - model.start_ns
    kinds = ["solver_degradation", "gradual_degradation", "timeout_storm", "outage", "slow_burn"]
    order = rng.permutation(len(kinds))
    slot = (span * 8 // 10) // len(kinds)
    usual = {
        "solver_degradation": 3 * HOUR_NS,
        "gradual_degradation": 4 * HOUR_NS,
        "timeout_storm": 90 * MINUTE_NS,
        "outage": 15 * MINUTE_NS,
        "slow_burn": 4 * DAY_NS,
    }
    rows: list[dict[str, Any]] = []
    for pos, k in enumerate(order):
        kind = kinds[int(k)]
        dur = max(MINUTE_NS, min(usual[kind], slot * 8 // 10) // MINUTE_NS * MINUTE_NS)
        lo = model.start_ns + pos * slot
        offset = int(rng.integers(0, max(1, (slot - dur) // MINUTE_NS))) * MINUTE_NS
        a = lo + offset
        b = a + dur
        t = CAPTCHA_TYPES[int(rng.integers(len(CAPTCHA_TYPES)))]
        region = REGIONS[int(rng.integers(len(REGIONS)))]
        if kind == "outage":
            scope, sev = "*", 1.0
        elif kind == "timeout_storm":
            scope = f"region={region}"
            excess = rng.uniform(0.10, 0.25)
        elif kind == "slow_burn":
            scope = f"captcha_type={t}"
            excess = rng.uniform(0.01, 0.02)
        else:
            scope = f"captcha_type={t}"
            excess = rng.uniform(0.05, 0.12)
        if kind != "outage":
            types, regions, _ = scope_masks(scope, keys, "auto")
            a_base = a + (b - a) // 2 if kind == "gradual_degradation" else a
            sev = round(model.mean_base_failure(types, regions, a_base, b) + excess, 4)
        rows.append({"kind": kind, "start": a, "end": b, "scope": scope, "severity": sev})
    # a site changes its protection for good, late in the span
    t = CAPTCHA_TYPES[int(rng.integers(len(CAPTCHA_TYPES)))]
    key = keys[t][int(rng.integers(len(keys[t])))]
    a = (
        model.start_ns
        + (span * 82 // 100) // MINUTE_NS * MINUTE_NS
        + int(rng.integers(0, max(1, span // 10 // MINUTE_NS))) * MINUTE_NS
    )
    scope = f"captcha_type={t}&sitekey={key}"
    types, regions, _ = scope_masks(scope, keys, "auto")
    sev = round(model.mean_base_failure(types, regions, a, model.end_ns) + rng.uniform(0.2, 0.4), 4)
    rows.append({"kind": "sitekey_change", "start": a, "end": model.end_ns, "scope": scope,
                 "severity": sev})
    rows.sort(key=lambda r: r["start"])
    for i, r in enumerate(rows):
        r["incident_id"] = f"I{i + 1:02d}"
        r["start"] = pd.Timestamp(r["start"], tz="UTC")
        r["end"] = pd.Timestamp(r["end"], tz="UTC")
    return incident_table(pd.DataFrame(rows)[list(INCIDENT_COLUMNS)], model, keys)


def incident_probabilities(table: pd.DataFrame, model: MinuteModel, keys: Mapping[str, list[str]],
                           ts: IntArray,
                           type_code: IntArray, region_code: IntArray, sitekey: IntArray,
                           minute: IntArray) -> tuple[FloatArray, FloatArray]:
    """``(p_timeout, p_solve_error)`` of every event (sorted by ``ts``): the model's base
    probabilities plus the excess of every incident whose scope and time range hold the event
    (an ``outage`` sets the failure probability instead)."""
    p_to = model.p_timeout[region_code, minute]
    p_se = model.p_solve[type_code, minute]
    overrides: list[tuple[IntArray, float]] = []
    rows = zip(
        table["incident_id"].tolist(), table["kind"].tolist(), table["scope"].tolist(),
        utc_ns_column(table["start"], "start").tolist(), utc_ns_column(table["end"],
                                                                       "end").tolist(),
               table["severity"].tolist(), strict=True,
    )
    for incident_id, kind, scope, a, b, severity in rows:  # a loop over incidents, not events
        types, regions, key_idx = scope_masks(scope, keys, incident_id)
        lo, hi = np.searchsorted(ts, [a, b], side="left")
        sel = slice(int(lo), int(hi))
        mask = types[type_code[sel]] & regions[region_code[sel]]
        if key_idx >= 0:
            mask &= sitekey[sel] == key_idx
        if kind == "outage":
            overrides.append((np.flatnonzero(mask) + lo, severity))
            continue
        a_base = a + (b - a) // 2 if kind == "gradual_degradation" else a
        excess = severity - model.mean_base_failure(types, regions, a_base, b)
        if excess <= 0:
            raise ConfigError(
                f"incident {incident_id}: severity must exceed the scope's base failure rate "
                f"({severity - excess:.4f} there); raise it."
            )
        if kind == "gradual_degradation":
            weight = np.clip((ts[sel] - a) / max(1, a_base - a), 0.0, 1.0)
            add = excess * weight[mask]
        else:
            add = np.full(int(mask.sum()), excess)
        idx = np.flatnonzero(mask) + lo
        if INCIDENT_KINDS[kind] == "timeout":
            p_to[idx] += add
        else:
            p_se[idx] += add
    for idx, severity in overrides:
        p_to[idx] = severity
        p_se[idx] = 0.0
    return p_to, p_se
