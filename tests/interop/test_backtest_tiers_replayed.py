"""Stop 60: with a Sloth spec and ``--policy workbook``, "How it was read" still said "the
alerts: Sloth's tiers (...)" while the workbook's tiers were replayed; a Pyrra spec's tiers and
their ``for:`` (which moves the episodes' starts) were not said at all. Oracle: the tiers written
by hand from the SRE Workbook (ch. 5: 14.4 over 1h/5m, 6 over 6h/30m, 3 over 1d/2h, 1 over 3d/6h)
and from Pyrra's slo/rules.go Windows() scaled to 30 d (period / 28 d, to the minute: 1h4m/5m x14
for 2m, 6h26m/32m x7 for 16m, 1d1h43m/2h9m x2 for 1h4m, 4d6h51m/6h26m x1 for 3h13m)."""

from __future__ import annotations

from budgetlab.cli import main
from tests.interop.app_specs import PYRRA, SLOTH

SPAN = ["--start", "2026-01-05", "--end", "2026-01-07"]


def _read_block(prom, tmp_path, capsys, name, text, *extra):
    (tmp_path / f"{name}.yaml").write_text(text)
    rc = main(["backtest", "--prometheus", prom, "--slo", str(tmp_path / f"{name}.yaml"), *SPAN,
               *extra])
    out = capsys.readouterr()
    assert rc == 0, out.err
    block = out.out.split("How it was read:")[1].split("\nPolicy ")[0]
    return " ".join(block.split())


def test_a_sloth_spec_with_policy_workbook_says_the_workbook_tiers(prom, tmp_path, capsys):
    said = _read_block(prom, tmp_path, capsys, "sloth", SLOTH, "--policy", "workbook")
    assert "Sloth's tiers" not in said
    assert ("the alerts: the tiers of --policy replayed, not the spec's: workbook: page_1h 14.4 "
            "over 1h/5m, page_6h 6 over 6h/30m, ticket_1d 3 over 1d/2h, ticket_3d 1 over 3d/6h"
            ) in said


def test_a_pyrra_spec_says_its_tiers_and_their_for(prom, tmp_path, capsys):
    said = _read_block(prom, tmp_path, capsys, "pyrra", PYRRA)
    assert ("the alerts: the spec's tiers replayed: pyrra_30d: critical_1h4m 14 over 1h4m/5m "
            "(for: 2m), critical_6h26m 7 over 6h26m/32m (for: 16m), warning_1d1h43m 2 over "
            "1d1h43m/2h9m (for: 1h4m), warning_4d6h51m 1 over 4d6h51m/6h26m (for: 3h13m)"
            ) in said
