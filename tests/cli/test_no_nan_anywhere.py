"""No ``nan``/``NaN``/``NaT`` in any CLI text output (issue 28, point 4).

Every command ``budgetlab --help`` lists runs on a thin, silent, hand-made log: a busy group with
a nine-month silence, a group of two events, a lone failure, a group of a few events each more
than a window apart. A figure that does not exist must be said in words or left blank. The
command list is read from the parser, so a new command without a case here fails the test.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from budgetlab.cli import main
from budgetlab.cli.app import build_parser

NAN = re.compile(r"\b(nan|NaN|NaT)\b")
T0 = pd.Timestamp("2026-01-05 00:00", tz="UTC")


def _thin_silent_log() -> pd.DataFrame:
    rng = np.random.default_rng(28)
    parts = []
    for day in (0, 1, 275):  # two busy days, nine months of silence, one more day
        ts = T0 + pd.Timedelta(days=day) + pd.to_timedelta(np.arange(0, 1440, 2), unit="min")
        parts.append(pd.DataFrame({"ts": ts, "kind": "busy"}))
    parts.append(pd.DataFrame({"ts": [T0 + pd.Timedelta(hours=5), T0 + pd.Timedelta(hours=6)],
                               "kind": "pair"}))
    parts.append(pd.DataFrame({"ts": [T0 + pd.Timedelta(days=1, hours=3)], "kind": "lone"}))
    parts.append(pd.DataFrame({"ts": [T0 + pd.Timedelta(days=d, hours=9) for d in (0, 3, 40, 200,
                                                                                   275)],
                               "kind": "quiet"}))
    df = pd.concat(parts, ignore_index=True).sort_values("ts", kind="stable").reset_index(drop=True)
    fail = rng.random(len(df)) < 0.1
    fail[df["kind"].eq("lone").to_numpy()] = True
    df["ok"] = ~fail
    df["bucket"] = np.where(fail, np.where(rng.random(len(df)) < 0.5, "timeout", "solve_error"),
                            "success")
    df["duration_ms"] = np.round(rng.lognormal(8.5, 0.8, len(df)))  # for the latency command
    df["ts"] = df["ts"].dt.strftime("%Y-%m-%dT%H:%M:%SZ")
    return df


INCIDENTS = """incident_id,start,end,scope,kind
busy-dip,2026-01-05T10:00:00Z,2026-01-05T11:00:00Z,kind=busy,outage
silent,2026-05-01T00:00:00Z,2026-05-01T02:00:00Z,kind=quiet,outage
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("thin")
    log = d / "log.csv"
    _thin_silent_log().to_csv(log, index=False)
    inc = d / "incidents.csv"
    inc.write_text(INCIDENTS)
    return {"dir": d, "log": str(log), "incidents": str(inc)}


READ = ["--ok", "ok", "--bucket", "bucket", "--by", "kind", "--target", "0.95", "--window", "1h"]
#: READ for the commands that replay no tracker under the SLO's window (they refuse --window)
NO_WINDOW = READ[:-2]


def _cases(f: dict) -> dict[str, list[list[str]]]:
    d = f["dir"]
    return {
        "demo": [["demo"]],
        "replay": [["replay", f["log"], *READ]],
        "recalibrate": [["recalibrate", f["log"], *READ, "--n-boot", "40", "--out",
                         str(d / "rec.csv"), "--force"]],
        "compare-windows": [["compare-windows", f["log"], *NO_WINDOW, "--windows", "1h,24h",
                             "--incidents", f["incidents"]]],
        "buckets": [["buckets", f["log"], *READ]],
        "incident": [["incident", f["log"], *READ, "--incidents", f["incidents"], "--id",
                      "busy-dip"]],
        "alerts": [["alerts", f["log"], *NO_WINDOW, "--incidents", f["incidents"]]],
        "latency": [["latency", f["log"], "--ok", "ok", "--bucket", "bucket", "--by", "kind",
                     "--duration",
                     "duration_ms", "--duration-unit", "ms", "--thresholds", "2s,5s,10s",
                     # a client timeout above the log's slowest success (93 s): a shorter one
                     # is refused, the log contradicts it
                     "--timeouts", "5s,10s", "--client-timeout", "120s"]],
        "export": [["export", "openslo", "--target", "0.95", str(d / "slo.yaml"), "--force"],
                   ["export", "prometheus", "--target", "0.95", "--policy", "workbook",
                    "--total-metric",
                    "jobs_total", "--errors-metric", "job_errors_total", str(d / "rules.yaml"),
                    "--force"]],
    }


def _commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return sorted(sub.choices)


def test_every_command_has_a_case(files):
    covered = set(_cases(files)) | {"backtest", "notebooks"}  # both below, with their own inputs
    assert set(_commands()) <= covered, set(_commands()) - covered


@pytest.mark.parametrize("command", ["demo", "replay", "recalibrate", "compare-windows", "buckets",
                                     "incident",
                                     "alerts", "latency", "export"])
def test_no_nan_in_the_text(files, command, capsys):
    if command == "export":  # the recalibration table it reads
        assert main(_cases(files)["recalibrate"][0]) == 0
        capsys.readouterr()
    for argv in _cases(files)[command]:
        rc = main(argv)
        out = capsys.readouterr()
        text = out.out + out.err
        assert rc == 0, (argv, out.err)
        found = sorted({m.group(0) for m in NAN.finditer(text)})
        lines = [ln for ln in text.splitlines() if NAN.search(ln)][:5]
        assert not found, (argv[:1], found, lines)


def test_an_incident_in_a_silence_is_refused_in_one_line(files, capsys):
    # the incident lies in the nine months without events: one line saying so, exit 2
    rc = main(["incident", files["log"], *READ, "--incidents", files["incidents"], "--id",
               "silent"])
    err = capsys.readouterr().err
    assert rc == 2 and "no traffic in scope 'kind=quiet' in the report window (" in err
    assert "): the log in scope 'kind=quiet' is silent from" in err
    assert "nothing to report there" in err and "move --start, --end or --context to" in err
    assert "Traceback" not in err and not NAN.search(err)


def test_export_of_a_recalibration_with_withheld_groups_refuses_in_one_line(files, tmp_path,
                                                                            capsys):
    # thin groups have no recommended target (left blank in the table); here every group is
    # thin: exporting refuses, naming them and why, never writes an SLO with a made-up target
    # (groups with a target are exported without the others: tests/interop/test_openslo_groups.py)
    assert main(_cases(files)["recalibrate"][0]) == 0
    capsys.readouterr()
    rc = main(["export", "openslo", "--from-recalibration", str(files["dir"] / "rec.csv"), "--by",
               "kind",
               str(tmp_path / "rec_slo.yaml")])
    err = capsys.readouterr().err
    assert rc == 2 and not NAN.search(err)
    # busy's evaluated span is its last day in the history: 00:00 .. 23:58 less the 1 h warm-up
    assert ("no group of the recalibration table has a recommended_target: busy (22 h 58 min of "
            "evaluated time") in err
    assert err.count("budgetlab: error:") == 1
    assert not (tmp_path / "rec_slo.yaml").exists()


def test_backtest_on_thin_silent_counters(tmp_path, capsys):
    """``backtest`` reads Prometheus, not a log: a real server holding thin counters (a region
    with traffic in 3 minutes of 2 days, one that never has any) must print no nan either."""
    from tests.interop.prometheus_server import (
        MINUTES,
        PrometheusServer,
        SeriesCounts,
        openmetrics,
        prometheus_binaries,
    )

    if prometheus_binaries() is None:
        pytest.skip("needs the prometheus and promtool binaries on PATH (Debian package "
                    "'prometheus')")
    n_thin = np.zeros(MINUTES, dtype=np.int64)
    n_thin[[100, 101, 2500]] = [3, 2, 1]
    e_thin = np.zeros(MINUTES, dtype=np.int64)
    e_thin[101] = 1
    zero = np.zeros(MINUTES, dtype=np.int64)
    counts = [SeriesCounts({"region": "thin", "instance": "a"}, n_thin, e_thin),
              SeriesCounts({"region": "silent", "instance": "a"}, zero, zero)]
    inc = tmp_path / "inc.csv"
    inc.write_text(
        "incident_id,start,end,scope,kind\nx,2026-01-05T01:30:00Z,2026-01-05T02:00:00Z,region=thin,outage\n"
    )
    with PrometheusServer(openmetrics(counts)) as url:
        rc = main(["backtest", "--prometheus", url, "--total", "app_requests_total", "--errors",
                   "app_request_errors_total", "--by", "region", "--target", "0.99", "--policy",
                   "workbook,pyrra",
                   "--start", "2026-01-05", "--end", "2026-01-07", "--incidents", str(inc)])
    out = capsys.readouterr()
    text = out.out + out.err
    assert rc == 0, out.err
    found = sorted({m.group(0) for m in NAN.finditer(text)})
    assert not found, (found, [ln for ln in text.splitlines() if NAN.search(ln)][:5])


def test_notebooks_on_the_thin_silent_log(files, tmp_path, capsys):
    """``notebooks`` executes a shipped notebook on the thin log (the outcome column the notebooks
    read, ``outcome``); what the command prints holds no nan. One notebook, the recalibration's:
    every notebook runs on other data in tests/test_installed_wheel.py and
    tests/analyses/test_notebooks_edge_data.py."""
    log = tmp_path / "log.csv"
    df = _thin_silent_log()
    df["outcome"] = df.pop("bucket")
    df.drop(columns="ok").to_csv(log, index=False)
    rc = main(["notebooks", "--html", str(tmp_path / "html"), "--notebooks",
               "01_recalibrate_slo.ipynb",
               "-p", f"source={log}", "-p", "by=kind", "-p", "incidents=None", "-p",
               "proposed=None"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert not NAN.search(out.out + out.err)
    assert (tmp_path / "html" / "01_recalibrate_slo.html").exists()
