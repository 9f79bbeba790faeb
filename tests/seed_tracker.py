"""A literal port of the seed's ``ErrorBudgetTracker`` (shared/seed/000_c2d3004e4e0bdaad.txt).

The test oracle for budgetlab's replay and Tracker, and the baseline of the Tracker benchmark.
Only two things differ from the seed, both needed to replay history:
- ``record(success, now)`` takes the event time instead of reading ``time.monotonic()``;
- times and ``window_seconds`` may be integer nanoseconds (the comparisons are then exact).
Everything else (deque, pruning, the sums over the window on every call, the float arithmetic,
the rounding in ``get_report``) is the seed's code, unchanged.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from enum import Enum


class BudgetStatus(Enum):
    HEALTHY = "healthy"  # Budget > 50% remaining
    WARNING = "warning"  # Budget 10-50% remaining
    CRITICAL = "critical"  # Budget < 10% remaining
    EXHAUSTED = "exhausted"  # Budget depleted


@dataclass
class SLOConfig:
    """Service Level Objective configuration."""

    target_success_rate: float = 0.95  # 95%
    window_seconds: int = 86400  # 24 hours
    warning_threshold: float = 0.50  # Alert at 50% budget
    critical_threshold: float = 0.10  # Alert at 10% budget


@dataclass
class ErrorBudgetEvent:
    timestamp: float
    success: bool


class ErrorBudgetTracker:
    """Tracks error budget consumption for CAPTCHA solving."""

    def __init__(self, config: SLOConfig = SLOConfig()):  # noqa: B008 (the seed's signature)
        self.config = config
        self._events: deque[ErrorBudgetEvent] = deque()
        self._lock = threading.Lock()
        self._callbacks: dict = {status: [] for status in BudgetStatus}
        self._last_status = BudgetStatus.HEALTHY

    def on_status_change(self, status, callback):
        self._callbacks[status].append(callback)

    def record(self, success: bool, now):
        event = ErrorBudgetEvent(timestamp=now, success=success)
        with self._lock:
            self._events.append(event)
            self._prune(now)
            new_status = self._compute_status()
            if new_status != self._last_status:
                self._last_status = new_status
                for cb in self._callbacks.get(new_status, []):
                    cb(self.get_report())

    def _prune(self, now):
        cutoff = now - self.config.window_seconds
        while self._events and self._events[0].timestamp < cutoff:
            self._events.popleft()

    def _compute_status(self) -> BudgetStatus:
        remaining = self.remaining_fraction
        if remaining <= 0:
            return BudgetStatus.EXHAUSTED
        if remaining < self.config.critical_threshold:
            return BudgetStatus.CRITICAL
        if remaining < self.config.warning_threshold:
            return BudgetStatus.WARNING
        return BudgetStatus.HEALTHY

    # The seed takes self._lock in these properties; record() already holds it (a plain Lock
    # would deadlock in this port), so the port reads without it. The arithmetic is unchanged.
    @property
    def total_events(self) -> int:
        return len(self._events)

    @property
    def success_count(self) -> int:
        return sum(1 for e in self._events if e.success)

    @property
    def failure_count(self) -> int:
        return sum(1 for e in self._events if not e.success)

    @property
    def current_success_rate(self) -> float:
        total = self.total_events
        return self.success_count / total if total > 0 else 1.0

    @property
    def error_budget_total(self) -> float:
        total = self.total_events
        if total == 0:
            return 0
        return total * (1 - self.config.target_success_rate)

    @property
    def error_budget_remaining(self) -> float:
        return max(0, self.error_budget_total - self.failure_count)

    @property
    def remaining_fraction(self) -> float:
        budget = self.error_budget_total
        if budget <= 0:
            return 1.0 if self.failure_count == 0 else 0.0
        return max(0, self.error_budget_remaining / budget)

    @property
    def burn_rate(self) -> float:
        total = self.total_events
        if total == 0:
            return 0.0
        expected_failures = total * (1 - self.config.target_success_rate)
        if expected_failures == 0:
            return 0.0
        return self.failure_count / expected_failures

    def get_report(self) -> dict:
        return {
            "status": self._last_status.value,
            "slo_target": self.config.target_success_rate,
            "current_rate": round(self.current_success_rate, 4),
            "total_events": self.total_events,
            "successes": self.success_count,
            "failures": self.failure_count,
            "budget_total": round(self.error_budget_total, 1),
            "budget_remaining": round(self.error_budget_remaining, 1),
            "budget_remaining_pct": round(self.remaining_fraction * 100, 1),
            "burn_rate": round(self.burn_rate, 2),
        }
