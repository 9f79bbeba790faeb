"""A typed duration is read as written, to the nanosecond: pandas reads "0.00013s" through a
float as 129,999 ns (one in about 60 five-decimal second strings came out a nanosecond short)."""

from __future__ import annotations

import pytest

from budgetlab._util.validation import to_timedelta


@pytest.mark.parametrize(("given", "ns"), [
    ("0.00013s", 130_000),          # pandas: 129,999
    ("0.00012345s", 123_450),       # pandas: 123,449
    ("0.1s", 100_000_000),
    ("1.5h", 5_400_000_000_000),    # 1.5 x 3,600 s
    ("2.5 min", 150_000_000_000),
    ("0.5d", 43_200_000_000_000),   # lower-case d is days
    ("90min", 5_400_000_000_000),
])
def test_a_decimal_duration_is_exact(given, ns):
    assert to_timedelta(given).value == ns


def test_every_five_decimal_second_string_is_exact():
    # n / 100,000 s is n x 10,000 ns exactly, for every n
    wrong = [n for n in range(1, 100_000, 7)
             if to_timedelta(f"{n / 100_000:.5f}s").value != n * 10_000]
    assert wrong == []
