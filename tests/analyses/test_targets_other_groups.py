"""Stop 60 re-check: notebook 02 run on one's own log with ``-p by=svc`` but the default
``targets`` (recaptcha_v2, turnstile, image) refused with "targets names 3 groups that the column
'svc' does not have" and never said how to run on: ``-p targets=None``."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.analyses.history import target_table
from budgetlab.errors import ConfigError


def test_the_refusal_says_how_to_name_no_targets():
    ev = pd.DataFrame({"svc": ["early", "late", "steady"]})
    with pytest.raises(ConfigError) as refused:
        target_table(ev, by="svc", target=0.98, overrides="recaptcha_v2=0.93,turnstile=0.97,"
                     "image=0.88", name="targets")
    assert str(refused.value) == (
        "targets names 3 groups that the column 'svc' does not have (image, recaptcha_v2, "
        "turnstile); use its values: early, late, steady, or name none: targets=None (`-p "
        "targets=None` when running a notebook on a log of other groups).")
    # the fix it names: no targets, every group at the one target (0.98, by hand)
    assert target_table(ev, by="svc", target=0.98, overrides=None,
                        name="targets")["target"].tolist() == [0.98, 0.98, 0.98]
