"""``budgetlab demo --help`` states the demo's own defaults: its per-type targets (recaptcha_v2
0.93, turnstile 0.97, image 0.88, docs/cli.md and the demo's run header) by captcha_type, the
--by it uses when none is given, not the 0.95 of the other commands (stop 58: it said "target
success rate (default: 0.95)", and no default for --by)."""

from __future__ import annotations

from budgetlab.cli import main


def _help(capsys, command: str) -> str:
    assert main([command, "--help"]) == 0
    return " ".join(capsys.readouterr().out.split())  # argparse's wrapping undone


def test_demo_help_names_its_per_type_targets_and_by(capsys) -> None:
    text = _help(capsys, "demo")
    assert ("--target TARGET|GROUP=TARGET,... target success rate (default: the demo's per-type "
            "targets recaptcha_v2=0.93,turnstile=0.97,image=0.88 by captcha_type; 0.95 under "
            "another --by)") in text
    assert "(e.g. captcha_type,region) (default: captcha_type)" in text
    assert "(default: 0.95)" not in text
    # the other commands keep the common default
    other = _help(capsys, "replay")
    assert "target success rate (default: 0.95)" in other
    assert "(default: captcha_type)" not in other
