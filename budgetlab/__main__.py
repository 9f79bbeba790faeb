"""``python -m budgetlab``: the console script."""

from .cli import console

raise SystemExit(console())
