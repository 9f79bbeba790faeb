"""Fuzzing the loaders: valid CSV, TSV, JSON Lines, gzip and Parquet files with bytes flipped,
cut, inserted, deleted and repeated (hypothesis, derandomized). The only exceptions allowed are
budgetlab's own; whatever loads must be a valid canonical event table."""

from __future__ import annotations

import gzip
import io
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgetlab import check_events, read_events
from budgetlab.errors import BudgetlabError


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    n = 12
    t = pd.Timestamp("2026-11-29", tz="UTC") + pd.to_timedelta(rng.integers(0, 3600, n), unit="s")
    return pd.DataFrame({
        "ts": t.strftime("%Y-%m-%dT%H:%M:%S+00:00"),
        "outcome": rng.choice(["success", "timeout", "solve_error"], n),
        "region": rng.choice(["fra", "ams"], n),
        "session": [f"s{i:03d}" for i in range(n)],
    })


def _seeds() -> dict[str, bytes]:
    frame = _frame()
    buf = io.BytesIO()
    frame.to_parquet(buf, index=False)
    typed = frame.assign(ts=pd.to_datetime(frame["ts"], utc=True))
    buf2 = io.BytesIO()
    typed.to_parquet(buf2, index=False)
    csv = frame.to_csv(index=False).encode()
    return {
        ".csv": csv,
        ".tsv": frame.to_csv(index=False, sep="\t").encode(),
        ".jsonl": frame.to_json(orient="records", lines=True).encode(),
        ".csv.gz": gzip.compress(csv, mtime=0),
        ".parquet": buf.getvalue(),
        ".typed.parquet": buf2.getvalue(),
    }


SEEDS = _seeds()
SPECIAL = [b",", b"\n", b"\r", b'"', b"\t", b"\x00", b"\xff", b"{", b"}", b":", b"-", b"Z",
           b"+99:99", b"9" * 25,
           b"NaN", b"1e400", b"\xef\xbb\xbf", b"PAR1"]


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@st.composite
def mutated(draw, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "cut", "insert", "delete", "repeat", "special"]))
        pos = draw(st.integers(0, max(len(out) - 1, 0)))
        if op == "flip" and out:
            out[pos] ^= 1 << draw(st.integers(0, 7))
        elif op == "cut":
            del out[pos:]
        elif op == "insert":
            out[pos:pos] = draw(st.binary(min_size=1, max_size=8))
        elif op == "delete":
            del out[pos:pos + draw(st.integers(1, 16))]
        elif op == "repeat":
            out[pos:pos] = out[pos:pos + draw(st.integers(1, 64))]
        else:
            out[pos:pos] = draw(st.sampled_from(SPECIAL))
    return bytes(out)


def _load(folder: Path, suffix: str, data: bytes) -> None:
    path = folder / f"fuzz{suffix}"
    path.write_bytes(data)
    with warnings.catch_warnings():
        # e.g. dropped columns are reported, not errors
        warnings.simplefilter("ignore", UserWarning)
        try:
            events = read_events(path, by="region", session="session")
        except BudgetlabError:
            return
    # whatever loads is a valid canonical table
    assert check_events(events, ["region"]) == ["region"]
    assert str(events["ts"].dtype) == "datetime64[ns, UTC]" and not events["ts"].isna().any()
    assert events["ok"].dtype == bool and len(events) > 0
    assert (events["ok"] == (events["bucket"] == "success")).all()


FUZZ = settings(max_examples=200, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize("suffix", list(SEEDS))
def test_unmutated_seeds_load(suffix, fuzz_dir):
    path = fuzz_dir / f"seed{suffix}"
    path.write_bytes(SEEDS[suffix])
    assert len(read_events(path, by="region", session="session")) == 12


@pytest.mark.parametrize("suffix", list(SEEDS))
@FUZZ
@given(data=st.data())
def test_mutated_files_raise_only_budgetlab_errors(suffix, fuzz_dir, data):
    _load(fuzz_dir, suffix, data.draw(mutated(SEEDS[suffix])))


@FUZZ
@given(data=st.binary(max_size=300), suffix=st.sampled_from([".csv", ".jsonl", ".parquet",
                                                             ".csv.gz"]))
def test_random_bytes_raise_only_budgetlab_errors(fuzz_dir, data, suffix):
    _load(fuzz_dir, suffix, data)
