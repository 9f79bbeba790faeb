"""``python -m budgetlab``: the console script."""

from .cli import main

raise SystemExit(main())
