"""``budgetlab recalibrate``, ``compare-windows``, ``buckets``, ``incident`` and ``alerts``: every
analysis from the command line, with the input flags of ``replay``."""

from __future__ import annotations

from typing import Any

__all__ = ["add_parser"]


def add_parser(subparsers: Any) -> None:
    """Register the analysis subcommands."""
