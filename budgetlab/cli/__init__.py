"""The ``budgetlab`` command line: one module per group of subcommands, wired explicitly in
:mod:`budgetlab.cli.main`."""

from __future__ import annotations

from .main import build_parser, main

__all__ = ["build_parser", "main"]
