"""Issue 15, point 2: the personal-data detector measured both ways on a corpus of synthetic values
(tests/fixtures/pii_corpus, README there): recall on e-mail addresses, phone numbers, IPv4 and
IPv6 addresses and card numbers, precision on opaque ids. Required and recorded: 100 % on each.

The corpus labels are the oracle; each personal value is also checked against an independent
reading (Python's ``ipaddress``, a Luhn check written here, a digit count) so that a mislabelled
line cannot make the figures look better.
"""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from budgetlab.privacy import looks_personal, scan_personal_data, scan_text

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "pii_corpus"
CLASSES = {"emails.txt": "e-mail address", "phones.txt": "phone number", "ipv4.txt": "IPv4 address",
           "ipv6.txt": "IPv6 address", "cards.txt": "payment-card number"}


def read(name: str) -> list[str]:
    return (CORPUS / name).read_text(encoding="utf-8").split("\n")[:-1]


def luhn_valid(digits: str) -> bool:
    """ISO/IEC 7812-1 annex B, digit by digit from the right."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def has_ip(value: str, version: int) -> bool:
    """Some part of ``value`` is an address of ``version`` for Python's ipaddress module (IPv4:
    any dotted quad, leading zeros removed; IPv6: a token without brackets, zone or port)."""
    if version == 4:
        quads = re.findall(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}", value)
        return any(ipaddress.ip_address(".".join(str(int(p)) for p in q.split("."))).version == 4
                   for q in quads if all(int(p) < 256 for p in q.split(".")))
    for token in re.split(r"[^0-9A-Fa-f:.%\[\]]+", value):
        bare = token.split("]")[0].strip("[").split("%")[0].rstrip(".")
        try:
            if ipaddress.ip_address(bare).version == 6:
                return True
        except ValueError:
            continue
    return False


def test_the_corpus_is_large_enough_and_labelled_right():
    for name in CLASSES:
        assert len(read(name)) >= 40, name
    assert len(read("opaque_ids.txt")) >= 200
    assert all(has_ip(v,
                      4) for v in read("ipv4.txt")), [v for v in read("ipv4.txt") if not has_ip(v,
                                                                                                4)]
    assert all(has_ip(v,
                      6) for v in read("ipv6.txt")), [v for v in read("ipv6.txt") if not has_ip(v,
                                                                                                6)]
    for value in read("cards.txt"):
        groups = re.findall(r"[0-9][0-9 -]{11,}[0-9]", value)
        digits = re.sub(r"[^0-9]", "", groups[0])
        assert 13 <= len(digits) <= 19 and digits[0] in "23456" and luhn_valid(digits), value
    for value in read("phones.txt"):
        assert 8 <= len(re.sub(r"[^0-9]", "", value)) <= 15, value
    for value in read("emails.txt"):
        assert re.search(r"@|\uff20|%40", value), value
    for value in read("opaque_ids.txt"):  # the card-shaped integers of the id corpus are not cards
        if re.fullmatch(r"[0-9]{13,19}", value):
            assert not luhn_valid(value), value


def recall(values: list[str], kind: str) -> tuple[float, float, list[str]]:
    """(per value, as one column, values missed): a value counts when its own scan finds
    ``kind``."""
    missed = [v for v in values if not bool(scan_text([v]).get(kind, np.zeros(1, bool))[0])]
    column = scan_text(np.asarray(values, dtype=object)).get(kind, np.zeros(len(values), bool))
    return 1 - len(missed) / len(values), float(column.mean()), missed


def test_recall_is_100_percent_on_every_class():
    figures = {}
    missed = {}
    for name, kind in CLASSES.items():
        values = read(name)
        per_value, as_column, missed[kind] = recall(values, kind)
        figures[kind] = (len(values), per_value, as_column)
        # the loader's guard counts rows of a declared column (distinct values, prefilter,
        # categories)
        assert scan_personal_data(pd.Series(values * 2,
                                            dtype="str")).get(kind) == 2 * len(values), kind
        assert all(looks_personal(v) for v in values), kind
    print("\nrecall (values, per value, as a column):", figures)
    # measured and required: every class 100 % both ways
    assert {k: f[1:] for k, f in figures.items()} == {k: (1.0,
                                                          1.0) for k in CLASSES.values()}, missed


def test_precision_is_100_percent_on_opaque_ids():
    ids = read("opaque_ids.txt")
    flagged = [v for v in ids if scan_text([v])]
    column = scan_text(np.asarray(ids, dtype=object))
    print(f"\nopaque ids: {len(ids)} values, {len(flagged)} flagged one by one, "
          f"{sum(int(m.sum()) for m in column.values())} as a column")
    assert flagged == [] and column == {}
    assert scan_personal_data(pd.Series(ids, dtype="str")) == {}
    assert not any(looks_personal(v) for v in ids)


@pytest.mark.parametrize("value, kind", [
    ("иван@почта.рф", "e-mail address"), ('"john doe"@example.org', "e-mail address"),
    ("José.Müller@example.org", "e-mail address"), ("(495) 123-45-67", "phone number"),
    ("tel:+79161234567", "phone number"), ("call +44 20 7946 0958 now", "phone number"),
    ("sess-2001:db8::1", "IPv6 address"), ("1.2.3.4", "IPv4 address"),
])
def test_the_issue_examples_one_by_one(value, kind):
    # each of these was missed (or is a recorded decision: a four-part version is an IPv4 address)
    assert kind in scan_text([value])


@pytest.mark.parametrize("value", ["4829301746521", "7730018849201553", "12345678", "20261130",
                                   "1780000000123"])
def test_a_bare_run_of_digits_is_never_a_phone_number(value):
    assert "phone number" not in scan_text([value])
