"""Hand-built spans for the timeline tests: the figures :func:`budgetlab.status_spans` gives each
span (what the timeline's lines read on the window's clock), chosen to agree with the status
for a 75 % target (allowed: 25 failures in 100 events)."""

import pandas as pd

# status -> (total, failures, burn_rate, remaining_fraction): remaining = 1 - failures / 25
FIGURES = {"healthy": (100, 0, 0.0, 1.0), "warning": (100, 15, 0.6, 0.4),
           "critical": (100, 24, 0.96, 0.04), "exhausted": (100, 30, 1.2, -0.2),
           "no_traffic": (0, 0, 0.0, 1.0)}


def with_figures(spans: pd.DataFrame) -> pd.DataFrame:
    """``spans`` (``start``, ``end``, ``status``) with ``total``, ``failures``, ``burn_rate`` and
    ``remaining_fraction`` of its status."""
    rows = [FIGURES[str(s)] for s in spans["status"]]
    names = ["total", "failures", "burn_rate", "remaining_fraction"]
    out = spans.assign(**{n: [r[k] for r in rows] for k, n in enumerate(names)})
    out.attrs["steps"] = True  # each row the window's figures over it: steps, as the lines need
    return out
