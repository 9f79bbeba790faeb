"""``budgetlab latency LOG --slo FILE``: the file's target and window give the supported targets,
and ``--slo FILE#NAME`` runs on the events its labels select, as in the other commands. Before
the fix latency had no ``--slo`` flag: argparse read ``--slo`` as an abbreviation of
``--slow-above`` and refused the run ("--slow-above makes slow successes failures ... give
--thresholds") although --thresholds was given and --slow-above was not.

The log (tests/cli/test_latency_cli.py's): a 1, 4, 12 s successes, a 30 s timeout, a 2 s solve
error; b 3, 7 s successes, a 30 s timeout. By hand: within 1 s, all 8 attempts: 1 good (a's 1 s),
12.50 %; b alone within 5 s: 1 good of 3 (3 s), 33.33 %.
"""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main
from tests.group_slos import group_slos

ROWS = [  # (minute, outcome, group, seconds)
    (0, "success", "a", 1.0), (1, "success", "a", 4.0), (2, "success", "a", 12.0),
    (3, "timeout", "a", 30.0), (4, "solve_error", "a", 2.0), (5, "success", "b", 3.0),
    (6, "success", "b", 7.0), (7, "timeout", "b", 30.0),
]



@pytest.fixture
def log(tmp_path):
    path = tmp_path / "log.csv"
    pd.DataFrame({
        "ts": [f"2026-01-01T00:{m:02d}:00Z" for m, _, _, _ in ROWS],
        "outcome": [o for _, o, _, _ in ROWS], "g": [g for _, _, g, _ in ROWS],
        "ms": [s * 1000 for _, _, _, s in ROWS],
    }).to_csv(path, index=False)
    return path


def _run(log, slo, capsys, *more):
    code = main(["latency", str(log), "--duration", "ms", "--duration-unit", "ms", "--slo",
                 str(slo), "--n-boot", "0", *more])
    out, err = capsys.readouterr()
    return code, " ".join(out.split()), " ".join(err.split())


def test_an_exported_slo_file_gives_its_target(log, tmp_path, capsys):
    slo = tmp_path / "slo.yaml"
    assert main(["export", "openslo", str(slo), "--target", "0.93", "--service", "app",
                 "--name", "lat"]) == 0
    capsys.readouterr()
    code, out, err = _run(log, slo, capsys, "--thresholds", "1s")
    assert code == 0, err
    assert "within 1 s: 12.50 % (1 good;" in out
    assert "current SLO: target 0.93," in out  # the file's, compared with the supported ones
    assert "slow-above" not in err


def test_slo_name_selects_the_events_its_labels_name(log, tmp_path, capsys):
    slo = tmp_path / "slos.yaml"
    slo.write_text(group_slos())
    code, out, err = _run(log, f"{slo}#lat-b", capsys, "--thresholds", "5s")
    assert code == 0, err
    assert f"{slo}#lat-b: the events its labels select, g=b: 3 of 8" in out
    assert "3 attempts" in out and "within 5 s: 33.33 % (1 good;" in out
    assert "current SLO: target 0.8," in out


def test_a_latency_slo_file_is_not_a_slow_above(log, tmp_path, capsys):
    """The file's threshold is said, not turned into --slow-above (which would make the 4 s and
    12 s successes failures under the 1 s threshold's shares)."""
    slo = tmp_path / "hist.yaml"
    assert main(["export", "openslo", str(slo), "--target", "0.9", "--service", "app", "--name",
                 "lat", "--histogram", "h", "--slow-above", "1s"]) == 0
    capsys.readouterr()
    code, out, err = _run(log, slo, capsys, "--thresholds", "5s")
    assert code == 0, err
    # a within 5 s: 1 s, 4 s of 8 attempts with b's 3 s: 3 good, 37.50 %
    assert "within 5 s: 37.50 % (3 good;" in out
    assert "hist.yaml is a latency SLO (events within 1 s), not among --thresholds: add 1s" in err
