"""``python -m budgetlab``: the console script."""

from .cli.main import main

raise SystemExit(main())
