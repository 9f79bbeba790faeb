import os
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # tests/seed_tracker.py and benchmarks are imported by path
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("TQDM_DISABLE", "1")

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "ci", max_examples=150, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=60, deadline=None, derandomize=True)
settings.load_profile("ci")
