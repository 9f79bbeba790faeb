"""Stop 56: a group key is spelled (stripped, NFC, spaces that print as one written U+0020) and
checked for invisible characters BEFORE the keyed hash, so that one key is one hashed group; the
invisible characters are Unicode's Default_Ignorable_Code_Point set, not only the format
category. Oracles: the groups are counted by hand from the values written in each test."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.cli import main
from budgetlab.errors import InputError
from budgetlab.events.read import one_spelling

T = "2026-11-29T00:0{}:00Z"
COMPOSED, DECOMPOSED = "K\u00f6ln", "Ko\u0308ln"


def _csv(path, key, values):
    lines = [f"ts,outcome,{key}"] + [f"{T.format(i)},success,{v}" for i, v in enumerate(values)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _sizes(ev, key):
    return sorted(ev[key].value_counts().tolist())


def test_nfc_nfd_and_a_trailing_blank_make_two_hashed_groups(tmp_path):
    # Köln twice (composed, decomposed) and fra twice (with and without a trailing blank):
    # 2 groups of 2 events, as without hashing
    path = _csv(tmp_path / "k.csv", "user", [COMPOSED, DECOMPOSED, "fra ", "fra"])
    hashed = read_events(path, by="user", pii="hash", salt="s")
    assert _sizes(hashed, "user") == [2, 2]
    plain = read_events(path, by="user", not_personal=["user"])
    assert _sizes(plain, "user") == [2, 2]
    # the hash of a key is the hash of its one spelling, whatever way the file wrote it
    again = read_events(_csv(tmp_path / "k2.csv", "user", [COMPOSED, "fra"]), by="user",
                        pii="hash", salt="s")
    assert set(hashed["user"].astype(str)) == set(again["user"].astype(str))


def test_a_zero_width_value_is_refused_before_it_is_hashed(tmp_path, capsys):
    path = _csv(tmp_path / "k.csv", "user", [COMPOSED, DECOMPOSED, "fra ", "fra", "fr\u200ba"])
    with pytest.raises(InputError, match="invisible characters .* at row 5 "):
        read_events(path, by="user", pii="hash", salt="s")
    assert main(["replay", str(path), "--by", "user", "--pii", "hash", "--salt", "s"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "invisible characters" in err
    assert "fr\u200ba" not in err and "fra" not in err


def test_e_mail_keys_are_spelled_before_they_are_hashed(tmp_path):
    # the guard finds e-mail addresses and hashes them: the same address written with a trailing
    # blank or decomposed is one hashed group
    values = ["j\u00f6rg@example.org", "jo\u0308rg@example.org", "ann@example.org ",
              "ann@example.org", "ann@example.org"]
    path = _csv(tmp_path / "m.csv", "contact", values)
    ev = read_events(path, by="contact", pii="hash", salt="s")
    assert _sizes(ev, "contact") == [2, 3]


def test_a_pattern_log_s_keys_are_spelled_before_they_are_hashed(tmp_path):
    path = tmp_path / "app.log"
    lines = [f"{T.format(i)} ok {v}" for i, v in
             enumerate([COMPOSED, DECOMPOSED, "fra\u00a0west", "fra west"])]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    pattern = r"^(?P<ts>\S+) (?P<outcome>\S+) (?P<user>.+)$"
    ev = read_events(path, pattern=pattern, by="user", pii="hash", salt="s")
    assert _sizes(ev, "user") == [2, 2]


@pytest.mark.parametrize("mark", ["\u034f", "\ufe0f", "\ufe00", "\U000e0100", "\u3164",
                                  "\u115f", "\u1160", "\uffa0", "\u180b", "\u17b4"])
def test_default_ignorable_characters_are_refused(mark):
    # each prints as nothing: "fra" + mark beside "fra" would be two groups that print alike
    frame = pd.DataFrame({"ts": [T.format(i) for i in range(3)], "outcome": ["success"] * 3,
                          "region": ["fra", f"fra{mark}", "ams"]})
    with pytest.raises(InputError) as info:
        read_events(frame, by="region")
    assert "invisible characters" in str(info.value) and "at row 2 (1-based) (1 row)" \
        in str(info.value)
    # visible text beside it is ordinary key text: a combining diaeresis, a Hangul syllable, CJK,
    # an emoji without a selector
    names, bad = one_spelling(pd.Index(["Ko\u0308ln", "\ud55c", "\u65e5\u672c", "\u2764",
                                        f"fra{mark}"]))
    assert bad.tolist() == [False, False, False, False, True]
    assert names[:4].tolist() == ["K\u00f6ln", "\ud55c", "\u65e5\u672c", "\u2764"]


@pytest.mark.parametrize("space", ["\u00a0", "\u3000", "\u2009", "\u202f"])
def test_spaces_that_print_as_a_space_are_one_spelling(space):
    # ... but the Ogham space mark, which prints as a dash, stays its own key
    frame = pd.DataFrame({"ts": [T.format(i) for i in range(4)], "outcome": ["success"] * 4,
                          "region": ["fra west", f"fra{space}west", "ams", "fra\u1680west"]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ev = read_events(frame, by="region")
    assert ev["region"].value_counts().to_dict() == {"fra west": 2, "ams": 1,
                                                     "fra\u1680west": 1}
