"""The progress helper: a bar on a terminal, silent otherwise, items passed through unchanged."""

from __future__ import annotations

import io

import pytest

from budgetlab._util.progress import progress, progress_enabled


class FakeTerminal(io.StringIO):
    """A text stream that says it is a terminal (what tqdm would draw on)."""

    def isatty(self) -> bool:
        return True


def test_not_a_terminal_is_silent(monkeypatch):
    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    err = io.StringIO()  # isatty() is False
    monkeypatch.setattr("sys.stderr", err)
    assert progress_enabled() is False
    assert list(progress(range(5), desc="x")) == [0, 1, 2, 3, 4]
    assert err.getvalue() == ""


def test_terminal_shows_a_bar(monkeypatch):
    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    err = FakeTerminal()
    monkeypatch.setattr("sys.stderr", err)
    assert progress_enabled() is True
    assert list(progress(range(3), desc="targets")) == [0, 1, 2]
    out = err.getvalue()
    # drawn with its total (leave=False erases it at the end)
    assert "targets" in out and "0/3" in out


@pytest.mark.parametrize("flag", ["1", "true", "yes"])
def test_tqdm_disable_silences_a_terminal(monkeypatch, flag):
    monkeypatch.setenv("TQDM_DISABLE", flag)
    err = FakeTerminal()
    monkeypatch.setattr("sys.stderr", err)
    assert progress_enabled() is False
    assert list(progress(iter("abc"))) == ["a", "b", "c"]
    assert err.getvalue() == ""


def test_empty_or_zero_flag_does_not_disable(monkeypatch):
    monkeypatch.setattr("sys.stderr", FakeTerminal())
    for flag in ("", "0"):
        monkeypatch.setenv("TQDM_DISABLE", flag)
        assert progress_enabled() is True


def test_enabled_overrides_both_ways(monkeypatch):
    monkeypatch.setenv("TQDM_DISABLE", "1")
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    # forced on although stderr is no terminal and TQDM_DISABLE is set; total given for a generator
    assert list(progress((i * i for i in range(4)), total=4, desc="boot", enabled=True)) == [0, 1,
                                                                                             4, 9]
    assert "boot" in err.getvalue() and "0/4" in err.getvalue()
    monkeypatch.delenv("TQDM_DISABLE")
    term = FakeTerminal()
    monkeypatch.setattr("sys.stderr", term)
    assert list(progress(range(2), enabled=False)) == [0, 1]
    assert term.getvalue() == ""


def test_closed_stderr_counts_as_no_terminal(monkeypatch):
    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    err = io.StringIO()
    err.close()  # isatty() on a closed stream raises ValueError
    monkeypatch.setattr("sys.stderr", err)
    assert progress_enabled() is False
    monkeypatch.setattr("sys.stderr", None)
    assert progress_enabled() is False
