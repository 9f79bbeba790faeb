"""``--force`` lets an output replace an existing file; given without any output (no ``--out``,
``--plot``, ``--summary-out``, ``--tiers-out``) it would do nothing, and is refused as other
unused flags are (cli/unused_flags.py): exit 2, one line naming the command's output flags,
nothing printed first (not even the note on a latency ``--slo`` file). Before stop 56 every
command took it silently. ``export`` and ``notebooks`` always write (``OUT.yaml``, ``--html``):
their ``--force`` is never refused.

Oracles: the command's output flags, from its ``--help``; the sentence written by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main

SAID = ("budgetlab: error: --force would do nothing: it lets {} replace an existing file, and "
        "this run writes no file; leave it out.\n")
OUT_PLOT = "--out or --plot"


@pytest.fixture
def files(tmp_path):
    """Ten minutes of one success a minute with a duration; one incident over minutes 2..4."""
    ts = pd.date_range("2026-03-02", periods=10, freq="1min", tz="UTC")
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": "success",
                  "dur": 0.5}).to_csv(tmp_path / "log.csv", index=False)
    (tmp_path / "inc.csv").write_text("incident_id,start,end\n"
                                      "A,2026-03-02T00:02:00Z,2026-03-02T00:04:00Z\n")
    return {"log": str(tmp_path / "log.csv"), "inc": str(tmp_path / "inc.csv")}


COMMANDS = {  # command line without an output, the output flags the refusal names
    "demo": (["demo"], OUT_PLOT),
    "replay": (["replay", "LOG"], "--out, --plot or --summary-out"),
    "recalibrate": (["recalibrate", "LOG"], "--out, --plot or --candidates-out"),
    "compare-windows": (["compare-windows", "LOG", "--windows", "1h"], OUT_PLOT),
    "buckets": (["buckets", "LOG"], OUT_PLOT),
    "incident": (["incident", "LOG", "--incidents", "INC"], "--out, --plot or --tiers-out"),
    "alerts": (["alerts", "LOG", "--incidents", "INC"], OUT_PLOT),
    "latency": (["latency", "LOG", "--duration", "dur", "--duration-unit", "s", "--thresholds",
                 "1s"], OUT_PLOT),
    "backtest": (["backtest", "--prometheus", "http://127.0.0.1:9", "--slo", "INC"], OUT_PLOT),
}


@pytest.mark.parametrize("command", COMMANDS)
def test_force_without_an_output_is_refused_before_anything(command, files, capsys):
    argv, flags = COMMANDS[command]
    argv = [files.get(a.lower(), a) for a in argv]
    assert main([*argv, "--force"]) == 2
    assert capsys.readouterr() == ("", SAID.format(flags))


def test_nothing_is_said_of_a_latency_slo_file_first(files, tmp_path, capsys):
    slo = tmp_path / "hist.yaml"
    assert main(["export", "openslo", str(slo), "--target", "0.9", "--service", "app", "--name",
                 "lat", "--histogram", "h", "--slow-above", "1s"]) == 0
    capsys.readouterr()
    argv = ["latency", files["log"], "--duration", "dur", "--duration-unit", "s", "--thresholds",
            "5s", "--slo", str(slo), "--n-boot", "0"]
    assert main([*argv, "--force"]) == 2
    assert capsys.readouterr() == ("", SAID.format(OUT_PLOT))
    assert main(argv) == 0  # without --force the run says the note
    assert "hist.yaml is a latency SLO" in " ".join(capsys.readouterr().err.split())


def test_force_is_refused_only_without_an_output(files, tmp_path, capsys):
    summary, tiers, slo = tmp_path / "summary.csv", tmp_path / "tiers.csv", tmp_path / "slo.yaml"
    for path in (summary, tiers, slo):
        path.write_text("old\n")
    assert main(["replay", files["log"], "--force"]) == 2
    assert capsys.readouterr().err == SAID.format("--out, --plot or --summary-out")
    # any one output takes it, --summary-out and --tiers-out as --out and --plot
    assert main(["replay", files["log"], "--summary-out", str(summary), "--force"]) == 0
    assert main(["incident", files["log"], "--incidents", files["inc"], "--tiers-out", str(tiers),
                 "--force"]) == 0
    assert summary.read_text() != "old\n" and tiers.read_text() != "old\n"
    # export always writes OUT.yaml: its --force always applies
    assert main(["export", "openslo", "--target", "0.9", str(slo), "--force"]) == 0
    assert "target: 0.9" in slo.read_text()
    capsys.readouterr()
