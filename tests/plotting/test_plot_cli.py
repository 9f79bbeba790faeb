"""The command line's plots: format from the suffix (magic bytes), ``--tz`` on the time axes,
the groups the replay timeline draws, and the figure's size."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from budgetlab import synth
from budgetlab.cli import main
from budgetlab.cli.drawn import MAX_DRAWN
from tests.plotting.time_axes import clock_labels_in

MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".pdf": b"%PDF-", ".svg": b"<?xml"}


@pytest.fixture
def log(tmp_path):
    rng = np.random.default_rng(3)
    n = 3000
    ts = pd.Timestamp("2026-03-02", tz="UTC") + pd.to_timedelta(np.sort(rng.uniform(0, 8 * 3600,
                                                                                    n)), unit="s")
    key = rng.choice([f"k{i}" for i in range(8)], n)
    fail = rng.random(n) < np.where(key == "k5", 0.4, 0.02)  # k5 burns its budget
    path = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "outcome": np.where(fail, "timeout",
                                                                                  "success"),
                  "key": key}).to_csv(path, index=False)
    return path


@pytest.mark.parametrize("suffix", [".png", ".pdf", ".svg"])
def test_replay_plot_format_follows_the_suffix_and_tz_labels_the_axis(log, tmp_path, saved, suffix,
                                                                      capsys):
    out = tmp_path / f"t{suffix}"
    assert main(["replay", str(log), "--window", "1h", "--tz", "Europe/Berlin", "--plot",
                 str(out)]) == 0
    assert out.read_bytes().startswith(MAGIC[suffix])
    (fig,) = saved
    assert fig["xlabels"] == ["time (Europe/Berlin)"]
    capsys.readouterr()


def test_replay_plot_of_many_groups_draws_the_most_evidence_and_says_so(log, tmp_path, saved,
                                                                        capsys):
    out = tmp_path / "t.png"
    assert main(["replay", str(log), "--by", "key", "--window", "1h", "--plot", str(out)]) == 0
    err = " ".join(capsys.readouterr().err.split())  # the note is filled to 100 columns
    assert (f"the timeline shows {MAX_DRAWN} of 8 groups: the most failures first, then the most "
            "events (--plot-groups chooses them by name).") in err
    (fig,) = saved
    # oracle: the log's own counts per key (failures, then events, then key order)
    raw = pd.read_csv(log)
    per = raw.assign(bad=raw["outcome"] != "success").groupby("key").agg(bad=("bad", "sum"),
                                                                         n=("bad", "size"))
    want = (
        per.reset_index()
        .sort_values(["bad", "n", "key"], ascending=[False, False, True])["key"]
        .head(MAX_DRAWN)
    )
    assert fig["titles"] == [f"key={k}" for k in want]
    assert fig["titles"][0] == "key=k5"  # the group that burnt its budget
    assert fig["texts"] and fig["texts"][0].startswith(f"Timeline of {MAX_DRAWN} of 8 groups")
    assert fig["xlabels"] == ["time (UTC)"] * MAX_DRAWN
    height = fig["size"][1]
    assert height <= 2600  # px: 6 groups of three panels (it was 4,488 px for 12 one-panel groups)


def test_plot_groups_chooses_the_groups_by_name(log, tmp_path, saved, capsys):
    out = tmp_path / "t.png"
    assert main(["replay", str(log), "--by", "key", "--window", "1h", "--plot", str(out),
                 "--plot-groups", "k7,k1"]) == 0
    (fig,) = saved
    assert fig["titles"] == ["key=k7", "key=k1"]
    assert fig["texts"] == ["Timeline of 2 of 8 groups, chosen by name (--plot-groups)."]
    assert main(["replay", str(log), "--by", "key", "--window", "1h", "--plot", str(out), "--force",
                 "--plot-groups", "k9"]) == 2
    err = capsys.readouterr().err
    assert "no group named k9" in err and "k0, k1" in err and "Traceback" not in err


def test_plot_groups_without_by_is_refused_not_ignored(log, tmp_path, capsys):
    """Without --by the timeline has one panel, all events: a --plot-groups name (even one of the
    log's key values) chooses nothing, so the run refuses it before reading and writes nothing."""
    out = tmp_path / "t.png"
    assert main(["replay", str(log), "--window", "1h", "--plot", str(out),
                 "--plot-groups", "k7"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "give --by KEY too, or leave --plot-groups out" in err
    assert not out.exists()
    # the fix as the message gives it: with --by the same name is drawn
    assert main(["replay", str(log), "--window", "1h", "--plot", str(out), "--plot-groups", "k7",
                 "--by", "key"]) == 0
    assert out.exists()
    capsys.readouterr()


def test_demo_plot_of_many_groups_draws_the_most_failures_as_it_says(tmp_path, saved, capsys):
    """``demo --by captcha_type,region``: 6 groups, 4 drawn, chosen as the note says (the demo
    ranked them by worst status while saying "the most failures")."""
    from budgetlab import datasets

    assert main(["demo", "--by", "captcha_type,region", "--plot", str(tmp_path / "t.png")]) == 0
    err = " ".join(capsys.readouterr().err.split())  # the note is filled to 100 columns
    assert (f"the timeline shows {MAX_DRAWN} of 6 groups: the most failures first, then the most "
            "events.") in err
    (fig,) = saved
    # the note names no flag demo lacks (only replay has --plot-groups)
    assert fig["texts"] == [f"Timeline of {MAX_DRAWN} of 6 groups: the most failures first, then "
                            "the most events."]
    assert "--plot-groups" not in err
    # oracle: the sample's own counts per group (failures, then events, then key order)
    ev = datasets.load("demo")
    per = (ev.assign(bad=~ev["ok"]).groupby(["captcha_type", "region"], observed=True)
           .agg(bad=("bad", "sum"), n=("bad", "size")).reset_index())
    want = per.sort_values(["bad", "n", "captcha_type", "region"],
                           ascending=[False, False, True, True]).head(MAX_DRAWN)
    assert fig["titles"] == [f"captcha_type={c}, region={r}"
                             for c, r in zip(want["captcha_type"], want["region"], strict=True)]


def test_bucket_and_alert_plots_take_the_time_zone(log, tmp_path, saved, capsys):
    png = tmp_path / "b.svg"
    assert main(["buckets", str(log), "--window", "1h", "--tz", "America/New_York", "--plot",
                 str(png)]) == 0
    assert png.read_bytes().startswith(MAGIC[".svg"])
    assert saved[-1]["xlabels"] == ["time (America/New_York)"]
    capsys.readouterr()
    plt.close("all")


def test_bucket_plot_keeps_the_groups_of_by_apart(log, tmp_path, saved, capsys):
    """``buckets --by key --plot`` draws what the table shows, per group: one layer per bucket and
    group, the groups that burn the most apart (k5 fails 40 %, the others 2 %) and the rest
    named as added up, never one unnamed sum of every group."""
    assert main(["buckets", str(log), "--by", "key", "--window", "1h", "--plot",
                 str(tmp_path / "b.png")]) == 0
    capsys.readouterr()
    layers = saved[-1]["layers"]
    # oracle: MAX_GROUPS (4) layers, the 3 keys with most timeouts apart, 8 - 3 added up
    raw = pd.read_csv(log)
    top = raw[raw["outcome"] == "timeout"]["key"].value_counts().sort_values(
        ascending=False, kind="stable").index[:3]
    assert sorted(layers) == sorted([*(f"timeout · {k}" for k in top),
                                     "timeout · other (5 groups)"])
    assert "timeout · k5" in layers
    plt.close("all")


def test_demo_plot_takes_the_time_zone(tmp_path, saved, capsys):
    """``demo --tz`` labels the timeline's axis in the zone (the demo runs 6-8 Oct 2026: CEST,
    UTC+2); a zone that does not exist is refused before the replay."""
    assert main(["demo", "--tz", "Europe/Berlin", "--plot", str(tmp_path / "t.png")]) == 0
    (fig,) = saved
    assert fig["xlabels"] == ["time (Europe/Berlin)"] * 3
    assert sum(clock_labels_in(ticks, "Europe/Berlin") for ticks in fig["ticks"]) > 0
    capsys.readouterr()
    assert main(["demo", "--tz", "Mars/Base", "--plot", str(tmp_path / "u.png")]) == 2
    err = capsys.readouterr().err
    assert "--tz" in err and "Summary" not in err
    plt.close("all")


def test_latency_plot_names_the_zone_and_the_share(tmp_path, saved, capsys):
    """``latency --plot`` over time: the x axis in ``--tz`` (Berlin in January: UTC+1), named in
    its label with what a point is (its period's start); the y axis a share in percent."""
    ts = pd.date_range("2026-01-05 06:00", periods=180, freq="1min", tz="UTC")
    path = tmp_path / "lat.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": "success",
                  "ms": (np.arange(180) % 7) * 1000}).to_csv(path, index=False)
    assert main(["latency", str(path), "--duration", "ms", "--duration-unit", "ms",
                 "--thresholds", "3s", "--freq", "30min", "--tz", "Europe/Berlin", "--plot",
                 str(tmp_path / "lat.png")]) == 0
    (fig,) = saved
    # with the span the shares count: the first and last attempt, 06:00 and 08:59 UTC, in Berlin
    assert fig["xlabels"] == ["period start (Europe/Berlin); attempts 2026-01-05 07:00 +01:00 "
                              ".. 2026-01-05 09:59 +01:00"]
    assert clock_labels_in(fig["ticks"][0], "Europe/Berlin") > 0
    capsys.readouterr()
    plt.close("all")


APACHE = Path(__file__).parents[1] / "fixtures" / "elastic_apache" / "apache_logs"


def test_bucket_plot_leaves_out_the_groups_the_table_leaves_blank(tmp_path, saved, capsys):
    """The Apache log by method (shared/data/README.md: GET 9,952, HEAD 42, OPTIONS 1, POST 5
    requests; at 95 % a verdict needs 200): the table leaves HEAD, OPTIONS and POST blank, so the
    plot draws GET's 500s alone and names the others; the 1 h bins (--plot-freq's default) are
    stated on the axis."""
    assert main(["buckets", str(APACHE), "--preset", "access", "--by", "method", "--plot",
                 str(tmp_path / "b.png")]) == 0
    capsys.readouterr()
    (fig,) = saved
    assert fig["layers"] == ["server_error · GET"]
    assert fig["legends"] == [["server_error · GET",
                               "not drawn, too thin for a verdict:\nHEAD, OPTIONS, POST"]]
    assert fig["ylabels"] == ["burn rate per 1 h bin\n(1 = allowed pace)"]
    plt.close("all")


def test_incident_bucket_panel_states_its_bin_width(log, tmp_path, saved, capsys):
    # the window is the hour plus 6 h of context on each side, 13 h: 5 min bins would be 156,
    # over the 120 a panel takes, 10 min bins 78
    assert main(["incident", str(log), "--start", "2026-03-02T02:00Z", "--end",
                 "2026-03-02T03:00Z", "--window", "1h", "--plot", str(tmp_path / "i.png")]) == 0
    capsys.readouterr()
    (fig,) = saved
    # and the target the burns are against (the default 95 %)
    assert "burn rate per 10 min bin\n(1 = allowed pace, target 95%)" in fig["ylabels"]
    plt.close("all")


def test_recalibrate_plot_keys_a_current_target_only_when_given(tmp_path, saved, capsys):
    events, _ = synth.generate("2026-10-05", 3, seed=1, rate=0.05, incidents=None,
                               session_ids=False)
    path = tmp_path / "three_days.csv"
    events.assign(outcome=events["bucket"].astype(str))[["ts", "outcome"]].to_csv(path,
                                                                                 index=False)
    base = ["recalibrate", str(path), "--window", "1h", "--n-boot", "0"]
    assert main([*base, "--plot", str(tmp_path / "r.png")]) == 0
    assert main([*base, "--target", "0.95", "--plot", str(tmp_path / "r2.png")]) == 0
    capsys.readouterr()
    without, given = saved
    # one group, no bootstrap: the group, the dots, the recommendation, the limit; a current
    # target's key only with --target
    assert without["legends"] == [["all", "time exhausted+ at target", "recommended target",
                                   "limit 1% exhausted"]]
    assert given["legends"] == [["all", "time exhausted+ at target", "recommended target",
                                 "current target", "limit 1% exhausted"]]
    plt.close("all")


@pytest.mark.parametrize(("windows", "label"), [
    ("1h,2h", "window (rolling)"),
    ("1h,calendar:day", "window (rolling, or calendar in Europe/Berlin)")])
def test_compare_windows_axis_names_calendar_windows_only_when_compared(log, tmp_path, saved,
                                                                        capsys, windows, label):
    assert main(["compare-windows", str(log), "--windows", windows, "--tz", "Europe/Berlin",
                 "--plot", str(tmp_path / "c.png")]) == 0
    capsys.readouterr()
    (fig,) = saved
    (xlabel,) = fig["xlabels"]
    first, span, over = xlabel.splitlines()
    assert first == label
    # the span counted, in --tz: the log's 8 h from 2026-03-02 00:00 UTC (its first event a
    # random draw just after it) are 01:00 .. 09:00 in Berlin (UTC+1 in March before the 29th)
    assert span.startswith("2026-03-02 01:") and " .. 2026-03-02 08:" in span
    assert span.endswith(" Europe/Berlin:")
    assert over == ("each window over the time it held traffic, after its warm-up"
                    + (" (a calendar window has none)" if "calendar" in label else ""))
    plt.close("all")


def test_the_timeline_note_fits_100_columns(log, tmp_path, saved, capsys):
    """The note on stderr naming the groups drawn and --plot-groups was one line of 135 columns
    (before cli55); it is filled to 100 as the "how it was read" block above it. Warnings stay
    one line each (none here)."""
    assert main(["replay", str(log), "--by", "key", "--window", "1h", "--plot",
                 str(tmp_path / "t.png")]) == 0
    err = capsys.readouterr().err
    note = err[err.index("budgetlab: note: the timeline shows"):].splitlines()
    assert [len(line) > 100 for line in note] == [False, False]
    assert " ".join(" ".join(note).split()) == (
        f"budgetlab: note: the timeline shows {MAX_DRAWN} of 8 groups: the most failures first, "
        "then the most events (--plot-groups chooses them by name).")
    assert [line for line in err.splitlines() if len(line) > 100] == []
