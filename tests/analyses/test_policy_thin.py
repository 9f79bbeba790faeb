"""The alert policy is chosen on the groups with a verdict (stop 60): notebook 02 counted the
pages of a 30-event group that its own section 2 and fig1 leave out as too thin for a verdict,
and those pages decided the verdict. On the hand-built log of tests/policy_thin_log.py the thin
group ``tiny`` sends 2 of the policy's 3 false pages; the figures by hand (see there)."""

from __future__ import annotations

import warnings

import matplotlib.pyplot as plt
import pytest

import budgetlab as bl
from budgetlab.analyses.choices import (
    choose_policy,
    judged_policy_scores,
    policy_episode_counts,
    policy_summary,
    thin_policy_groups,
)
from budgetlab.cli.alert_figure import policy_figure
from budgetlab.errors import BudgetlabWarning
from tests.policy_thin_log import WEEKS, incidents, log

POLICIES = {"P": bl.AlertPolicy.single_window("1h", 1.0, period="28D")}


@pytest.fixture(scope="module")
def bins():
    return bl.bin_events(log(), "1min", by="g")


def test_the_thin_group_is_named_with_its_expected_failures(bins):
    thin = thin_policy_groups(bins, 0.9)
    assert thin["group"].tolist() == ["g=tiny"]  # big: 10,080 events, 1,008 expected failures
    assert thin["events"].tolist() == [20]
    assert thin["expected_failures"].tolist() == pytest.approx([2.0])  # 20 * (1 - 0.9)
    assert thin["why"].tolist() == [
        "20 events: 2 expected failures under 90 %, under the 10 a verdict needs"]


def test_the_thin_groups_false_pages_do_not_decide_the_choice(bins):
    # with every group, tiny's 2 false pages make 3, 3.018 a week: over the limit of 2
    every = policy_summary(bl.compare_policies(bins, 0.9, POLICIES, incidents()))
    assert every.loc["P", "false_pages_per_week"] == pytest.approx(3 / WEEKS)
    assert choose_policy(every, max_false_pages_per_week=2.0).verdict is None
    summary = policy_summary(judged_policy_scores(bins, 0.9, POLICIES, incidents()))
    row = summary.loc["P"]
    assert (row["pages"], row["false_pages"]) == (2, 1)  # big's: the incident's and day 5's
    assert row["false_pages_per_week"] == pytest.approx(1 / WEEKS)  # 1.006, within 2 a week
    assert (row["pages_left_out"], row["false_pages_left_out"]) == (2, 2)  # tiny's, apart
    assert row["recall"] == 1.0
    verdict = choose_policy(summary, min_recall=0.8, max_false_pages_per_week=2.0)
    assert verdict.verdict == "chosen" and verdict.subject == "P"
    assert "1.0 false pages a week" in verdict.sentence
    assert "decided on the 1 group with a verdict" in verdict.caveat
    assert ("too thin for a verdict: g=tiny (20 events: 2 expected failures under 90 %"
            in verdict.caveat)
    assert "from it came 2 of the 4 pages of P (2 of the 3 false pages)" in verdict.caveat


def test_when_every_group_is_thin_no_policy_is_chosen(bins):
    tiny = bins[bins["g"] == "tiny"]
    summary = policy_summary(judged_policy_scores(tiny, 0.9, POLICIES, incidents()))
    verdict = choose_policy(summary)
    assert verdict.verdict is None
    assert verdict.withheld.startswith("every group is too thin for a verdict (g=tiny (20 events")


def test_without_incidents_the_thin_groups_episodes_are_counted_apart(bins):
    episodes = {"P": bl.alert_episodes(bins, 0.9, POLICIES["P"])}
    counts = policy_episode_counts(episodes, bins, 0.9)
    assert counts.loc["P"].tolist() == [2, 2]  # big: 2 episodes; tiny: 2, left out


def test_per_group_targets_of_the_groups_apart_are_not_said_to_be_unused(bins):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        judged_policy_scores(bins, {"big": 0.9, "tiny": 0.9}, POLICIES, incidents())
    assert not [w for w in caught if issubclass(w.category, BudgetlabWarning)
                and "not used" in str(w.message)]


def test_the_figure_draws_the_thin_groups_bars_light_and_hatched(bins):
    episodes = {"P": bl.alert_episodes(bins, 0.9, POLICIES["P"])}
    fig, _ = policy_figure(episodes, incidents(), bins=bins, target=0.9)
    try:
        ax = fig.axes[0]
        bars = {c.get_label(): list(c) for c in ax.containers}
        assert len(bars["tiny · page_1h"]) == 2 and len(bars["big · page_1h"]) == 2
        assert all(b.get_hatch() and b.get_alpha() < 1 for b in bars["tiny · page_1h"])
        assert not any(b.get_hatch() for b in bars["big · page_1h"])
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert any("too thin for a verdict" in t and "left out of the scores" in t
                   for t in labels)
    finally:
        plt.close(fig)



def test_an_incident_of_the_thin_group_only_is_not_said_to_match_no_group(bins):
    """The judged groups are scored without it, the thin one with it: neither scoring may say
    its scope "matches no group" (it matches tiny), and big's figures stay as by hand."""
    import pandas as pd

    from tests.policy_thin_log import DAY0

    inc = pd.concat([incidents(), pd.DataFrame({
        "incident_id": ["I2"], "scope": ["g=tiny"], "start": [DAY0 + pd.Timedelta("1D12h")],
        "end": [DAY0 + pd.Timedelta("1D12h30min")]})], ignore_index=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        summary = policy_summary(judged_policy_scores(bins, 0.9, POLICIES, inc))
    assert not [w for w in caught if "matches no group" in str(w.message)]
    row = summary.loc["P"]
    assert (row["pages"], row["false_pages"], row["incidents"]) == (2, 1, 1)
    assert (row["pages_left_out"], row["false_pages_left_out"]) == (2, 1)  # day 1's page: I2's


def _warned(bins, incs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scores = judged_policy_scores(bins, 0.9, POLICIES, incs)
    return scores, [str(w.message) for w in caught if issubclass(w.category, BudgetlabWarning)]


def test_incidents_scoped_to_the_judged_group_draw_no_scope_warning(bins):
    # I1 is scoped to big, which has a verdict: it matches a group; no incident is scoped to tiny
    incs = incidents().assign(scope=["g=big"])
    scores, said = _warned(bins, incs)
    assert said == []
    row = policy_summary(scores).loc["P"]
    assert (row["incidents"], row["detected"], row["pages"], row["false_pages"]) == (1, 1, 2, 1)
    assert (row["pages_left_out"], row["false_pages_left_out"]) == (2, 2)  # tiny: both false


def test_an_incident_matching_no_group_is_still_said_once(bins):
    incs = incidents().assign(scope=["g=nowhere"])
    _, said = _warned(bins, incs)
    assert said == ["the one incident of incidents= ('I1') has a scope that matches no group of "
                    "the episodes (by g): not scored, neither detected nor missed; check its "
                    "scope."]
