"""Each command's ``--show-groups`` help says which file writes every group and what it holds
per group, as that file's own ``--help`` and the command's writer have it (stop 58): every
command said "--out writes every group's row", while ``latency --out`` writes a group's shares
per threshold and ``--freq`` period (no quantile), ``buckets --out`` a row per bucket,
``compare-windows --out`` a row per window and ``incident --tiers-out`` a row per tier and
incident."""

from __future__ import annotations

from budgetlab.cli import main

#: Per command, what its file holds per group (read off each command's writer and the file
#: flag's own help: "write the group x bucket table", "one row per group x tier and incident").
WRITES = {
    "replay": "--summary-out writes every group's row",
    "recalibrate": "--out writes every group's row",
    "compare-windows": "--out writes every group's rows, one per window",
    "buckets": "--out writes every group's rows, one per bucket",
    "incident": "--tiers-out writes every group's rows, one per tier and incident",
    "latency": ("--out writes every group's shares per threshold and --freq period, not its "
                "other figures"),
}


def _show_groups_help(command, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "100")
    assert main([command, "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    start = text.index("--show-groups N with more groups")
    return text[start:text.index(")", text.index("0 shows them all", start)) + 1]


def test_each_command_says_what_its_file_holds_per_group(monkeypatch, capsys):
    said = {c: _show_groups_help(c, monkeypatch, capsys) for c in WRITES}
    assert {c: h.endswith(f"0 shows them all ({WRITES[c]})") for c, h in said.items()} == {
        c: True for c in WRITES}, said
