"""The demo reports its incident with the context ``budgetlab incident`` uses by default (6 h):
both say how long the data run before the report's window in the same words and figure.

Oracle, by hand: the demo's data start 2026-10-06 00:00:06 UTC (data/README.md: 2026-10-06 to
2026-10-09); incident D1 starts 2026-10-07 23:30 (budgetlab/datasets/demo_incidents.csv); the
report's window starts 6 h before it, 17:30, which is 1 d 17 h 29 min 54 s after the data's start,
said to the hour as "1 d 17 h". (The demo used 2 h before: "1 d 21 h".)"""

from __future__ import annotations

from importlib import resources

from budgetlab.cli import main

SAID = "the data start 1 d 17 h before the report's window (the incident and its context)"


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_demo_and_incident_say_the_same_context(capsys):
    assert main(["demo"]) == 0
    demo = _flat(capsys.readouterr().out)
    assert SAID in demo
    data = resources.files("budgetlab.datasets")
    assert main(["incident", str(data / "demo.parquet"), "--ok", "ok", "--bucket", "bucket",
                 "--incidents", str(data / "demo_incidents.csv"), "--by", "captcha_type",
                 "--target", "recaptcha_v2=0.93,turnstile=0.97,image=0.88",
                 "--window", "24h"]) == 0
    incident = _flat(capsys.readouterr().out)
    assert SAID in incident
