"""The "how it was read" block spells the slow_above threshold as prose spells every duration
(``60 ms``, ``1.5 s``, ``90 min``: a duration under a second in milliseconds), not as the compact
label ``60ms`` (expected texts written by hand)."""

import pandas as pd
import pytest

from budgetlab import how_read, read_events


@pytest.mark.parametrize(("slow_above", "said"), [("60ms", "60 ms"), ("2s", "2 s"),
                                                  ("90min", "90 min"), ("1500ms", "1.5 s")])
def test_the_threshold_is_spelled_in_prose(slow_above, said):
    raw = pd.DataFrame({"ts": ["2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z",
                               "2026-01-01T00:02:00Z"],
                        "outcome": ["success", "success", "success"], "d": ["50ms", "3h", "4h"]})
    how = how_read(read_events(raw, duration="d", slow_above=slow_above))
    assert f"  latency: successes slower than {said} counted as failures in bucket 'slow': 2 " \
           "rows" in str(how)
