"""datasets.load's refusals of options name them with the noun and verb in their number, and the
pronoun to match (they wrote "option(s) time apply ...; leave them at their defaults").
Expected texts written by hand."""

from __future__ import annotations

import pytest

from budgetlab import datasets
from budgetlab.errors import ConfigError

TAKES = ("load() takes kind= and the keyword options of budgetlab.read_events (by, time, outcome, "
         "tz, ...).")


def _said(*args, **options) -> str:
    with pytest.raises(ConfigError) as info:
        datasets.load(*args, **options)
    return str(info.value)


def test_unknown_options():
    assert _said("demo", window="1h") == f"unknown option window; {TAKES}"
    assert _said("demo", window="1h", slo=0.9) == f"unknown options slo, window; {TAKES}"


def test_options_that_apply_to_a_log_file():
    assert _said("demo", time="finished_at") == (
        "option time applies to a log file, not to the shipped dataset 'demo' (already "
        "canonical); leave it at its default or give a path instead.")
    assert _said("demo", time="finished_at", tz="Europe/Berlin") == (
        "options time, tz apply to a log file, not to the shipped dataset 'demo' (already "
        "canonical); leave them at their defaults or give a path instead.")


def test_options_given_for_an_incident_file(tmp_path):
    path = tmp_path / "incidents.csv"
    path.write_text("incident_id,start,end\ni1,2026-01-01T00:00Z,2026-01-01T01:00Z\n",
                    encoding="utf-8")
    assert _said(str(path), kind="incidents", by="region") == (
        "option by applies to event logs; an incident table (kind='incidents') takes none.")
    assert _said(str(path), kind="incidents", tz="UTC", by="region") == (
        "options by, tz apply to event logs; an incident table (kind='incidents') takes none.")
