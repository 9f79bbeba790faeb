"""Refusals of the Python API that no test read before (a coverage pass listed them): each is a
named exception under :class:`budgetlab.errors.BudgetlabError`, names the keyword argument and
says what to give.

Oracle: the exception classes and the words are written here by hand. Where these tests came
with a change (the outcomes of ``Tracker.record``/``record_many`` and ``KeyedTracker``, the
lengths refused by keyword, the group with no event named; AlertPolicy's dict and tuple tiers and
``name=``; ``round_like_python``'s ``digits``), the old code raised a bare TypeError or
ValueError, counted text such as ``"error"`` as a success, or said less."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import budgetlab as bl
from budgetlab.errors import BudgetlabError, ConfigError, InputError

TS = pd.date_range("2026-01-01", periods=3, freq="min", tz="UTC")
SLO = bl.SLO(target=0.9, window="1h")
OUTCOMES = "True (a success) or False (a failure), or 1 and 0"


def _refusal(call, kind):
    """The message of the ``kind`` error ``call()`` raises (one of budgetlab's own)."""
    with pytest.raises(kind) as info:
        call()
    assert isinstance(info.value, BudgetlabError)
    return str(info.value)


# --- Tracker and KeyedTracker --------------------------------------------------------------------


@pytest.mark.parametrize(("ok", "words"), [
    ([True, True], "record_many() got 2 outcomes (ok=) but 3 times (ts=); give one time per "
     "outcome."),
    (True, "record_many() takes ok= as a sequence of outcomes, one per event: " + OUTCOMES
     + "; for one event use record()."),
    # text would count as a success (bool("error") is True): refused
    (["error", "success", "success"], f"record_many() takes ok= as {OUTCOMES}; it holds text."),
    ([1.0, np.nan, 0.0], f"record_many() takes ok= as {OUTCOMES}; it holds missing values."),
    (pd.array([True, pd.NA, False]),
     f"record_many() takes ok= as {OUTCOMES}; it holds missing values."),
    ([1, 2, 0], f"record_many() takes ok= as {OUTCOMES}; it holds numbers other than 1 and 0."),
])
def test_tracker_record_many_refuses_outcomes_it_cannot_count(ok, words):
    trk = bl.Tracker(SLO)
    assert _refusal(lambda: trk.record_many(ok, TS), InputError) == words
    assert trk.total == 0  # nothing recorded


@pytest.mark.parametrize(("ok", "got"), [("error", "text"), (None, "None"), (2, "2")])
def test_tracker_record_refuses_an_outcome_that_is_not_one(ok, got):
    trk = bl.Tracker(SLO)
    words = _refusal(lambda: trk.record(ok, TS[0]), InputError)
    assert words == f"record() takes ok= as {OUTCOMES}; got {got}."
    assert trk.total == 0


def test_outcomes_as_ones_and_zeros_are_counted_as_bools():
    # by hand: 1, 0, 1 -> one failure of three
    trk = bl.Tracker(SLO)
    trk.record_many([1, 0, 1], TS)
    assert (trk.total, trk.failures) == (3, 1)


def test_keyed_tracker_refusals_name_keys_ok_and_ts():
    kt = bl.KeyedTracker({"a": 0.9})
    assert _refusal(lambda: kt.record_many(["a", "a"], [True] * 3, TS), InputError) == (
        "record_many() got 2 keys (keys=), 3 outcomes (ok=) and 3 times (ts=); give one of each "
        "per event.")
    assert _refusal(lambda: kt.record_many(["a"] * 3, True, TS), InputError).startswith(
        "record_many() takes ok= as a sequence of outcomes, one per event")
    assert _refusal(lambda: kt.record("a", "error", TS[0]), InputError) == (
        f"record() takes ok= as {OUTCOMES}; got text.")
    assert kt.groups == []  # a refused event makes no group


def test_a_refused_keyed_batch_adds_no_group():
    kt = bl.KeyedTracker({"a": 0.9, "b": 0.9})
    kt.record("a", True, TS[2])
    # b is new; a's time is before a's last event: the whole batch is refused, b not made
    assert _refusal(lambda: kt.record_many(["b", "a"], [True, True], [TS[2], TS[0]]),
                    InputError) == ("record_many() needs the times of each group in order, not "
                                    "before that group's last recorded event.")
    assert kt.groups == ["a"]
    with pytest.raises(InputError):
        kt.record("b", True, "not a time")
    assert kt.groups == ["a"]


@pytest.mark.parametrize("slos", [SLO, 0.9])
def test_keyed_tracker_takes_per_group_slos(slos):
    assert _refusal(lambda: bl.KeyedTracker(slos), ConfigError) == (
        "KeyedTracker takes per-group SLOs: a PerGroup or a mapping {group key: SLO or target}; "
        "for one SLO use Tracker(slo).")


def test_keyed_tracker_names_the_group_with_no_event():
    kt = bl.KeyedTracker({"a": 0.9, "b": 0.95})
    kt.record("a", True, TS[0])
    words = ("no event recorded yet for group 'b'; record() one first (the groups so far: the "
             "groups property).")
    assert _refusal(lambda: kt.tracker("b"), ConfigError) == words
    assert _refusal(lambda: kt.status("b"), ConfigError) == words


# --- status_episodes -----------------------------------------------------------------------------


@pytest.fixture
def replayed():
    """A replay by region (a, b) of four events, and its transitions."""
    ev = bl.as_events(pd.date_range("2026-01-01", periods=4, freq="min", tz="UTC"),
                      [True, False, True, False]).assign(region=["a", "a", "b", "b"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bl.errors.PartialWindowWarning)
        states = bl.replay(ev, SLO, by="region")
        other = bl.replay(ev.assign(region=["c", "c", "d", "d"]), SLO, by="region")
    return ev, states, bl.transitions(states), bl.transitions(other)


def test_status_episodes_refusals(replayed):
    ev, states, trans, other = replayed
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", bl.errors.PartialWindowWarning)
        spans = bl.status_spans(ev, SLO)
    cases = [
        (lambda: bl.status_episodes(states, trans, by="region", at_least="healthy"), ConfigError,
         "at_least='healthy' must be one of warning, critical, exhausted."),
        (lambda: bl.status_episodes(spans, trans), InputError,
         "status_episodes(spans) reads the spans alone; give no transitions with them."),
        (lambda: bl.status_episodes(states), InputError,
         "status_episodes() takes the spans of budgetlab.status_spans(), or a replay and its "
         "transitions (budgetlab.transitions(states))."),
        (lambda: bl.status_episodes([1], trans), InputError,
         "status_episodes() takes the DataFrames of budgetlab.replay() and transitions(); states "
         "is a list."),
        (lambda: bl.status_episodes(states, [2]), InputError,
         "status_episodes() takes the DataFrames of budgetlab.replay() and transitions(); "
         "transitions is a list."),
        (lambda: bl.status_episodes(states, other, by="region"), InputError,
         "transitions hold groups that states do not; give the transitions of the same replay."),
    ]
    for call, kind, words in cases:
        assert _refusal(call, kind) == words


# --- analyses ------------------------------------------------------------------------------------


def test_page_table_takes_incident_reports():
    from budgetlab.analyses.paging import page_table

    assert _refusal(lambda: page_table({"workbook": 1}), ConfigError) == (
        "page_table() takes {name: IncidentReport} from budgetlab.incident_report().")


@pytest.mark.parametrize(("given", "kind"), [([1], "list"), ((), "tuple")])
def test_page_table_refuses_a_sequence_by_name(given, kind):
    from budgetlab.analyses.paging import page_table

    assert _refusal(lambda: page_table(given), ConfigError) == (
        f"page_table() takes reports= as a mapping {{policy name: IncidentReport}}, not a {kind}: "
        "give e.g. {'workbook': budgetlab.incident_report(...)}.")


def test_render_notebooks_says_what_to_give_without_notebooks(tmp_path):
    pytest.importorskip("papermill", reason="render_notebooks needs papermill before the list")
    pytest.importorskip("nbconvert", reason="render_notebooks needs nbconvert before the list")
    from budgetlab.cli.notebooks import render_notebooks

    assert _refusal(lambda: render_notebooks([], tmp_path / "html"), ConfigError) == (
        "no notebooks to render: give notebooks= one or more .ipynb paths (a folder of .ipynb "
        "files or one notebook).")


@pytest.mark.parametrize(("given", "words"), [
    (pd.DataFrame({"a": [1]}), "verdicts_table() takes Verdict objects (page_verdict(), "
     "cause_verdict()) or the table target_verdicts() returns; this table has no 'subject' "
     "column."),
    ([1], "verdicts_table() takes a list of Verdict objects (from page_verdict(), cause_verdict()) "
     "or the table target_verdicts() returns (for a recalibration: target_verdicts(result))."),
    ("x", "verdicts_table() takes a list of Verdict objects (from page_verdict(), cause_verdict()) "
     "or the table target_verdicts() returns (for a recalibration: target_verdicts(result))."),
    (5, "verdicts_table() takes a list of Verdict objects (from page_verdict(), cause_verdict()) "
     "or the table target_verdicts() returns (for a recalibration: target_verdicts(result))."),
])
def test_verdicts_table_refusals(given, words):
    assert _refusal(lambda: bl.verdicts_table(given), ConfigError) == words


def test_target_verdicts_takes_a_recalibration():
    assert _refusal(lambda: bl.target_verdicts(pd.DataFrame()), ConfigError) == (
        "target_verdicts() takes the Recalibration that budgetlab.recalibrate() returns.")


# --- AlertPolicy ---------------------------------------------------------------------------------

FIELDS = "name, severity, long_window[, short_window, burn, for_, cooldown]"


@pytest.mark.parametrize(("tiers", "words"), [
    ([5], "tiers must be AlertTier objects, dicts or (name, severity, long, short, burn) tuples."),
    ("page_1h", "tiers must be a sequence of AlertTier."),
    ([{"nm": "p"}], f"tiers: a dict tier has no field 'nm'; its keys are {FIELDS}."),
    ([{"name": "p", "severity": "page"}],
     f"tiers: a dict tier lacks long_window; its keys are {FIELDS}."),
    ([("p",)], f"tiers: a tuple tier holds 1 value; give 3 to 7: ({FIELDS})."),
    ([("p", "page", "1h", "5m", 14.4, 0, 0, 9)],
     f"tiers: a tuple tier holds 8 values; give 3 to 7: ({FIELDS})."),
])
def test_alert_policy_refuses_tiers_it_cannot_read(tiers, words):
    assert _refusal(lambda: bl.AlertPolicy(tiers=tiers), ConfigError) == words


def test_a_dict_tier_with_its_fields_is_read():
    p = bl.AlertPolicy(tiers=[{"name": "p", "severity": "page", "long_window": "1h", "burn": 2}])
    assert (p.tiers[0].name, p.tiers[0].long_window, p.tiers[0].burn) == (
        "p", pd.Timedelta(hours=1), 2.0)


def test_alert_policy_name_and_fractions_refusals():
    tiers = bl.AlertPolicy.workbook().tiers
    assert _refusal(lambda: bl.AlertPolicy(tiers=tiers, name=5), ConfigError) == (
        "name= must be a string (the policy's label), not int 5.")
    for fractions in ([0.02], [(0.02,)]):
        assert _refusal(lambda f=fractions: bl.AlertPolicy.from_budget_fractions(f),
                        ConfigError) == (
            "fractions takes (budget_fraction, long_window[, severity]) items.")
    from budgetlab.alerts.policy import as_policy

    assert _refusal(lambda: as_policy(5), ConfigError) == (
        "policy must be an AlertPolicy (e.g. AlertPolicy.workbook()), a preset name (workbook, "
        "sloth, pyrra, single_window).")


# --- figures -------------------------------------------------------------------------------------


@pytest.mark.parametrize("digits", [16, -1, 2.5, True])
def test_round_like_python_takes_whole_digits(digits):
    from budgetlab.budget.figures import round_like_python

    assert _refusal(lambda: round_like_python(np.array([1.23456]), digits), ConfigError) == (
        f"digits={digits!r} must be a whole number in 0..15.")
