"""The event streams of a generated span: Poisson traffic per captcha type x region and minute
(:func:`traffic`), sessions with their sitekeys (:func:`sessions`) and opaque session ids
(:func:`session_hex`), and the events' canonical columns (:func:`event_columns`). The draws are
those :func:`budgetlab.datasets.synth.generate` documents.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..events.schema import bucket_dtype
from .model import CAPTCHA_TYPES, REGIONS, IntArray, MinuteModel

__all__ = ["MS_NS", "traffic", "sessions", "session_hex", "event_columns"]

MS_NS = 1_000_000
_MASK48 = np.uint64((1 << 48) - 1)


def traffic(model: MinuteModel, rng_counts: np.random.Generator,
             rng_offsets: np.random.Generator) -> tuple[IntArray, IntArray, IntArray]:
    """``(group, minute, ms since start)`` of every event: Poisson counts per group and minute,
    uniform whole-ms offsets inside the minute; in time order within each group (a type x region
    stream), groups one after the other."""
    n_min = model.n_minutes
    n_groups = len(CAPTCHA_TYPES) * len(REGIONS)
    counts = rng_counts.poisson(model.group_rate() * (model.exposure_ns / 1e9)[None, :])
    flat = np.repeat(np.arange(n_groups * n_min, dtype=np.int64), counts.ravel())
    group = flat // n_min
    minute = flat - group * n_min
    exposure_ms = model.exposure_ns[minute] // MS_NS
    rel_ms = minute * 60_000 + np.floor(rng_offsets.random(len(flat)) * exposure_ms).astype(
        np.int64
    )
    in_group = np.argsort(group * (n_min * 60_000 + 1) + rel_ms, kind="stable")
    return group[in_group], minute[in_group], rel_ms[in_group]


def sessions(group: IntArray, per_session: float, per_type: int,
              rng: np.random.Generator) -> tuple[IntArray, IntArray]:
    """``(session number, sitekey code)`` of every event (events of a stream in time order):
    consecutive attempts of one stream form sessions; each session uses one sitekey of its type,
    drawn with Zipf weights."""
    n = len(group)
    new = rng.random(n) < 1.0 / per_session
    if n:
        new[0] = True
        new[1:] |= group[1:] != group[:-1]
    session_no = np.cumsum(new, dtype=np.int64) - 1
    n_sessions = int(session_no[-1]) + 1 if n else 0
    session_type = group[new] // len(REGIONS)
    u_key = rng.random(n_sessions)
    zipf = 1.0 / np.arange(1, per_type + 1)
    cum = np.cumsum(zipf / zipf.sum())
    local_key = np.minimum(np.searchsorted(cum, u_key, side="right"), per_type - 1)
    session_key = session_type * per_type + local_key
    return session_no, session_key[session_no]


def session_hex(session_no: IntArray, seed: int) -> pd.api.extensions.ExtensionArray:
    """12 lower-case hex characters per session: a keyed bijection of the 48-bit counter."""
    import pyarrow as pa

    key = np.random.SeedSequence([seed, 0x5E55]).generate_state(3, dtype=np.uint64)
    x = (session_no.astype(np.uint64) + key[0]) & _MASK48
    # odd multipliers: bijective mod 2**48
    for mult in (key[1] | np.uint64(1), key[2] | np.uint64(1)):
        x ^= x >> np.uint64(24)
        x = (x * mult) & _MASK48
    x ^= x >> np.uint64(21)
    digits = b"0123456789abcdef"
    pairs = np.frombuffer(b"".join(bytes([digits[i >> 4], digits[i & 15]]) for i in range(256)),
                          dtype=np.uint16)
    # 6 low bytes, most significant first
    octets = x.astype("<u8").view(np.uint8).reshape(-1, 8)[:, 5::-1]
    chars = np.ascontiguousarray(pairs[octets]).view(np.uint8)  # two hex digits per byte
    offsets = np.arange(0, 12 * len(x) + 1, 12,
                        dtype=np.int32 if len(x) < 170_000_000 else np.int64)
    typ = pa.string() if offsets.dtype == np.int32 else pa.large_string()
    arrow = pa.Array.from_buffers(typ, len(x), [None, pa.py_buffer(offsets), pa.py_buffer(chars)])
    out: pd.api.extensions.ExtensionArray = pd.array(
        arrow.cast(pa.string()) if typ != pa.string() else arrow, dtype="string"
    )
    return out


def event_columns(ts: IntArray, code: npt.NDArray[np.int8], type_code: IntArray,
                  region_code: IntArray,
                  sitekey: IntArray, keys: Mapping[str, list[str]]) -> dict[str, Any]:
    """The canonical columns of the events, in their order."""
    all_keys = [key for t in CAPTCHA_TYPES for key in keys[t]]
    return {
        "ts": pd.to_datetime(ts, unit="ns", utc=True).as_unit("ns"),
        "ok": code == 0,
        "bucket": pd.Categorical.from_codes(code, dtype=bucket_dtype()),
        "captcha_type": pd.Categorical.from_codes(type_code.astype(np.int8),
                                                  dtype=pd.CategoricalDtype(list(CAPTCHA_TYPES))),
        "region": pd.Categorical.from_codes(region_code.astype(np.int8),
                                            dtype=pd.CategoricalDtype(list(REGIONS))),
        "sitekey": pd.Categorical.from_codes(sitekey.astype(np.int16),
                                             dtype=pd.CategoricalDtype(all_keys)),
    }
