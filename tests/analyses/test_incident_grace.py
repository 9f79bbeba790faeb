"""The incident report's alert verdict uses the detection rule of ``budgetlab alerts``: a tier's
alert detects the incident when it overlaps ``[start, end + grace)`` (default grace 1 h), and a
tier is unseen only when its long window held no event over that same span. Hand-worked cases.

The log: one event every 2 s from 2026-01-05 00:00 to 2026-01-06 12:00 (1,800 an hour, 30 a
minute); the 30 events of 10:00 .. 10:00:58 on 2026-01-06 fail; SLO 99.9 % over 1 h; the incident
is [10:00, 10:01). The evaluation at 10:01 (the end of the 10:00 bin) is the first to see the
incident's data. There page_1h's 1 h window [09:01, 10:01) holds 30 failures in 1,800 events:
burn 30 / 1,800 / 0.001 = 16.7 > 14.4, and its 5 min window [09:56, 10:01) 30 in 150: burn 200 >
14.4; so its alert begins at 10:01, the incident's end. page_6h: 30 / 10,800 / 0.001 = 2.78 < 6.
"""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, AlertPolicy, as_events, incident_report

T0 = pd.Timestamp("2026-01-05 00:00", tz="UTC")
START, END = "2026-01-06 10:00", "2026-01-06 10:01"
SLO_999 = SLO(target=0.999, window="1h")


def at(hhmm: str) -> pd.Timestamp:
    return pd.Timestamp(f"2026-01-06 {hhmm}", tz="UTC")


def log(quiet: tuple[str, str] | None = None, fail: tuple[str, str] = ("10:00", "10:01"),
        ) -> pd.DataFrame:
    """One event every 2 s, 2026-01-05 00:00 .. 2026-01-06 12:00; those in ``fail`` (on
    2026-01-06) fail; none in ``quiet``."""
    ts = pd.date_range(T0, at("12:00"), freq="2s", inclusive="left")
    if quiet is not None:
        ts = ts[(ts < at(quiet[0])) | (ts >= at(quiet[1]))]
    return as_events(ts, ~((ts >= at(fail[0])) & (ts < at(fail[1]))))


def tier(rep, name: str) -> pd.Series:
    return rep.tiers.set_index("tier").loc[name]


def test_an_alert_at_the_first_evaluation_after_a_one_bin_incident_detects_it():
    rep = incident_report(log(), SLO_999, START, END, context="1h")
    page = tier(rep, "page_1h")
    assert page["peak_burn_long"] == pytest.approx(30 / 1800 / 0.001)
    assert page["peak_burn_short"] == pytest.approx(30 / 150 / 0.001)
    # the alert begins at 10:01, in [10:00, 10:01 + 1 h): detected, 1 min after the start
    assert bool(page["fired"]) and page["first_alert"] == at("10:01")
    assert page["detection_delay"] == pd.Timedelta("1min")
    assert not bool(tier(rep, "page_6h")["fired"])
    assert tier(rep, "page_6h")["peak_burn_long"] == pytest.approx(30 / 10_800 / 0.001)
    text = " ".join(rep.summary.split())
    assert ("The workbook policy would have paged at 10:01, 1 min after the start, after the "
            "incident's end but within its 1 h grace (page_1h)") in text
    assert "would not have paged" not in text


def test_without_grace_that_alert_began_after_the_incident_and_the_words_say_so():
    # grace 0: [10:00, 10:01) holds no alert start; budgetlab alerts --grace 0s says the same
    rep = incident_report(log(), SLO_999, START, END, context="1h", grace="0s")
    page = tier(rep, "page_1h")
    assert not bool(page["fired"]) and bool(page["condition_held"])
    assert pd.isna(page["first_alert"])
    assert ("peaked at 16.7, its threshold is 14.4, and both its windows were over it, but no "
            "alert of it began during the incident)") in " ".join(rep.summary.split())


def test_the_silent_tier_names_the_span_it_was_counted_on():
    # for_ 10 min: page_1h's 5 min window holds the failures at 10:01 .. 10:05 only, so its
    # condition never holds 10 min and no alert of it begins in [10:00, 11:01)
    rep = incident_report(log(), SLO_999, START, END, context="1h",
                          policy=AlertPolicy.workbook(for_="10min"))
    assert not rep.tiers["fired"].any()
    assert ("peaked at 16.7, its threshold is 14.4, and both its windows were over it, but no "
            "alert of it began during the incident or its 1 h grace (for_ 10 min))"
            in " ".join(rep.summary.split()))


def test_an_alert_in_the_grace_after_the_context_is_replayed_and_counted():
    # for_ 3 min: page_1h's condition holds from 10:01, so its alert begins at 10:04, after the
    # report's window [10:00, 10:01) (context 0) but in [10:00, 11:01): whatever the context
    for context in ("0s", "1h"):
        rep = incident_report(log(), SLO_999, START, END, context=context,
                              policy=AlertPolicy.workbook(for_="3min"))
        page = tier(rep, "page_1h")
        assert bool(page["fired"]) and page["first_alert"] == at("10:04"), context
        assert page["detection_delay"] == pd.Timedelta("4min")


def test_unseen_is_judged_on_the_incident_and_its_grace():
    # no event 08:00 .. 10:00, none failing: page_1h's 1 h window is empty at its evaluations
    # 09:31 .. 09:35 of the incident [09:30, 09:35), but holds the events from 10:00 at 10:01,
    # within the 1 h grace: seen, and not detected (budgetlab alerts counts it missed)
    quiet = log(quiet=("08:00", "10:00"), fail=("00:00", "00:00"))
    rep = incident_report(quiet, SLO_999, "2026-01-06 09:30", "2026-01-06 09:35", context="1h")
    page = tier(rep, "page_1h")
    assert not bool(page["unseen"]) and not bool(page["fired"])
    # with a 20 min grace the window is empty up to 09:55 too: unseen
    rep = incident_report(quiet, SLO_999, "2026-01-06 09:30", "2026-01-06 09:35", context="1h",
                          grace="20min")
    assert bool(tier(rep, "page_1h")["unseen"])
    assert "its 1 h window held no event at any of its evaluations during the incident or its " \
           "20 min grace" in " ".join(rep.summary.split())


def test_a_decided_miss_says_the_target_as_written():
    # 680 failing events in [10:00, 10:01) under 99.9 %: 0.68 expected failures, too few for a
    # verdict, but 680 of 680 decide a miss; the target is 99.9 %, not 1 - 0.68 / 680 in floats
    ts = pd.date_range(T0, at("12:00"), freq="2s", inclusive="left")
    ts = ts[(ts < at("10:00")) | (ts >= at("10:01"))]
    burst = at("10:00") + pd.to_timedelta(range(680), unit="s") * 60 / 680
    ev = as_events(ts.append(burst).sort_values(),
                   [not at("10:00") <= t < at("10:01") for t in ts.append(burst).sort_values()])
    rep = incident_report(ev, SLO_999, START, END, context="1h")
    text = " ".join(rep.summary.split())
    assert "even with 680 events, a service at 99.9 % would fail this often" in text
    assert "99.90000000000001" not in text


@pytest.mark.usefixtures("wide_terminal")  # reads the tables' rows
def test_the_incident_and_alerts_commands_agree_on_the_detection(tmp_path, capsys):
    # the module's log as a CSV: both commands say page_1h detected the incident in 1 min
    from budgetlab.cli import main

    ts = pd.date_range(T0, at("12:00"), freq="2s", inclusive="left")
    ok = ~((ts >= at("10:00")) & (ts < at("10:01")))
    path = tmp_path / "small.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "ok": ok}).to_csv(path, index=False)
    inc = tmp_path / "inc.csv"
    inc.write_text("incident_id,start,end\nspike,2026-01-06T10:00:00Z,2026-01-06T10:01:00Z\n")
    flags = ["--ok", "ok", "--target", "0.999", "--window", "1h"]
    assert main(["incident", str(path), *flags, "--start", "2026-01-06T10:00Z", "--end",
                 "2026-01-06T10:01Z", "--context", "1h"]) == 0
    said = capsys.readouterr().out
    row = next(line.split() for line in said.splitlines() if line.split()[:1] == ["page_1h"])
    assert row[3:7] == ["True", "2026-01-06", "10:01", "1"]  # fired, first alert, 1 min
    assert "would have paged at 10:01, 1 min after the start" in " ".join(said.split())
    assert main(["incident", str(path), *flags, "--start", "2026-01-06T10:00Z", "--end",
                 "2026-01-06T10:01Z", "--context", "1h", "--grace", "0s"]) == 0
    row = next(line.split() for line in capsys.readouterr().out.splitlines()
               if line.split()[:1] == ["page_1h"])
    assert row[3:5] == ["False", "none"]
    # budgetlab alerts on the same log and incident: page_1h detected it in 1 min
    assert main(["alerts", str(path), "--ok", "ok", "--target", "0.999", "--incidents", str(inc),
                 "--policy", "workbook"]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(lines) if "detection_median" in line)
    at_col = lines[head].split().index("detection_median")  # the columns before: one word each
    row = next(line.split() for line in lines[head:] if line.split()[:1] == ["page_1h"])
    assert row[at_col:at_col + 2] == ["1", "min"]
