"""``recalibrate``'s lines name a capped recommendation as the evidence's ceiling (it said "the
rule's target 0.998" above a note that "the rule alone gives 0.9993"); the Elastic Apache log's
GET requests, figures worked out by hand in the comments."""

from __future__ import annotations

from pathlib import Path

from budgetlab.cli import main

APACHE = Path(__file__).parents[1] / "fixtures" / "elastic_apache" / "apache_logs"


def test_recalibrate_names_the_capped_target_the_evidences_ceiling(capsys):
    assert main(["recalibrate", str(APACHE), "--preset", "access", "--by", "method",
                 "--target", "0.99", "--n-boot", "0"]) == 0
    out = capsys.readouterr().out
    block = out[out.index("method=GET:"):out.index("method=HEAD:")]
    text = " ".join(block.split())
    # 7,141 GET requests evaluated: 1 - 10 / 7,141 = 0.99860, the highest grid step at or below
    # it 0.998, below the 0.9993 the rule alone gives
    assert ("current target 0.99; the evidence's ceiling 0.998; verdict: too loose, tighten to "
            "0.998 (capped: as high as 7,141 events can judge)") in text
    assert ("the evidence's ceiling 0.998 (no bootstrap, --n-boot 0: the verdict rests on this "
            "point) lies above 0.99: tighten to 0.998") in text
    assert ("note: the rule alone gives 0.9993, but above 0.9986 the 7,141 events of the "
            "evaluated span hold fewer than 10 expected failures: it stops at 0.998") in text
    assert "the rule's target" not in text
