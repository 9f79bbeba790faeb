"""``python -m budgetlab.cli``: the console script."""

from .main import main

raise SystemExit(main())
