"""Every option of every subcommand is described in docs/cli.md's own words (README: "cli.md covers
every command and option"), not only in the ``--help`` output that the page embeds while the docs
build (the ``cli-help`` directive): a flag that only ``--help`` names is on no page a reader
searches. ``incident --id``, ``incident --breakdown-by``, ``backtest --good``, ``recalibrate
--seed``, ``recalibrate --step`` and ``notebooks --parameter`` were such flags."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from budgetlab.cli.app import build_parser

ROOT = Path(__file__).resolve().parents[2]


def _subparsers(parser: argparse.ArgumentParser, name: str = "budgetlab"):
    """``(command, parser)`` for every subcommand, nested ones too (``export openslo``)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield f"{name} {sub_name}", sub
                yield from _subparsers(sub, f"{name} {sub_name}")


def _long_flags(parser: argparse.ArgumentParser) -> list[str]:
    """The long form of each option (``--parameter`` for ``-p/--parameter``), ``--help`` aside."""
    flags = []
    for action in parser._actions:
        longs = [o for o in action.option_strings if o.startswith("--")]
        if longs and longs[0] != "--help":
            flags.append(longs[0])
    return flags


def _prose(page: Path) -> str:
    """The page's text without its ``cli-help`` blocks (those print ``--help`` while building)."""
    return re.sub(r"```\{cli-help\}[^\n]*\n```", "", page.read_text(encoding="utf-8"))


def test_every_option_of_every_subcommand_is_on_the_cli_page() -> None:
    text = _prose(ROOT / "docs" / "cli.md")
    missing = [f"{command} {flag}" for command, sub in _subparsers(build_parser())
               for flag in _long_flags(sub)
               if not re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", text)]
    assert missing == []

