"""How the night_incident preset's seed and severities were chosen (provenance; not needed to
regenerate the data, which only takes ``python -m budgetlab.datasets --preset night_incident
--force``;
the file lives in ``budgetlab/datasets/``).

The story: at 03:47 Europe/Berlin a 1-hour trailing window over reCAPTCHA v2 shows ~94.2 % success
against a 95 % target, while a timeout storm in ``fra`` overlaps a gradual solver degradation.
For each seed: the storm's severity is fra's base failure rate in its window + 3.5 points, the
degradation's severity is set so that the *expected* 1-hour success at 03:47 (the mean of the
events' failure probabilities, given the drawn traffic) is 94.2 %; the first seed whose *drawn*
outcomes also show 94.2 % (rounded to 0.1) is kept. Run: ``python data/tune_night_incident.py``.
"""

from __future__ import annotations

import copy
import inspect

import numpy as np
import pandas as pd

from budgetlab import synth
from budgetlab.events.schema import ts_ns

TARGET = 94.2
ALERT = pd.Timestamp("2026-11-05 03:47", tz=synth.TIME_ZONE).tz_convert("UTC")
DEFAULTS = {k: v.default for k, v in inspect.signature(synth.generate).parameters.items()
            if v.default is not inspect.Parameter.empty}


def run(seed: int, storm: float | None, degradation: float | None):
    args = {**DEFAULTS, **copy.deepcopy(synth.PRESETS["night_incident"]["args"])}
    args.update(seed=seed, session_ids=False)
    if storm is None:
        args["incidents"] = None
    else:
        args["incidents"][0]["severity"] = degradation
        args["incidents"][1]["severity"] = storm
    return synth._generate(**args)


def window(events: pd.DataFrame, a, b) -> np.ndarray:
    return ((events["ts"] >= a) & (events["ts"] < b)).to_numpy()


def trailing(events: pd.DataFrame, p_fail: np.ndarray) -> tuple[float, float, np.ndarray]:
    rc = (events["captcha_type"] == "recaptcha_v2").to_numpy()
    m = rc & ((events["ts"] >= ALERT - pd.Timedelta("1h")) & (events["ts"] <= ALERT)).to_numpy()
    return 100 * events["ok"].to_numpy()[m].mean(), 100 * (1 - p_fail[m].mean()), m


def main() -> None:
    incidents = synth.PRESETS["night_incident"]["args"]["incidents"]
    deg, storm = incidents[0], incidents[1]
    d_start, d_end = pd.Timestamp(deg["start"]), pd.Timestamp(deg["end"])
    plateau = d_start + (d_end - d_start) / 2
    for seed in range(200):
        base_events, _, p0 = run(seed, None, None)
        fra = (base_events["region"] == "fra").to_numpy() & window(base_events,
                                                                   pd.Timestamp(storm["start"]),
                                                                   pd.Timestamp(storm["end"]))
        rc = (base_events["captcha_type"] == "recaptcha_v2").to_numpy() & window(base_events,
                                                                                 plateau, d_end)
        s = round(float(p0[fra].mean()) + 0.035, 3)
        x0 = round(float(p0[rc].mean()) + 0.012, 4)
        events, _, p = run(seed, s, x0)
        _, expected, m = trailing(events, p)
        ts = ts_ns(events)[m]
        ramp = np.clip((ts - d_start.value) / (plateau.value - d_start.value), 0, 1).mean()
        x = round(x0 + (expected - TARGET) / 100 / ramp, 4)
        events, _, p = run(seed, s, x)
        realized, expected, _ = trailing(events, p)
        print(f"seed {seed}: storm {s}, degradation {x}: expected {expected:.3f} %, drawn "
              f"{realized:.3f} %")
        if abs(expected - TARGET) < 0.05 and round(realized, 1) == TARGET:
            print("keep", seed, s, x)
            return


if __name__ == "__main__":
    main()
