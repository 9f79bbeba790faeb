"""Per-group SLOs naming a group the log does not have (a typo beside the real groups, or one
SLO file shared by several services) are not used, and said so: a BudgetlabWarning from the
functions that see the whole log, one line on the command line naming the flag. A group left
without its SLO is still refused (tests/test_slo_words.py); PerGroup.resolve, which per-SLO runs
call on a part of the groups, stays silent. Expected texts written by hand from the groups of the
logs (the Elastic fixture's methods counted with awk: 9,952 GET, 42 HEAD, 1 OPTIONS, 5 POST)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pandas as pd
import pytest

import budgetlab as bl
from budgetlab import SLO, PerGroup
from budgetlab.cli import main
from budgetlab.errors import BudgetlabWarning, ConfigError

ACCESS = Path(__file__).resolve().parent / "fixtures" / "elastic_apache" / "apache_logs"
TWO_DAYS = pd.date_range("2026-01-05", periods=2 * 24 * 60, freq="1min", tz="UTC")
EVENTS = bl.as_events(TWO_DAYS, [i % 50 != 0 for i in range(len(TWO_DAYS))],
                      groups={"t": ["a", "b"] * (len(TWO_DAYS) // 2)})
STRAY = {"a": 0.9, "b": 0.95, "zz": 0.9}
SAID = "slo= names zz, which the events do not have (their groups: a, b): not used."


def _warned(run) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run()
    return [str(w.message) for w in caught if issubclass(w.category, BudgetlabWarning)]


@pytest.mark.parametrize("run", [
    lambda: bl.replay(EVENTS, STRAY, by="t"),
    lambda: bl.recalibrate(EVENTS, slo=STRAY, by="t", n_boot=0),
    lambda: bl.compare_windows(EVENTS, STRAY, ["1h"], by="t"),
    lambda: bl.alert_episodes(bl.bin_events(EVENTS, "1min", by="t"), STRAY,
                              bl.AlertPolicy.single_window("1h", 0.9, period="28D")),
], ids=["replay", "recalibrate", "compare_windows", "alert_episodes"])
def test_a_group_the_events_do_not_have_is_warned_of(run):
    assert _warned(run) == [SAID]


def test_the_stray_slo_changes_no_figure_and_a_full_mapping_says_nothing():
    named = {"a": 0.9, "b": 0.95}
    assert _warned(lambda: bl.replay(EVENTS, named, by="t")) == []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BudgetlabWarning)
        stray = bl.replay(EVENTS, STRAY, by="t")
    pd.testing.assert_frame_equal(bl.replay(EVENTS, named, by="t"), stray)


def test_resolve_on_a_part_of_the_groups_stays_silent():
    per = PerGroup(STRAY, base=SLO(window="1h"))
    got: list[SLO] = []
    assert _warned(lambda: got.extend(per.resolve(pd.DataFrame({"t": ["a"]})))) == []
    assert [s.target for s in got] == [0.9]


def _cli(capsys, *args: str) -> tuple[int, list[str]]:
    """The exit code and the lines from the first ``budgetlab: `` one on (a warning's go on two
    spaces deeper: it is filled to 100 columns)."""
    code = main([*args])
    lines = capsys.readouterr().err.splitlines()
    first = next((i for i, ln in enumerate(lines) if ln.startswith("budgetlab: ")), len(lines))
    return code, lines[first:]


def test_cli_target_names_a_method_the_log_lacks(capsys):
    code, lines = _cli(capsys, "recalibrate", str(ACCESS), "--preset", "access", "--by", "method",
                       "--target", "GET=0.99,POST=0.95,HEAD=0.9,OPTIONS=0.9,GTE=0.9")
    assert (code, lines) == (0, [
        "budgetlab: warning: --target names GTE, which the log does not have (its groups: GET, "
        "HEAD, OPTIONS,", "  POST): not used."])
    # the typo that leaves GET without its target is still refused, the typo named (stop 59)
    code, lines = _cli(capsys, "replay", str(ACCESS), "--preset", "access", "--by", "method",
                       "--target", "GTE=0.99,POST=0.95,HEAD=0.9,OPTIONS=0.9")
    assert (code, lines) == (2, [
        "budgetlab: error: no SLO for the group GET (--target names GTE, none of them); add it to "
        "the per-group SLOs or give it its GROUP=TARGET in --target."])


def test_cli_a_shared_slo_file_with_more_services(capsys, tmp_path):
    one = ("apiVersion: openslo/v1\nkind: SLO\nmetadata: {name: ID, labels: {method: KEY}}\n"
           "spec: {service: web, indicatorRef: ok, budgetingMethod: Occurrences,\n"
           "  timeWindow: [{duration: 1d, isRolling: true}], objectives: [{target: 0.9}]}\n")
    path = tmp_path / "shared.yaml"
    path.write_text("---\n".join(one.replace("ID", m.lower()).replace("KEY", m)
                                 for m in ("GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE")))
    code, lines = _cli(capsys, "replay", str(ACCESS), "--preset", "access", "--by", "method",
                       "--slo", str(path))
    assert (code, lines) == (0, [
        "budgetlab: warning: --slo names PUT, DELETE, which the log does not have (its groups: "
        "GET, HEAD,", "  OPTIONS, POST): not used."])


def test_a_refusal_still_wins_over_the_warning():
    with pytest.raises(ConfigError, match="^no SLO for the group b;"):
        bl.replay(EVENTS, {"a": 0.9, "zz": 0.9}, by="t")


def test_no_events_no_word():
    """Without events there is no group to compare the SLOs with: nothing is said."""
    assert _warned(lambda: bl.replay(EVENTS.iloc[:0], STRAY, by="t")) == []


TARGET_SAID = "target= names zz, which the events do not have (their groups: a, b): not used."
TWO_SLOS = PerGroup({"a": 0.9, "b": 0.95}, base=SLO(window="1h"))
TABLE = pd.DataFrame({"t": ["a", "b", "zz"], "target": [0.9, 0.95, 0.9]})


@pytest.mark.parametrize("target", [STRAY, TABLE, PerGroup(STRAY)], ids=["mapping", "table",
                                                                        "PerGroup"])
@pytest.mark.parametrize("run", [
    lambda t: bl.compare_windows(EVENTS, SLO(window="1h"), ["1h"], by="t", target=t),
    lambda t: bl.compare_windows(EVENTS, TWO_SLOS, ["1h"], by="t", target=t),
    lambda t: bl.recalibrate(EVENTS, target=t, by="t", window="1h", n_boot=0),
    lambda t: bl.recalibrate(EVENTS, slo=TWO_SLOS, target=t, by="t", n_boot=0),
], ids=["compare_windows", "compare_windows-per-slo", "recalibrate", "recalibrate-per-slo"])
def test_per_group_targets_naming_a_group_the_events_do_not_have_are_warned_of(run, target):
    """target= as slo= (before api52b, nothing was said; recalibrate with per-group SLOs runs once
    per SLO on a part of the groups, and names zz once, not b as missing from a's part)."""
    assert _warned(lambda: run(target)) == [TARGET_SAID]
    assert _warned(lambda: run({"a": 0.9, "b": 0.95})) == []
