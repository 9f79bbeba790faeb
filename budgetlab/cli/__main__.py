"""``python -m budgetlab.cli``: the console script."""

from budgetlab.cli import main

raise SystemExit(main())
