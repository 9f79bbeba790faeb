"""Adversarial suite, outputs (issue 15, "Data loss" and "Outputs"): no output may replace a file
read in the same run (under any name, with or without --force), two outputs of one run may not
share a file, special files are never replaced, empty and over-long names are refused before the
work, and the plot format follows the suffix. Each case asserts the exit code, the one-line
message, that every input is byte-identical and that nothing (no temporary file) is left behind.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.adversarial.harness import Case, run_case
from tests.interop.app_specs import SLOTH

# an OpenSLO v1 SLO as `budgetlab export openslo --target 0.99 --window 1d` writes it
SLO_YAML = b"""\
apiVersion: openslo/v1
kind: SLO
metadata:
  name: slo
  annotations:
    budgetlab/window: 1d
spec:
  service: budgetlab
  indicator:
    metadata:
      name: slo-events
    spec:
      ratioMetric:
        counter: false
        good:
          metricSource:
            type: budgetlab
            spec:
              events: ok
        total:
          metricSource:
            type: budgetlab
            spec:
              events: all
  timeWindow:
  - duration: 30d
    isRolling: true
  budgetingMethod: Occurrences
  objectives:
  - target: 0.99
"""
# a Sloth spec with Prometheus queries, as `budgetlab backtest --slo` reads them
SLOTH_YAML = SLOTH.encode()
# the shape budgetlab.recalibrate returns: group keys + recommended_target (+ other figures)
REC_CSV = (b"captcha_type,events,success_rate,recommended_target\n"
           b"recaptcha_v2,1000,0.95,0.93\nturnstile,500,0.985,0.97\n")
LOG_CSV = b"ts,outcome\n" + b"".join(
    f"2026-11-29T{h:02d}:{m:02d}:00Z,{'success' if (h * 60 + m) % 7 else 'timeout'}\n".encode()
    for h in range(0, 6) for m in range(0, 60, 5))
# backtest refuses its outputs before it asks the server (nothing listens on port 9 here: a
# case that got as far as the work would fail with a connection error instead)
BACKTEST = ["backtest", "--prometheus", "http://127.0.0.1:9", "--total", "t_total", "--errors",
            "e_total",
            "--target", "0.99", "--policy", "workbook", "--since", "1h", "--end",
            "2026-11-29T06:00:00Z"]
LONG_OK = "a" * 250 + ".yaml"  # 255 bytes: allowed; its temporary name must stay short
TOO_LONG = "a" * 300 + ".yaml"


def _fifo(name: str):
    def make(folder: Path) -> None:
        os.mkfifo(folder / name)
    return make


def _symlink(name: str, to: str):
    def make(folder: Path) -> None:
        os.symlink(folder / to, folder / name)
    return make


def _hardlink(name: str, to: str):
    def make(folder: Path) -> None:
        os.link(folder / to, folder / name)
    return make


def _folder(name: str):
    def make(folder: Path) -> None:
        (folder / name).mkdir()
    return make


INPUT = ("is an input",)
CASES = [
    # the four --force paths of the issue: an input overwritten
    Case(
        "export-openslo-from-is-out",
        ["export", "openslo", "--from", "slo.yaml", "slo.yaml", "--force"],
        {"slo.yaml": SLO_YAML},
        needles=INPUT,
    ),
    Case(
        "export-openslo-from-name-is-out",
        ["export", "openslo", "--from", "slo.yaml#slo", "slo.yaml", "--force"],
        {"slo.yaml": SLO_YAML},
        needles=INPUT,
    ),
    Case(
        "export-prometheus-slo-is-out",
        [
            "export",
            "prometheus",
            "--slo",
            "slo.yaml",
            "--policy",
            "workbook",
            "slo.yaml",
            "--force",
        ],
        {"slo.yaml": SLO_YAML},
        needles=INPUT,
    ),
    Case(
        "replay-slo-is-plot",
        ["replay", "log.csv", "--slo", "slo.yaml", "--plot", "slo.yaml", "--force"],
        {"log.csv": LOG_CSV, "slo.yaml": SLO_YAML},
    ),
    Case(
        "export-openslo-recalibration-is-out",
        [
            "export",
            "openslo",
            "--from-recalibration",
            "rec.csv",
            "--by",
            "captcha_type",
            "rec.csv",
            "--force",
        ],
        {"rec.csv": REC_CSV},
        needles=INPUT,
    ),
    # the same input under other names
    Case(
        "out-symlink-to-input",
        ["export", "openslo", "--from", "slo.yaml", "link.yaml", "--force"],
        {"slo.yaml": SLO_YAML, "link.yaml": _symlink("link.yaml", "slo.yaml")},
        needles=INPUT,
    ),
    Case(
        "out-hardlink-to-input",
        ["export", "openslo", "--from", "slo.yaml", "same.yaml", "--force"],
        {"slo.yaml": SLO_YAML, "same.yaml": _hardlink("same.yaml", "slo.yaml")},
        needles=INPUT,
    ),
    Case(
        "out-dotdot-to-input",
        ["export", "openslo", "--from", "slo.yaml", "sub/../slo.yaml", "--force"],
        {"slo.yaml": SLO_YAML, "sub": _folder("sub")},
        needles=INPUT,
    ),
    Case(
        "out-absolute-vs-relative-input",
        ["export", "openslo", "--from", "{d}/slo.yaml", "slo.yaml", "--force"],
        {"slo.yaml": SLO_YAML},
        needles=INPUT,
    ),
    Case(
        "out-symlink-to-recalibration",
        [
            "export",
            "openslo",
            "--from-recalibration",
            "rec.csv",
            "--by",
            "captcha_type",
            "r.yaml",
            "--force",
        ],
        {"rec.csv": REC_CSV, "r.yaml": _symlink("r.yaml", "rec.csv")},
        needles=INPUT,
    ),
    Case(
        "backtest-slo-is-out",
        [*BACKTEST[:3], "--slo", "sloth.yaml", "--policy", "workbook", "--out", "s.csv", "--force"],
        {"sloth.yaml": SLOTH_YAML, "s.csv": _symlink("s.csv", "sloth.yaml")},
        needles=INPUT,
    ),
    Case(
        "backtest-slo-is-plot",
        [
            *BACKTEST[:3],
            "--slo",
            "sloth.yaml#availability",
            "--policy",
            "workbook",
            "--plot",
            "s.png",
            "--force",
        ],
        {"sloth.yaml": SLOTH_YAML, "s.png": _hardlink("s.png", "sloth.yaml")},
        needles=INPUT,
    ),
    Case(
        "backtest-incidents-is-out",
        [*BACKTEST, "--incidents", "inc.csv", "--out", "inc.csv", "--force"],
        {"inc.csv": b"incident_id,start,end\ni1,2026-11-29T01:00:00Z,2026-11-29T02:00:00Z\n"},
        needles=INPUT,
    ),
    # two outputs of one run on one file
    Case(
        "replay-out-is-plot",
        ["replay", "log.csv", "--out", "x.png", "--plot", "x.png"],
        {"log.csv": LOG_CSV},
    ),
    Case(
        "replay-out-is-plot-force",
        ["replay", "log.csv", "--out", "x.png", "--plot", "x.png", "--force"],
        {"log.csv": LOG_CSV},
    ),
    Case(
        "backtest-plot-links-to-out",
        [*BACKTEST, "--out", "ep.csv", "--plot", "p.png", "--force"],
        {"ep.csv": b"old\n", "p.png": _symlink("p.png", "ep.csv")},
        needles=("same file",),
    ),
    Case(
        "backtest-plot-is-out-in-folder",
        [*BACKTEST, "--out", "res", "--plot", "res/bins.csv.png", "--force"],
        {
            "res/bins.csv": b"old\n",
            "res/bins.csv.png": _hardlink("res/bins.csv.png", "res/bins.csv"),
        },
        needles=("same file",),
    ),
    # special files are never replaced, not even with --force
    Case(
        "export-out-fifo-force",
        ["export", "openslo", "--target", "0.99", "fifo.yaml", "--force"],
        {"fifo.yaml": _fifo("fifo.yaml")},
        needles=("FIFO",),
    ),
    Case(
        "export-out-symlink-to-fifo-force",
        ["export", "prometheus", "--target", "0.99", "--policy", "workbook", "l.yaml", "--force"],
        {"fifo": _fifo("fifo"), "l.yaml": _symlink("l.yaml", "fifo")},
        needles=("FIFO",),
    ),
    Case(
        "replay-out-fifo-force",
        ["replay", "log.csv", "--out", "fifo.csv", "--force"],
        {"log.csv": LOG_CSV, "fifo.csv": _fifo("fifo.csv")},
        needles=("FIFO",),
    ),
    # empty names: refused, not silently ignored
    Case("export-out-empty", ["export", "openslo", "--target", "0.99", ""], needles=("empty",)),
    Case(
        "replay-out-empty",
        ["replay", "log.csv", "--out", ""],
        {"log.csv": LOG_CSV},
        needles=("empty",),
    ),
    Case(
        "replay-plot-empty",
        ["replay", "log.csv", "--plot", ""],
        {"log.csv": LOG_CSV},
        needles=("empty",),
    ),
    Case("backtest-out-empty", [*BACKTEST, "--out", ""], needles=("empty",)),
    Case("notebooks-html-empty", ["notebooks", "--html", ""], needles=("empty",)),
    # long names: a name the file system takes is written (short temporary name), a longer one is
    # refused before the work
    Case(
        "export-250-character-name",
        ["export", "openslo", "--target", "0.99", LONG_OK],
        exit=0,
        allowed_new=(LONG_OK,),
    ),
    Case(
        "export-name-too-long",
        ["export", "openslo", "--target", "0.99", TOO_LONG],
        needles=("shorter name",),
    ),
    Case(
        "backtest-plot-name-too-long",
        [*BACKTEST, "--plot", "p" * 300 + ".png"],
        needles=("shorter name",),
    ),
    Case(
        "replay-out-name-too-long",
        ["replay", "log.csv", "--out", "o" * 300 + ".csv"],
        {"log.csv": LOG_CSV},
        needles=("shorter name",),
    ),
    # the plot format follows the suffix or is refused before the work
    Case("backtest-plot-jpg", [*BACKTEST, "--plot", "x.jpg"], needles=(".png", ".svg", ".pdf")),
    Case(
        "replay-plot-jpg",
        ["replay", "log.csv", "--plot", "x.jpg"],
        {"log.csv": LOG_CSV},
        needles=(".png", ".svg", ".pdf"),
    ),
    # bad values are refused before the work, personal names never reach an output
    Case(
        "backtest-grace-before-work",
        [*BACKTEST, "--incidents", "inc.csv", "--grace", "soon"],
        {"inc.csv": b"incident_id,start,end\ni1,2026-11-29T01:00:00Z,2026-11-29T02:00:00Z\n"},
        needles=("--grace",),
    ),
    Case(
        "export-personal-name",
        ["export", "openslo", "--target", "0.99", "--name", "ivan@example.org", "o.yaml"],
        needles=("personal data",),
        forbidden=("ivan@example.org",),
    ),
    Case(
        "export-personal-service",
        [
            "export",
            "prometheus",
            "--target",
            "0.99",
            "--policy",
            "workbook",
            "--service",
            "+7 (495) 123-45-67",
            "o.yaml",
        ],
        needles=("personal data",),
        forbidden=("123-45-67",),
    ),
    # folders and files that are not there
    Case(
        "backtest-out-missing-folder", [*BACKTEST, "--out", "nowhere"],
        needles=("--out: folder 'nowhere' does not exist",)
    ),
    Case(
        "notebooks-missing-folder",
        ["notebooks", "--notebooks", "missing", "--html", "html"],
        needles=("missing: no such file; give --notebooks DIR or a .ipynb file.",),
    ),
    Case(
        "notebooks-html-is-a-file",
        ["notebooks", "--notebooks", "nb", "--html", "h"],
        {
            "nb/a.ipynb": b'{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}',
            "h": b"x",
        },
        needles=("--html takes a folder",),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_output_case(case, tmp_path, capsys, monkeypatch):
    run_case(case, tmp_path, capsys, monkeypatch)


@pytest.mark.parametrize(("suffix", "magic"), [(".pdf", b"%PDF"), (".svg", b"<?xml"), (".png",
                                                                                       b"\x89PNG")])
def test_replay_plot_format_follows_the_suffix(suffix, magic, tmp_path, capsys, monkeypatch):
    name = f"timeline{suffix}"
    case = Case(f"replay-plot{suffix}", ["replay", "log.csv", "--window", "1h", "--plot", name],
                {"log.csv": LOG_CSV},
                exit=0, allowed_new=(name,))
    run_case(case, tmp_path, capsys, monkeypatch)
    data = (tmp_path / "case" / name).read_bytes()
    assert data.startswith(magic)
    if suffix == ".svg":
        assert b"<svg" in data[:2000]


def test_a_250_character_output_name_is_written_whole(tmp_path, capsys, monkeypatch):
    case = Case("export-250", ["export", "openslo", "--target", "0.99", LONG_OK], exit=0,
                allowed_new=(LONG_OK,))
    run_case(case, tmp_path, capsys, monkeypatch)
    assert (tmp_path / "case" / LONG_OK).read_text().startswith("apiVersion: openslo/v1")
