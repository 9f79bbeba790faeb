"""``export openslo --from-recalibration`` says why a group has no recommended target from the
table's figures as recalibrate writes them (``events``, ``traffic_days``, ``hours``), never from
its notes' words: the notes below say nothing of the kind, and the line still says why."""

from __future__ import annotations

from budgetlab.cli import main
from tests.interop.export_said import statements

# recalibrate's columns; the notes are deliberately not recalibrate's words
TABLE = ("captcha_type,events,traffic_days,hours,recommended_target,recommendation_note\n"
         "recaptcha_v2,59639,9,200.0,0.93,\n"
         "silent,0,0,0.0,,see me\n"
         "oneday,900,1,20.0,,see me\n"
         "shortday,900,3,20.0,,see me\n"
         "flaky,5000,9,200.0,,see me\n")


def test_the_reason_of_each_group_left_out_is_read_from_its_figures(tmp_path, capsys):
    """By hand, the rules of recalibrate in their order, a recommendation weighed at 50 % when
    there is none: silent has no evaluated time (0 h); oneday holds 900 >= 10 / 0.5 = 20 events
    on 1 day with traffic, under the bootstrap's 2, but 20 h first, under 24 h (the more basic
    reason); shortday 3 days but 20 h, under 24 h;
    flaky passes every rule: its evidence was enough, and no target met the rule, or (g63recal)
    its window was too thin for one: the table's figures do not tell which, its note does."""
    (tmp_path / "rec.csv").write_text(TABLE, encoding="utf-8")
    assert main(["export", "openslo", "--from-recalibration", str(tmp_path / "rec.csv"),
                 "--by", "captcha_type", "--window", "1h", str(tmp_path / "rec.yaml")]) == 0
    left = [ln for ln in statements(capsys.readouterr().out) if ln.startswith("left out")]
    assert left == ["left out 4 groups without a recommended_target: silent (no evaluated time), "
                    "oneday (20 h of evaluated time, less than the 24 h time shares and rates "
                    "per day need), shortday (20 h of evaluated time, less than the "
                    "24 h time shares and rates per day need), flaky (no target meets the "
                    "rule, or too few events in a window for one); "
                    "the table's recommendation_note says more"]


def test_an_interval_end_missing_with_the_recommendation_says_why_the_recommendation_is(
        tmp_path, capsys):
    """--target-column recommended_high: silent has no recommendation (no evaluated time) and so
    no interval; wide has a recommendation but no upper end (written by hand): its cell is said
    to be empty, nothing more."""
    (tmp_path / "rec.csv").write_text(
        "captcha_type,events,traffic_days,hours,recommended_target,recommended_high\n"
        "recaptcha_v2,59639,9,200.0,0.93,0.94\n"
        "silent,0,0,0.0,,\n"
        "wide,5000,9,200.0,0.9,\n", encoding="utf-8")
    assert main(["export", "openslo", "--from-recalibration", str(tmp_path / "rec.csv"),
                 "--by", "captcha_type", "--window", "1h", "--target-column", "recommended_high",
                 str(tmp_path / "rec.yaml")]) == 0
    left = [ln for ln in statements(capsys.readouterr().out) if ln.startswith("left out")]
    assert left == ["left out 2 groups without a recommended_high: silent (no evaluated time), "
                    "wide (an empty recommended_high cell)"]
