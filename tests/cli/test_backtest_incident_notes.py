"""``backtest`` says what ``alerts`` says of its incidents, as lines of its output: a scope key
that is not a ``--by`` key (under "How it was read", not a Python warning on stderr), and the
incidents whose detection span runs past the end of the span read. The server's counters are
hand-built bins (no server: ``read_counts`` answers them); the minutes are counted by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab.cli import main

T0 = pd.Timestamp("2026-01-05", tz="UTC")
#: 3 h of 1-minute bins, 00:00 .. 03:00 UTC; fra's events fail in minutes 100..109.
MINUTES = 180
INCIDENTS = """incident_id,start,end,scope
fra-out,2026-01-05T01:40:00Z,2026-01-05T01:50:00Z,region=fra
late,2026-01-05T02:40:00Z,2026-01-05T03:30:00Z,region=ams&instance=a
tail,2026-01-05T02:30:00Z,2026-01-05T02:45:00Z,*
"""


def hand_bins(client, *, total, errors=None, good=None, start, end, freq="1min", by=(),
              warn_widened=True, not_personal=()):
    """What the server answers: 10 events a minute per region, fra's failing in 01:40..01:50."""
    k = np.arange(MINUTES)
    parts = []
    for region in ("ams", "fra"):
        bad = np.where((k >= 100) & (k < 110) & (region == "fra"), 10, 0)
        parts.append(pd.DataFrame({"region": region,
                                   "bin_start": T0 + pd.to_timedelta(k, unit="min"),
                                   "total": 10, "good": 10 - bad, "bad": bad}))
    table = pd.concat(parts, ignore_index=True)
    table["region"] = pd.Categorical(table["region"])
    table.attrs.update({"freq": "1min", "by": list(by), "gaps": [], "notes": [],
                        "source": {"url": "http://prom.test:9090", "requests": 2,
                                   "queries": {"total": total, "errors": errors}},
                        "span": {"start": "2026-01-05T00:00:00Z",
                                 "end": "2026-01-05T03:00:00Z"}})
    return table


def test_backtest_says_the_ungrouped_scope_key_and_the_incidents_past_the_span(
        tmp_path, capsys, monkeypatch):
    import budgetlab.interop.prometheus_source as source

    monkeypatch.setattr(source, "read_counts", hand_bins)
    (tmp_path / "inc.csv").write_text(INCIDENTS)
    rc = main(["backtest", "--prometheus", "http://prom.test:9090", "--total", "req_total",
               "--errors", "err_total", "--by", "region", "--target", "0.9", "--policy",
               "single_window", "--start", "2026-01-05T00:00:00Z", "--end",
               "2026-01-05T03:00:00Z", "--incidents", str(tmp_path / "inc.csv")])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert err == ""  # no Python warning: the scope key is said in the output
    lines = out.splitlines()
    # under "How it was read", as alerts says it in its header (the series' labels are not all
    # known: the advice is conditional)
    at = lines.index("  incident scopes name instance, not a --by key: it does not restrict "
                     "which groups' alerts match an")
    assert lines[at + 1:at + 3] == [
        "    incident; if the log has a column instance, give --by region,instance to match "
        "each incident to",
        "    its own groups only."]
    assert lines.index("How it was read:") < at < lines.index(
        "Incidents, policy single_window (all tiers merged):")
    # the span read ends at 03:00 and --grace is 1 h. late (02:40 .. 03:30): 20 of its 50 min
    # before 03:00, its grace (03:30 .. 04:30) all after. tail (02:30 .. 02:45): all of its 15
    # min, and of its grace (02:45 .. 03:45) the 15 min to 03:00. fra-out (01:40 .. 01:50): its
    # grace ends at 02:50, inside the span: not named.
    text = " ".join(out.split())
    assert ("2 incidents of --incidents are only partly in the span (2026-01-05 00:00 .. "
            "2026-01-05 03:00 UTC): their detection span (the incident and its 1 h --grace) runs "
            "past the span's end: 'late' (20 min of its 50 min in the span, none of its grace), "
            "'tail' (all of its 15 min in the span, 15 min of its grace); an alert after the end "
            "could not be seen, so a miss of them is read with that caveat.") in text
    assert text.count("only partly in the span") == 1  # one policy: said once
    assert "'fra-out' (" not in text
