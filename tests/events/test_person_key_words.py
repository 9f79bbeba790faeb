"""Stop 56: key names for people that passed: Unix and directory names (``uid``, ``usr``,
``uname``, ``sAMAccountName``: camelCase is split before the words are matched, also after a run
of capitals), nicknames, subscribers, students, card and policy holders; a bare ``holder`` (a lock
or lease holder is a process) and ordinary keys still pass."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.errors import PersonalDataError
from budgetlab.privacy import names_a_person

LOGINS = ["fztu", "root", "admin", "root"]


def frame(key: str) -> pd.DataFrame:
    return pd.DataFrame({"ts": [f"2026-11-29T00:0{i}:00Z" for i in range(4)],
                         "outcome": ["success"] * 4, key: LOGINS})


@pytest.mark.parametrize("key, plain", [
    ("uid", "guid"), ("usr", "fluid"), ("uname", "pod_name"), ("sAMAccountName", "HTTPStatus"),
    ("nick", "sitekey"), ("nickname", "region"), ("subscriber_id", "lease_holder"),
    ("studentId", "placeholder"), ("card_holder", "holder"), ("policyholder", "lock_holder"),
])
def test_keys_named_for_people_are_refused_and_their_neighbours_pass(key, plain):
    with pytest.raises(PersonalDataError, match="named like personal data") as info:
        read_events(frame(key), by=key)
    assert not any(v in str(info.value) for v in LOGINS)
    assert not names_a_person(plain) and len(read_events(frame(plain), by=plain)) == 4
