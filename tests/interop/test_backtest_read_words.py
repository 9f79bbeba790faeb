"""backtest's "How it was read" says how the spec was read, never that its period is "also the
tracker window": backtest replays alert policies over the budget period and uses no tracker window
(its --window is refused saying so). Stranger's report, stop 59 item 3."""

from __future__ import annotations

import argparse

import pytest

from budgetlab.cli.backtest_slos import target_slos
from tests.interop.test_backtest import OPENSLO, SLOTH
from tests.interop.test_prometheus_sloth import PYRRA


def _args(path, period=None) -> argparse.Namespace:
    return argparse.Namespace(window=None, period=period, slo=str(path), histogram=None,
                              slow_above=None, total=None, errors=None, good=None, target=None,
                              policy=None)


@pytest.mark.parametrize(("text", "read"), [
    (SLOTH, "Sloth prometheus/v1: period 30 days (Sloth's default)"),
    (PYRRA, "Pyrra: period = window 28d"),
    (OPENSLO, None),
])
@pytest.mark.parametrize("period", [None, "28D"])
def test_the_notes_name_no_tracker_window(tmp_path, text, read, period):
    path = tmp_path / "slo.yaml"
    path.write_text(text)
    notes = target_slos(_args(path, period))[0].notes
    assert not any("tracker window" in n for n in notes), notes
    if read is not None:  # the rest of the reader's words stay
        assert read in notes
