"""Progress while a large log loads (issue 17, point 5): by compressed bytes while a compressed
input is decompressed, by bytes of text while an access log is parsed, per file for many files;
never for small inputs (the size threshold), and through budgetlab._util.progress only."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest

import budgetlab.events._compressed as input_mod
import budgetlab.events.files as sources_mod
import budgetlab.events.lines as lines_mod
from budgetlab import read_access_log, read_events

ROWS = b"".join(b"2026-11-29T00:%02d:00Z,success\n" % i for i in range(50))
CSV = b"ts,outcome\n" + ROWS
LOG = "".join(f'192.0.2.8 - - [10/Oct/2026:13:{i:02d}:36 +0200] "GET / HTTP/1.1" 200 '
              '1\n' for i in range(50))


class _Bar:
    """Records what a progress bar was asked to show."""

    made: list[_Bar] = []

    def __init__(self, total: int, *, desc: str | None = None, min_total: int = 0) -> None:
        self.total, self.desc, self.min_total, self.done = total, desc, min_total, 0
        _Bar.made.append(self)

    def update(self, n: int) -> None:
        self.done += n

    def __enter__(self) -> _Bar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


@pytest.fixture
def bars(monkeypatch: pytest.MonkeyPatch) -> list[_Bar]:
    _Bar.made = []
    monkeypatch.setattr(input_mod, "progress_bar", _Bar)
    monkeypatch.setattr(lines_mod, "progress_bar", _Bar)
    return _Bar.made


def test_decompression_advances_by_compressed_bytes(tmp_path: Path, bars: list[_Bar]) -> None:
    packed = gzip.compress(CSV + ROWS * 19)
    (tmp_path / "log.csv.gz").write_bytes(packed)
    assert len(read_events(tmp_path / "log.csv.gz")) == 1000
    (bar,) = bars
    # hand-read: the bar's total is the compressed size, fully advanced, shown only from the
    # threshold on
    assert (bar.total, bar.done, bar.min_total) == (len(packed), len(packed),
                                                    input_mod.PROGRESS_BYTES)
    assert bar.desc == "decompressing log.csv.gz"


def test_an_access_log_advances_by_bytes_of_text(tmp_path: Path, bars: list[_Bar],
                                                 monkeypatch) -> None:
    monkeypatch.setattr(lines_mod, "BLOCK_BYTES", 512)
    (tmp_path / "access.log").write_text(LOG)
    assert len(read_access_log(tmp_path / "access.log")) == 50
    (bar,) = bars
    assert bar.total == len(LOG.encode())
    assert bar.done == bar.total  # each block's lines and their line ends


def test_many_large_files_get_a_bar_per_file_and_small_ones_none(tmp_path: Path,
                                                                 monkeypatch) -> None:
    seen: list[Any] = []

    def progress(items: Any, *, desc: str | None = None, enabled: bool | None = None,
                 total: Any = None) -> Any:
        seen.append((desc, enabled))
        return iter(items)

    monkeypatch.setattr(sources_mod, "progress", progress)
    for i in range(3):  # three logs, not copies (a copy is refused): each hour its own
        (tmp_path / f"{i}.csv").write_bytes(CSV.replace(b"T00:", b"T%02d:" % i))
    read_events(tmp_path)
    assert seen == []  # 3 small files: no bar (the progress wrapper is not even entered)
    monkeypatch.setattr(sources_mod, "PROGRESS_BYTES", 1)
    read_events(tmp_path)
    # shown on a terminal (progress decides), silent elsewhere
    assert seen[-1] == ("reading 3 files", None)
