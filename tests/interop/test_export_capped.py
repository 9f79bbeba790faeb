"""A recommendation the evidence capped (``recommended_capped``: the rule alone gives more than
the group's evaluated events can judge, no target above ``1 - 10 / events``) is a deliberate
figure (docs/recalibrate.md), the highest target the events can judge and not the service's
level: it is never exported nor suggested as a target without those words.

Hand-written table (as recalibrate writes it, the columns the export reads):

* HEAD: 28 events, 0 failures, verdict withheld (too few under 0.99), recommended 0.64, capped:
  1 - 10 / 28 = 0.643, the highest target 28 events can judge (10 expected failures).
* GET: verdict ok, current 0.99 kept (the action keeps it): the capped 0.998 is not written.
* PUT: too_loose, recommended 0.995, not capped.
* DEL: too_loose, recommended 0.998, capped (4,000 events: 1 - 10 / 4,000 = 0.9975).
"""

from __future__ import annotations

import pandas as pd

from budgetlab import SLO, recalibrate
from budgetlab.analyses.choices import suggest_targets
from budgetlab.cli import main
from tests.interop.export_said import statements

TABLE = ("method,events,failures,current_target,verdict,recommended_target,recommended_capped\n"
         "HEAD,28,0,0.99,withheld,0.64,True\n"
         "GET,9000,1,0.99,ok,0.998,True\n"
         "PUT,9000,5,0.99,too_loose,0.995,False\n"
         "DEL,4000,0,0.99,too_loose,0.997,True\n")
SAID = ("written from a recommendation the evidence capped (the highest target its events can "
        "judge, not the service's level): HEAD 0.64 (capped: as high as 28 events can judge; its "
        "verdict on the current target withheld), DEL 0.997 (capped: as high as 4,000 events can "
        "judge); the table's recommendation_note says more")


def test_export_says_the_capped_targets_it_writes(tmp_path, capsys):
    (tmp_path / "rec.csv").write_text(TABLE, encoding="utf-8")
    for flags in ([], ["--target-column", "recommended_target"]):
        assert main(["export", "openslo", "--from-recalibration", str(tmp_path / "rec.csv"),
                     "--by", "method", "--window", "1h", "--force", *flags,
                     str(tmp_path / "rec.yaml")]) == 0
        said = [ln for ln in statements(capsys.readouterr().out)
                if ln.startswith("written from a recommendation")]
        if flags:  # every recommendation written, GET's capped 0.998 too
            assert said == [SAID.replace(
                "), DEL 0.997", "), GET 0.998 (capped: as high as 9,000 events can judge), "
                "DEL 0.997")]
        else:
            assert said == [SAID]


def test_a_capped_suggestion_says_so():
    # HEAD: a success every 2 h from T0 + 30 min (30 events) under a 3 h window: the first two
    # (T0 + 30 min, T0 + 2 h 30 min) fall within the warm-up, 28 are evaluated; the rule alone
    # (0 failures) gives more than 1 - 10 / 28 = 0.643: capped. GET: a success every 10 min.
    t0 = pd.Timestamp("2026-03-02", tz="UTC")
    rows = [(t0 + pd.Timedelta(minutes=10 * i), "GET", True) for i in range(6 * 60)]
    rows += [(t0 + pd.Timedelta(minutes=30 + 120 * i), "HEAD", True) for i in range(30)]
    events = pd.DataFrame(rows, columns=["ts", "method", "ok"]).sort_values("ts", kind="stable")
    events["bucket"] = "success"
    # max_share=0.06: under 1 % the window's rule withholds HEAD's recommendation (g63recal):
    # its 3 h window holds 1 or 2 events, each half of the time (median 1), one failure puts it
    # at 0 %, EXHAUSTED under every target, the capped 0.5 too, for up to 3 h of its 56 h 20 min
    # (5.3 % > 1 %)
    rec = recalibrate(events.reset_index(drop=True), slo=SLO(target=0.99, window="3h"),
                      by="method", n_boot=0, max_share=0.06)
    head = rec.summary.set_index("method").loc["HEAD"]
    assert (head["events"], bool(head["recommended_capped"])) == (28, True)
    assert head["recommended_target"] <= 1 - 10 / 28
    s = suggest_targets(rec).set_index("method").loc["HEAD"]
    assert s["suggested_target"] == head["recommended_target"]
    assert s["reason"] == ("no incident labels: the recommendation stands (capped: as high as 28 "
                           "events can judge, not the service's level)")
