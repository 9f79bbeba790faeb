"""``python -m budgetlab.cli``: the console script."""

from budgetlab.cli import console

raise SystemExit(console())
