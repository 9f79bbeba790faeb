"""Stop 60: ``export prometheus`` of a Sloth or Pyrra spec said "period 30 days ..., also the
tracker window", though the rules it writes have no tracker window (docs/interop.md). Oracle: the
notes of the two specs written by hand, without the tracker's words."""

from __future__ import annotations

from budgetlab.cli import main
from tests.interop.app_specs import PYRRA, SLOTH


def test_export_prometheus_says_no_tracker_window(tmp_path, capsys):
    for name, text, note in (("sloth", SLOTH, "  Sloth prometheus/v1: period 30 days (Sloth's "
                                                 "default)"),
                             ("pyrra", PYRRA, "  Pyrra: period = window 30d")):
        (tmp_path / f"{name}.yaml").write_text(text)
        assert main(["export", "prometheus", "--slo", str(tmp_path / f"{name}.yaml"),
                     str(tmp_path / f"{name}_rules.yaml")]) == 0
        out = capsys.readouterr().out
        assert note in out.splitlines(), out
        assert "tracker" not in out
