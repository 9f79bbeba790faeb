"""The first pass of the Dask reader (:func:`budgetlab.dask.read_events`): one small profile per
partition, of the columns it checks only (labels, keys, personal data, times), joined on the
driver, where what the pandas reader refuses over the whole input is refused."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import dask.dataframe as dd
import numpy as np
import pandas as pd

from .._util.words import say
from ..errors import BudgetlabError, TimestampError
from ..events.how_read import HowRead
from ..events.read import read_table
from ..events.spec import ReadSpec
from ..events.times import is_instant
from ._how_read import label_times, partition_times
from ._keys import dropped_scan, refuse_required, required_scan, spelled_keys
from ._labels import count_labels
from ._partitions import partition_error, partition_number

__all__ = ["profile", "profile_partition"]

_SCRATCH_TIME = "__budgetlab_scratch_time__"
#: The success column the first pass reads in place of outcome labels (classified once, later).
_SCRATCH_OK = "__budgetlab_scratch_ok__"


def profile_partition(
    raw: pd.DataFrame,
    partition_info: Mapping[str, Any] | None = None,
    *,
    spec: ReadSpec,
    guarded: list[str],
    scan_pii: bool,
    late_after: int,
) -> pd.DataFrame:
    """First pass: bucket labels (or the counts of outcome labels), group-key categories,
    personal-data columns, one sample row, and for "how it was read" each distinct label's
    earliest and latest time and rows later than ``late_after`` (int64 ns UTC; the time of
    reading and the clock skew allowed).

    Runs :func:`budgetlab.read_events` on the success and bucket, key and guarded columns (with
    ``scan_pii``) with a constant scratch time, so the same parsing and checks decide everything;
    a column that holds personal data is dropped there and what it holds counted
    (:func:`~._keys.dropped_scan`), for the driver to refuse (``pii="error"``), drop or hash it
    over every partition. Outcome labels are not classified here but checked row by row and counted
    (:func:`~._labels.count_labels`): the driver classifies those of every partition at once.
    """
    number = partition_number(partition_info)
    info: dict[str, Any] = {"rows": len(raw), "bucket": [], "keys": {}, "flagged": [],
                            "sample": None}
    # personal data in the outcome or bucket column: refused first, over every partition
    if len(raw) == 0 or (info := {**info, "required": required_scan(raw, spec)})["required"]:
        return pd.DataFrame({"number": [number], "info": [info]})
    keys = list(spec.by)
    labels = spec.reads_labels  # outcome labels (ok= or ok_when= win over the default outcome=)
    cols = [] if labels else [c for c in (spec.label, spec.bucket) if c]
    needed = list(dict.fromkeys([*cols, *keys, *(guarded if scan_pii else [])]))
    # a plausible epoch (2026): read_events refuses epochs before 2000 as a likely wrong unit
    scratch = raw[needed].assign(**{_SCRATCH_TIME: np.full(len(raw), 1_780_000_000,
                                                           dtype=np.int64)})
    if labels:
        scratch[_SCRATCH_OK] = True
    extra = [c for c in guarded if c not in keys] if scan_pii else []
    session = spec.session if spec.session in extra else None
    try:
        # told not to warn (pii="drop" would: we look at what is gone; the load pass warns): a
        # warnings filter is process-wide and does not hold across Dask's worker threads
        frame = read_table(scratch, spec.replace(
            time=_SCRATCH_TIME, epoch="s", tz="UTC", time_format=None, session=session,
            keep=[c for c in extra if c != session], pii="drop" if scan_pii else "error",
            salt=None, hash_session=False,
            **({"ok": _SCRATCH_OK, "outcomes": None} if labels else {})), warn=False)
        t, info["time"] = partition_times(raw[spec.time], spec)
        if labels:
            info["labels"], codes = count_labels(raw[spec.label], spec.outcomes)
        else:  # one reading per bucket of the success column (or threshold), as pandas states it
            info["labels"], codes = None, np.zeros(len(raw), dtype=np.intp)
            how = HowRead.from_dict(frame.attrs["how_read"])
            info["readings"], info["vocabulary"] = how.labels, how.vocabulary
        info["times"] = label_times(t, codes, int(codes.max()) + 1, late_after)
    except BudgetlabError as exc:  # raised by profile (the first partition's refusal)
        info["refusal"] = partition_error(exc, number)
        return pd.DataFrame({"number": [number], "info": [info]})
    present = set(frame.columns)
    info["bucket"] = [] if labels else [str(c) for c in frame["bucket"].cat.categories]
    info["keys"] = spelled_keys(raw, frame, keys, hashing=spec.pii == "hash")
    renamed = {session: "session_id"} if session else {}
    info["flagged"] = [c for c in (guarded if scan_pii else []) if renamed.get(c, c) not in present]
    if spec.pii != "hash":  # what each flagged column holds (its values as 64-bit hashes)
        info["dropped"] = dropped_scan(raw, info["flagged"], spec)
    # a row to build the metadata from; with labels the first of each distinct one, so that one
    # that does not map to skip is among them
    info["sample"] = raw.iloc[~raw[spec.label].duplicated().to_numpy()] if labels else raw.iloc[:1]
    return pd.DataFrame({"number": [number], "info": [info]})


def profile(raw: dd.DataFrame, name: str, spec: ReadSpec, guarded: list[str],
            scan_pii: bool, late_after: int, files: bool, meta: pd.DataFrame,
            ) -> list[dict[str, Any]]:
    """First pass: one small profile per partition, in partition order (see
    :func:`profile_partition`), of the columns of ``raw`` it checks only (of those of ``meta``,
    the raw columns read; not a hashed session column: the sample rows hold the columns of
    ``meta`` they lack as missing values). Personal
    data in the outcome or bucket column is refused before any partition's refusal, as the
    pandas reader's guard refuses it first (named ``name:`` when the input is ``files``)."""
    checked = [c for c in meta.columns if c in {spec.time, spec.label, spec.bucket, *spec.by,
                                                 *guarded}]
    profiles = raw[checked].map_partitions(  # type: ignore[no-untyped-call]
        profile_partition, spec=spec, guarded=guarded, scan_pii=scan_pii,
        late_after=late_after,
        meta=pd.DataFrame({"number": pd.Series(dtype=np.int64),
                           "info": pd.Series(dtype=object)}),
        enforce_metadata=False,
    ).compute()
    infos = [i for _, i in sorted(zip(profiles["number"].tolist(), profiles["info"].tolist(),
                                      strict=True),
                                  key=lambda pair: pair[0])]
    for info in infos:  # the sample rows as the loader takes them: every raw column
        if info["sample"] is not None:
            info["sample"] = _with_missing(info["sample"], meta)
    refuse_required(infos, name if files else None)
    # the first partition's refusal, whichever partition the workers finished first
    refusal = next((i["refusal"] for i in infos if "refusal" in i), None)
    if refusal is not None:
        raise refusal
    # each partition is parsed on its own, by its own rule, as each file in pandas: instants in
    # any form go together, naive times beside instants are refused
    forms = {is_instant(i["time"]): (n, i["time"]) for n, i in reversed(list(enumerate(infos)))
             if i.get("time")}
    if len(forms) > 1:
        (m, a), (n, b) = sorted(forms.values())
        raise TimestampError(
            f"mixed naive and zone-aware timestamps: partition {m} of {name} holds {a}, but "
            f"partition {n} holds {b}; give every time an offset, or none and pass "
            + say("tz=", "--tz") + " for the local zone.")
    return infos


def _with_missing(sample: pd.DataFrame, meta: pd.DataFrame) -> pd.DataFrame:
    """``sample`` with the columns of ``meta`` it lacks, missing in every row, of their dtype."""
    fill = np.full(len(sample), -1)
    return sample.assign(**{c: pd.Series(meta[c].array.take(fill, allow_fill=True),
                                         index=sample.index)
                            for c in meta.columns if c not in sample.columns})[list(meta.columns)]
