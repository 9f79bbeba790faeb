"""The generator's model of the sample domain: captcha types, worker regions, local time,
default rates, sitekey ids, and each minute's traffic rate and base outcome probabilities.

See :mod:`budgetlab.datasets.synth` for the model in words; :class:`MinuteModel` computes it.
"""

from __future__ import annotations

import hashlib
import math

import numpy as np
import numpy.typing as npt
import pandas as pd

from .._util.units import DAY_NS, MINUTE_NS
from .._util.validation import check_whole
from ..errors import ConfigError

__all__ = [
    "CAPTCHA_TYPES",
    "REGIONS",
    "TIME_ZONE",
    "DEFAULT_SUCCESS",
    "DEFAULT_TYPE_SHARE",
    "DEFAULT_REGION_SHARE",
    "FloatArray",
    "IntArray",
    "sitekeys",
    "MinuteModel",
]

CAPTCHA_TYPES = ("recaptcha_v2", "turnstile", "image")
REGIONS = ("fra", "ams")
#: Local time of the sample domain (workers in Frankfurt and Amsterdam); data is stored in UTC.
TIME_ZONE = "Europe/Berlin"

#: Traffic-weighted mean success rate per type (incidents aside).
DEFAULT_SUCCESS = {"recaptcha_v2": 0.94, "turnstile": 0.98, "image": 0.90}
DEFAULT_TYPE_SHARE = {"recaptcha_v2": 0.5, "turnstile": 0.3, "image": 0.2}
DEFAULT_REGION_SHARE = {"fra": 0.6, "ams": 0.4}
#: Night amplitude of the timeout probability (log scale) per region: Amsterdam's users are more
# mobile.
_TIMEOUT_NIGHT = {"fra": 0.5, "ams": 0.7}
_PEAK_HOUR = 15.0  # traffic peak, local time; the trough is 12 h away (03:00)
_TIMEOUT_PEAK_HOUR = 3.0  # timeouts peak at night

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def sitekeys(per_type: int = 4) -> dict[str, list[str]]:
    """The opaque sitekey ids of each captcha type, most used first (independent of the seed).

    >>> sitekeys(2)["image"]
    ['sk_9570ebfd', 'sk_ff99f493']
    """
    per_type = check_whole("sitekeys_per_type", per_type, low=1, high=50)
    return {
        t: [
            "sk_" + hashlib.sha256(f"budgetlab/{t}/{j}".encode()).hexdigest()[:8]
            for j in range(per_type)
        ]
        for t in CAPTCHA_TYPES
    }


class MinuteModel:
    """Per-minute rates and base probabilities of one generated span."""

    def __init__(
        self,
        start_ns: int,
        span_ns: int,
        *,
        rate: float,
        success: FloatArray,
        timeout_rate: float,
        type_share: FloatArray,
        region_share: FloatArray,
        night_ratio: float,
        weekend_ratio: float,
        drift: float,
        bursts_per_day: float,
        rng_timeouts: np.random.Generator,
        rng_drift: np.random.Generator,
    ) -> None:
        self.start_ns = start_ns
        self.end_ns = start_ns + span_ns
        n_min = -(-span_ns // MINUTE_NS)
        self.minute_start = start_ns + np.arange(n_min, dtype=np.int64) * MINUTE_NS
        self.exposure_ns = np.minimum(MINUTE_NS, self.end_ns - self.minute_start)
        mid = self.minute_start + self.exposure_ns // 2
        local = pd.DatetimeIndex(pd.to_datetime(mid, unit="ns", utc=True)).tz_convert(TIME_ZONE)
        hour = np.asarray(local.hour + local.minute / 60.0 + local.second / 3600.0,
                          dtype=np.float64)
        weekend = np.asarray(local.day_of_week >= 5)
        days = (mid - start_ns) / DAY_NS

        # traffic: log-rate A*cos(2 pi (h - 15)/24), so rate(03:00)/rate(15:00) = exp(-2A) =
        # night_ratio
        amp = -math.log(night_ratio) / 2.0
        shape = np.exp(amp * np.cos(2 * np.pi * (hour - _PEAK_HOUR) / 24.0)) * np.where(
            weekend, weekend_ratio, 1.0
        )
        expo_s = self.exposure_ns / 1e9
        shape = shape * (span_ns / 1e9) / float(np.sum(shape * expo_s))  # exposure-weighted mean 1
        self.total_rate = rate * shape  # events per second, all groups
        self.type_share = type_share
        self.region_share = region_share
        weight = self.total_rate * expo_s  # expected events per minute (traffic weight)

        self.p_timeout = _timeout_probabilities(hour, expo_s, weight, span_ns,
                                                timeout_rate=timeout_rate,
                                                bursts_per_day=bursts_per_day, rng=rng_timeouts)
        self.p_solve = _solve_probabilities(days, weight, success, timeout_rate=timeout_rate,
                                            drift=drift,
                                            rng=rng_drift)

    @property
    def n_minutes(self) -> int:
        return len(self.minute_start)

    def group_rate(self) -> FloatArray:
        """Events per second per group (type-major: g = type * n_regions + region) and minute."""
        share = (self.type_share[:, None] * self.region_share[None, :]).ravel()
        return share[:, None] * self.total_rate[None, :]

    def mean_base_failure(self, types: npt.NDArray[np.bool_], regions: npt.NDArray[np.bool_],
                          a: int, b: int) -> float:
        """Expected failure rate of the scope (no incidents) over ``[a, b)``, traffic-weighted."""
        overlap = np.clip(
            np.minimum(b, self.minute_start + self.exposure_ns) - np.maximum(a, self.minute_start),
            0,
            None,
        )
        num = 0.0
        den = 0.0
        for t in np.flatnonzero(types):
            for r in np.flatnonzero(regions):
                w = self.type_share[t] * self.region_share[r] * self.total_rate * overlap
                num += float(np.sum(w * (self.p_timeout[r] + self.p_solve[t])))
                den += float(np.sum(w))
        if den <= 0:
            raise ConfigError("an incident's scope and time range hold no traffic; widen it or "
                              "move it inside the span.")
        return num / den


def _timeout_probabilities(hour: FloatArray, expo_s: FloatArray, weight: FloatArray, span_ns: int,
                           *,
                           timeout_rate: float, bursts_per_day: float,
                           rng: np.random.Generator) -> FloatArray:
    """Timeouts per region and minute: a night bump plus bursts, traffic-weighted mean =
    ``timeout_rate``."""
    n_min = len(hour)
    p_to = np.empty((len(REGIONS), n_min))
    for r, region in enumerate(REGIONS):
        bump = np.exp(
            _TIMEOUT_NIGHT[region] * np.cos(2 * np.pi * (hour - _TIMEOUT_PEAK_HOUR) / 24.0)
        )
        n_b = int(rng.poisson(bursts_per_day * span_ns / DAY_NS))
        diff = np.zeros(n_min + 1)
        if n_b:
            prob = bump * expo_s
            starts = rng.choice(n_min, size=n_b, p=prob / prob.sum())
            lengths = 1 + rng.geometric(1 / 6.0, size=n_b)  # >= 2 minutes, mean 7
            heights = rng.uniform(0.02, 0.08, size=n_b)
            np.add.at(diff, starts, heights)
            np.add.at(diff, np.minimum(starts + lengths, n_min), -heights)
        bursts = np.cumsum(diff)[:n_min]
        scale = (timeout_rate * weight.sum() - float(np.sum(weight * bursts))) / float(
            np.sum(weight * bump)
        )
        if scale < 0:
            raise ConfigError(
                f"bursts_per_day={bursts_per_day!r} is too high for timeout_rate={timeout_rate!r}; "
                "lower bursts_per_day or raise timeout_rate."
            )
        p_to[r] = scale * bump + bursts
    return p_to


def _solve_probabilities(days: FloatArray, weight: FloatArray, success: FloatArray, *,
                         timeout_rate: float,
                         drift: float, rng: np.random.Generator) -> FloatArray:
    """Solve errors per captcha type and minute: slow log-normal drift, traffic-weighted mean =
    ``1 - success - timeout_rate``."""
    p_se = np.empty((len(CAPTCHA_TYPES), len(days)))
    for t in range(len(CAPTCHA_TYPES)):
        periods = rng.uniform(3.0, 12.0, size=3)
        phases = rng.uniform(0.0, 2 * np.pi, size=3)
        z = np.sin(2 * np.pi * days[:, None] / periods + phases).sum(axis=1) * math.sqrt(2 / 3)
        factor = np.exp(drift * z)
        mean_solve = 1.0 - success[t] - timeout_rate
        p_se[t] = factor * mean_solve * weight.sum() / float(np.sum(weight * factor))
    return p_se
