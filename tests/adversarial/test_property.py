"""Property test of every reader (issue 15): random bytes, random-but-plausible CSV, JSON Lines,
access-log lines, mutated Parquet and random YAML (nested lists and mappings with anchors and
aliases) either load or raise a :class:`~budgetlab.errors.BudgetlabError`, nothing else, within a
memory limit (the peak of Python allocations per example, tracemalloc) and a time limit
(pytest-timeout per test). Derandomized through the "ci" profile (tests/conftest.py); the
mutation fuzzing of valid files lives in tests/test_fuzz_loaders.py and is reused here."""

from __future__ import annotations

import gzip
import lzma
import sys
import tracemalloc
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from budgetlab import read_access_log, read_events
from budgetlab.errors import BudgetlabError
from budgetlab.interop.openslo import read_openslo
from tests.test_fuzz_loaders import SEEDS, mutated

#: The most an example may allocate (Python/numpy allocations, tracemalloc's peak).
MEMORY_LIMIT = 256 * 2**20
PROPERTY = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])

MAGIC = [b"", b"\x1f\x8b", b"\xfd7zXZ\x00", b"\x28\xb5\x2f\xfd", b"BZh9", b"PAR1", b"PK\x03\x04",
         b"\xff\xfe",
         b"\xfe\xff", b"\xef\xbb\xbf", b"\x04\x22\x4d\x18"]


@pytest.fixture(scope="module", autouse=True)
def _tracing() -> Iterator[None]:
    """Python's allocations traced (tracemalloc) for the module, started once and stopped once.
    Starting and stopping it around each reader call (hundreds of times a run) crashed an xdist
    worker once with a segmentation fault: on CPython 3.11, ``tracemalloc.stop()`` can race an
    allocation tracked on another thread (CPython issue gh-128679, fixed in 3.12.9/3.13.2).

    Hypothesis' tables of the Unicode characters are built first, untraced, by one draw of
    text: the categories of the ~1.1 million code points (cached in .hypothesis/ once built) and
    which of them UTF-8 can encode (``st.text()``'s alphabet, rebuilt in every process). Built
    traced, by the first test that draws text, they took 30-90 s in each xdist worker on the busy
    test machine; untraced, 2-8 s."""
    find(st.text(min_size=1), bool, settings=settings(database=None))
    started = not tracemalloc.is_tracing()  # else python -X tracemalloc: leave it running
    if started:
        tracemalloc.start()
    yield
    if started:
        tracemalloc.stop()


def _bounded(call: Callable[[], Any]) -> None:
    """Run one reader call: it loads or raises a BudgetlabError, under the memory limit. The peak
    is the call's own: the traced peak during the call above what was traced when it began."""
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # budgetlab reports some decisions as warnings
        try:
            call()
        except BudgetlabError as exc:
            assert "\n" not in str(exc), str(exc)
        peak = tracemalloc.get_traced_memory()[1] - before
    assert peak < MEMORY_LIMIT, f"peak {peak:,} bytes"


def test_the_memory_limit_holds_the_reader_call(monkeypatch):
    """What _bounded measures is the call: its peak of 8 MiB exceeds a limit of 4 MiB, 1 MiB
    does not."""
    monkeypatch.setattr(sys.modules[__name__], "MEMORY_LIMIT", 4 * 2**20)
    _bounded(lambda: bytearray(2**20))
    with pytest.raises(AssertionError, match="peak"):
        _bounded(lambda: bytearray(8 * 2**20))


def _write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


@st.composite
def noise(draw: st.DrawFn) -> bytes:
    """Random bytes behind a magic number or byte-order mark, sometimes really compressed."""
    body = draw(st.binary(max_size=400))
    wrap = draw(st.sampled_from(["raw", "gzip", "xz"]))
    if wrap == "gzip":
        body = gzip.compress(body, mtime=0)
    elif wrap == "xz":
        body = lzma.compress(body)
    return draw(st.sampled_from(MAGIC)) + body


FIELD = st.one_of(
    st.sampled_from(["success", "timeout", "solve_error", "ok", "200", "503", "", "null", "fra",
                     "ams", "NaN",
                     "2026-11-29T00:00:00Z", "2026-11-29 03:47", "1764374400", "1e400", "-", '"',
                     "a,b",
                     "ivan@example.org", "+7 (495) 123-45-67", "10.0.0.7"]),
    st.text(max_size=12),
)


@st.composite
def csv_text(draw: st.DrawFn, sep: str = ",") -> bytes:
    header = draw(st.sampled_from([["ts", "outcome", "region"], ["ts", "outcome"], ["time",
                                                                                    "status"],
                                   ["ts", "ts", "outcome"]]))
    rows = draw(st.lists(st.lists(FIELD, min_size=len(header) - 1, max_size=len(header) + 1),
                         max_size=8))
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    lines = [sep.join(header)] + [sep.join(r) for r in rows]
    text = end.join(lines) + draw(st.sampled_from(["", end]))
    return text.encode(draw(st.sampled_from(["utf-8", "utf-16", "latin-1"])), errors="replace")


@st.composite
def jsonl_text(draw: st.DrawFn) -> bytes:
    import json

    records = draw(st.lists(st.dictionaries(st.sampled_from(["ts", "outcome", "region", "x"]),
                                            st.one_of(FIELD, st.integers(), st.floats(),
                                                      st.booleans(), st.none(),
                                                      st.lists(st.integers(), max_size=2)),
                                            max_size=4),
                            max_size=8))
    lines = [json.dumps(r) for r in records]
    if lines and draw(st.booleans()):
        k = draw(st.integers(0, len(lines) - 1))
        lines[k] = lines[k][: draw(st.integers(0, len(lines[k])))]
    return "\n".join(lines).encode()


@st.composite
def access_lines(draw: st.DrawFn) -> bytes:
    out = []
    for _ in range(draw(st.integers(0, 6))):
        day = draw(st.sampled_from(["10/Oct/2026", "31/Feb/2026", "10/Foo/2026", "99/Oct/9999"]))
        zone = draw(st.sampled_from(["+0200", "-0000", "+9999", "Z"]))
        status = draw(st.sampled_from(["200", "503", "404", "999", "099", "abc"]))
        req = draw(st.sampled_from(['"GET / HTTP/1.1"', '"-"', '"\\"quoted\\" x"',
                                    '"unterminated']))
        out.append(f'192.0.2.8 - - [{day}:13:55:36 {zone}] {req} {status} '
                   f'{draw(st.sampled_from(["12", "-"]))}')
    noise_line = draw(st.text(max_size=30))
    if draw(st.booleans()):
        out.insert(draw(st.integers(0, len(out))), noise_line)
    return ("\n".join(out) + draw(st.sampled_from(["", "\n", "\r\n"]))).encode("utf-8",
                                                                               errors="replace")


# -- YAML ------------------------------------------------------------------------------------
SCALAR = st.one_of(st.sampled_from(["openslo/v1", "SLO", "SLI", "30d", "999999999d", "99.9", "-1",
                                    "null", "~",
                                    "Occurrences", "true", "!!python/object:os.system", "<<", "*a",
                                    "&a x"]),
                   st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)),
                           max_size=10))
KEYS = st.sampled_from(["apiVersion", "kind", "metadata", "name", "spec", "service", "indicatorRef",
                        "timeWindow",
                        "duration", "isRolling", "budgetingMethod", "objectives", "targetPercent",
                        "target",
                        "indicator", "ratioMetric", "good", "total", "<<", "labels", "annotations"])


@st.composite
def yaml_tree(draw: st.DrawFn, depth: int = 0) -> str:
    """YAML text in flow style: scalars, lists and mappings, some anchored (&aN) and some aliases
    (*aN) to anchors defined before them, nested a few levels."""
    kind = draw(st.sampled_from(["scalar", "list", "map", "alias"] if depth < 4 else ["scalar",
                                                                                      "alias"]))
    if kind == "scalar":
        text = draw(SCALAR)
        return '"' + text.replace("\\", "\\\\").replace('"',
                                                        '\\"') + '"' if draw(st.booleans()) else \
            (text if text and text.replace(" ", "").isalnum() else '"x"')
    if kind == "alias":
        return f"*a{draw(st.integers(0, 3))}"
    anchor = f"&a{draw(st.integers(0, 3))} " if draw(st.booleans()) else ""
    if kind == "list":
        items = draw(st.lists(yaml_tree(depth + 1), max_size=4))
        return anchor + "[" + ", ".join(items) + "]"
    pairs = draw(st.lists(st.tuples(KEYS, yaml_tree(depth + 1)), max_size=5))
    return anchor + "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"


@st.composite
def yaml_text(draw: st.DrawFn) -> str:
    docs = draw(st.lists(yaml_tree(), min_size=1, max_size=3))
    if draw(st.booleans()):  # a billion-laughs ladder: each level lists the one before ten times
        levels = draw(st.integers(1, 9))
        ladder = ["a0: &l0 [lol, lol]"] + [f"a{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]"
                                           for i in range(1, levels)]
        docs.append("{" + ", ".join(ladder) + "}")
    return "\n---\n".join(docs)


# -- the properties --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("property")


READ_KW: dict[str, Any] = {"by": "region"}


@pytest.mark.timeout(120)
@PROPERTY
@given(data=noise(), suffix=st.sampled_from([".csv", ".tsv", ".jsonl", ".parquet", ".csv.gz",
                                             ".log"]))
def test_random_bytes_through_every_reader(folder, data, suffix):
    path = _write(folder, f"noise{suffix}", data)
    if suffix == ".log":
        _bounded(lambda: read_access_log(path))
    else:
        _bounded(lambda: read_events(path, **READ_KW))
        _bounded(lambda: read_events(path))


# the timeout is a safety net, not a speed check (hypothesis' Unicode table is built before
# tracing starts: _tracing)
@pytest.mark.timeout(300)
@PROPERTY
@given(data=st.data(), kind=st.sampled_from(["csv", "tsv", "csv.gz", "csv.xz", "jsonl",
                                             "jsonl.gz"]))
def test_plausible_text_tables(folder, data, kind):
    if kind.startswith("jsonl"):
        body = data.draw(jsonl_text())
    else:
        body = data.draw(csv_text("\t" if kind == "tsv" else ","))
    if kind.endswith(".gz"):
        body = gzip.compress(body, mtime=0)
    elif kind.endswith(".xz"):
        body = lzma.compress(body)
    path = _write(folder, f"plausible.{kind}", body)
    _bounded(lambda: read_events(path, **READ_KW))
    _bounded(lambda: read_events(path, outcome="status", time="time", outcomes={"2xx": "success",
                                                                                "5xx": "server"}))


@pytest.mark.timeout(120)
@PROPERTY
@given(data=st.data(), suffix=st.sampled_from([".parquet", ".typed.parquet"]))
def test_mutated_parquet(folder, data, suffix):
    path = _write(folder, f"mutated{suffix}", data.draw(mutated(SEEDS[suffix])))
    _bounded(lambda: read_events(path, **READ_KW, session="session"))


@pytest.mark.timeout(120)
@PROPERTY
@given(body=access_lines(), gz=st.booleans())
def test_access_logs(folder, body, gz):
    path = _write(
        folder, "access.log" + (".gz" if gz else ""), gzip.compress(body, mtime=0) if gz else body
    )
    _bounded(lambda: read_access_log(path, on_error="skip"))
    _bounded(lambda: read_access_log(path, by="status"))


@pytest.mark.timeout(120)
@PROPERTY
@given(text=yaml_text())
def test_random_yaml_through_read_openslo(folder, text):
    _bounded(lambda: read_openslo(text))
    path = _write(folder, "slo.yaml", text.encode("utf-8", errors="replace"))
    _bounded(lambda: read_openslo(path))


def test_the_yaml_strategy_builds_aliases_and_ladders():
    # the strategy is what the property relies on: check it draws anchors, aliases and the ladder
    import yaml
    from hypothesis import find

    ladder = find(yaml_text(), lambda t: "*l1" in t)
    assert "&l0" in ladder
    aliased = find(yaml_tree(),
                   lambda t: "&a0" in t and "*a0" in t and t.index("&a0") < t.index("*a0"))
    yaml.safe_load(aliased)  # well-formed: the alias refers to an anchor defined before it


INCIDENT_HEADER = b"incident_id,kind,start,end,scope\n"
RECAL_HEADER = b"captcha_type,events,recommended_target\n"


@pytest.mark.timeout(120)
@PROPERTY
@given(data=st.data(), header=st.sampled_from([b"", INCIDENT_HEADER, RECAL_HEADER]),
       suffix=st.sampled_from([".csv", ".parquet"]))
def test_the_table_readers_of_the_cli(folder, data, header, suffix):
    """The incident table (``--incidents``) and the recalibration table (``--from-recalibration``)
    readers: random bytes and random CSV rows behind a valid header."""
    from budgetlab import read_incidents, read_recalibration_table

    body = header + data.draw(st.one_of(noise(), csv_text()))
    path = _write(folder, f"table{suffix}", body)
    _bounded(lambda: read_incidents(path))
    _bounded(lambda: read_recalibration_table(path))
