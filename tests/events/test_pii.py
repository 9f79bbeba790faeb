"""The personal-data guard: what it finds, what it does not mistake for personal data, the three
policies, the keyed hash against a reference SipHash, and the real Apache access log (client IPs)
through the API and the CLI."""

from __future__ import annotations

import hashlib
import ipaddress
import re
import struct
import warnings
from datetime import datetime
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.cli import main
from budgetlab.errors import ConfigError, OutcomeError, PersonalDataError, PersonalDataWarning
from budgetlab.events.outcomes import map_outcomes
from budgetlab.privacy import guard_personal_data, hash_values, scan_personal_data

ROOT = Path(__file__).resolve().parents[2]
APACHE_CANDIDATES = [
    ROOT / "tests" / "fixtures" / "apache_logs",
    ROOT / "tests" / "fixtures" / "elastic_apache" / "apache_logs",
    ROOT.parent / "shared" / "data" / "elastic_apache" / "apache_logs",
]
IPV4_ANYWHERE = re.compile(r"(?<![0-9.])(?:[0-9]{1,3}\.){3}[0-9]{1,3}(?![0-9])")


# what is found --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "value, kind",
    [
        ("anna.petrova@example.ru", "e-mail address"),
        ("Contact: ivan+test@mail.example.com.", "e-mail address"),
        ("83.149.9.216", "IPv4 address"),
        ("client 10.0.0.7 timed out", "IPv4 address"),
        ("2001:db8::1", "IPv6 address"),
        ("fe80::1%eth0", "IPv6 address"),
        ("2001:0db8:85a3:0000:0000:8a2e:0370:7334", "IPv6 address"),
        ("::1", "IPv6 address"),
        ("+7 (916) 123-45-67", "phone number"),
        ("+49 30 1234567", "phone number"),
        ("8-916-123-45-67", "phone number"),
        # issue 14: bare digits are ids; a + or separators make a phone
        ("+79161234567", "phone number"),
        ("4111 1111 1111 1111", "payment-card number"),  # the Visa test number (Luhn-valid)
        ("5500-0000-0000-0004", "payment-card number"),  # a Mastercard test number
        ("378282246310005", "payment-card number"),  # an Amex test number (15 digits)
    ],
)
def test_each_kind_is_found(value, kind):
    found = scan_personal_data(pd.Series(["fra", value, value]))
    assert found.get(kind) == 2, found  # counts rows, not distinct values


@pytest.mark.parametrize(
    "values",
    [
        ["recaptcha_v2", "turnstile", "image", "fra", "ams"],  # the domain's keys
        ["6LcR_xUUAAAAAJ9aRk4Gn7XP2-hw0CJUc4ZPxpXe", "0x4AAAAAAADnPIDROrmt1Wwj"],  # sitekeys
        # times
        ["2026-11-29T03:47:00Z", "2026-11-29 03:47:00+01:00", "2026/11/29", "10:05:03", "03:47"],
        ["Chrome/32.0.1700.77", "1.2.3", "v2.10.1"],  # versions
        ["12345678.5", "0.95", "-3.25"],  # decimals
        ["4111111111111112", "1234 5678 9012 3456"],  # card-shaped but not Luhn-valid
        ["550e8400-e29b-41d4-a716-446655440000"],  # a UUID
        ["s-1", "sess_42", ""],
    ],
)
def test_ordinary_values_are_not_flagged(values):
    assert scan_personal_data(pd.Series(values)) == {}


def test_random_hex_and_digit_ids_are_not_flagged():
    rng = np.random.default_rng(11)
    for width, n in ((16, 50_000), (12, 50_000), (32, 5_000)):
        ids = pd.Series(rng.integers(0, 2**62, n)).map(lambda v, w=width: f"{v:0{w}x}"[-w:])
        # some of these ids are all digits by chance ((10/16)**12 = 0.4 % of 12-hex ids)
        assert ids.str.fullmatch(r"[0-9]+").sum() > 0 or width == 32
        assert scan_personal_data(ids) == {}, width
    # numeric ids of card length: one in ten passes the Luhn check by chance, not half
    digits = pd.Series(rng.integers(10**15, 10**16, 20_000)).astype(str)
    assert scan_personal_data(digits) == {}


def test_numeric_columns_are_checked_for_card_numbers_only():
    assert scan_personal_data(pd.Series([4111111111111111,
                                         4111111111111111])) == {"payment-card number": 2}
    # a number column of bytes, ms, ...
    assert scan_personal_data(pd.Series([79161234567, 120, 80])) == {}
    assert scan_personal_data(pd.Series([1.5, 2.5])) == {}


def test_categorical_columns_are_scanned_by_their_used_categories():
    col = pd.Series(pd.Categorical(["a@b.org", "fra", "a@b.org"], categories=["fra", "a@b.org",
                                                                              "c@d.org"]))
    assert scan_personal_data(col) == {"e-mail address": 2}


# the three policies ---------------------------------------------------------------------------
def frame_with(values):
    return pd.DataFrame({"ts": [f"2026-01-01T00:00:{i:02d}Z" for i in range(len(values))],
                         "outcome": "success", "contact": values, "region": "fra"})


def test_error_names_column_kind_and_count_never_values():
    emails = ["anna@example.ru", "boris@example.ru", "anna@example.ru"]
    with pytest.raises(PersonalDataError) as info:
        read_events(frame_with(emails), by=["region", "contact"])
    text = str(info.value) + repr(info.value)
    assert (
        "'contact'" in text
        and "e-mail address" in text
        and "3 rows" in text
        and "2 distinct" in text
    )
    assert "example.ru" not in text and "anna" not in text


def test_drop_warns_by_name_and_removes_the_column():
    values = ["+7 916 123 45 67"] * 2
    with pytest.warns(PersonalDataWarning, match="dropped column 'contact'") as rec:
        ev = read_events(frame_with(values), by="region", keep=["contact"], pii="drop")
    assert "contact" not in ev.columns and list(ev.columns) == ["ts", "ok", "bucket", "region"]
    assert all("916" not in str(r.message) for r in rec)


def test_hash_keeps_ids_joinable_without_the_values():
    values = ["10.0.0.1", "10.0.0.2", "10.0.0.1"]
    a = read_events(frame_with(values), by="contact", pii="hash", salt="k1")
    b = read_events(frame_with(values[::-1]), by="contact", pii="hash", salt="k1")
    c = read_events(frame_with(values), by="contact", pii="hash", salt="k2")
    assert isinstance(a["contact"].dtype, pd.CategoricalDtype)
    got = a["contact"].astype(str).tolist()
    assert got[0] == got[2] != got[1]  # equal in, equal out
    assert set(got) == set(b["contact"].astype(str))  # the same salt joins across loads
    assert not set(got) & set(c["contact"].astype(str))  # another salt: other hashes
    assert "10.0.0" not in a.to_csv()
    with pytest.raises(ConfigError, match="salt"):
        read_events(frame_with(values), by="contact", pii="hash")


def test_a_salt_without_hashing_is_refused_not_ignored(tmp_path, capsys):
    # --salt keys the hashes of --pii hash; with the default --pii error (or drop) it keyed
    # nothing and the run went on as if it had not been given
    raw = frame_with(["a1", "b2"])
    with pytest.raises(ConfigError, match=r"^salt= keys the hashes of pii='hash' and "
                                          r"hash_session=True; without them nothing is hashed"):
        read_events(raw, salt="k")
    log = tmp_path / "log.csv"
    raw.to_csv(log, index=False)
    for pii in ([], ["--pii", "drop"]):
        assert main(["replay", str(log), "--salt", "k", *pii]) == 2
        assert capsys.readouterr().err == (
            "budgetlab: error: --salt keys the hashes of --pii hash; without it nothing is hashed: "
            "pass --pii hash too, or leave --salt out.\n")
    # the fix it gives: with --pii hash the same salt is used
    assert main(["replay", str(log), "--salt", "k", "--pii", "hash", "--window", "1h"]) == 0
    capsys.readouterr()
    # and the other way round, one pair of parentheses: hashing needs the salt
    assert main(["replay", str(log), "--pii", "hash"]) == 2
    assert capsys.readouterr().err == ("budgetlab: error: --pii hash needs --salt S, a secret "
                                       "string (keep it out of the data).\n")
    # an access log (recognised by its content, read without --preset) reads no personal field,
    # so --salt is refused as doing nothing there (tests/cli/test_reading_sources.py)
    apache = ROOT / "tests" / "fixtures" / "elastic_apache" / "apache_logs"
    assert main(["replay", str(apache), "--salt", "k"]) == 2
    assert capsys.readouterr().err.startswith("budgetlab: error: --salt would do nothing: ")


def test_required_columns_are_always_refused():
    raw = pd.DataFrame({"ts": ["2026-01-01T00:00:00Z"], "outcome": ["anna@example.ru"]})
    for pii in ("error", "drop", "hash"):
        with pytest.raises(PersonalDataError, match="'outcome'") as info:
            read_events(raw, pii=pii, **({"salt": "k"} if pii == "hash" else {}))
        assert "anna" not in str(info.value)


def test_unknown_labels_that_look_personal_are_not_listed():
    with pytest.raises(OutcomeError) as info:
        map_outcomes(pd.Series(["ok", "anna@example.ru", "weird"]), {"ok": "success"})
    text = str(info.value)
    assert "'weird' (1)" in text and "anna" not in text
    assert "1 label hidden as possible personal data" in text


def test_session_ids_can_be_hashed_on_load():
    raw = frame_with(["x"] * 3).assign(sid=["user-anna@example.ru", "s-2", None])
    ev = read_events(raw, session="sid", hash_session=True, salt="k")
    assert ev["session_id"].isna().tolist() == [False, False, True]
    assert "anna" not in ev.to_csv()
    with pytest.raises(PersonalDataError, match="'sid'"):
        read_events(raw, session="sid")
    with pytest.raises(ConfigError, match="salt"):
        read_events(raw, session="sid", hash_session=True)


def test_guard_function_leaves_clean_frames_alone():
    f = pd.DataFrame({"region": ["fra"], "n": [1]})
    assert guard_personal_data(f, ["region", "n"]) is f


# the keyed hash against a reference SipHash-2-4 -------------------------------------------------
def siphash24(key: bytes, msg: bytes) -> int:
    """SipHash-2-4, written from Aumasson & Bernstein, "SipHash: a fast short-input PRF" (2012)."""
    mask = 2**64 - 1
    k0, k1 = struct.unpack("<QQ", key)
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D, k0 ^ 0x6C7967656E657261,
         k1 ^ 0x7465646279746573]

    def rotl(x, b):
        return ((x << b) | (x >> (64 - b))) & mask

    def sipround():
        v[0] = (v[0] + v[1]) & mask
        v[1] = rotl(v[1], 13) ^ v[0]
        v[0] = rotl(v[0], 32)
        v[2] = (v[2] + v[3]) & mask
        v[3] = rotl(v[3], 16) ^ v[2]
        v[0] = (v[0] + v[3]) & mask
        v[3] = rotl(v[3], 21) ^ v[0]
        v[2] = (v[2] + v[1]) & mask
        v[1] = rotl(v[1], 17) ^ v[2]
        v[2] = rotl(v[2], 32)

    end = len(msg) - len(msg) % 8
    for i in range(0, end, 8):
        m = struct.unpack("<Q", msg[i:i + 8])[0]
        v[3] ^= m
        sipround()
        sipround()
        v[0] ^= m
    b = (len(msg) & 0xFF) << 56
    for i, c in enumerate(msg[end:]):
        b |= c << (8 * i)
    v[3] ^= b
    sipround()
    sipround()
    v[0] ^= b
    v[2] ^= 0xFF
    for _ in range(4):
        sipround()
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def test_reference_siphash_matches_the_paper():
    # SipHash paper, Appendix A: key 00..0f, message 00..0e -> a129ca6149be45e5
    assert siphash24(bytes(range(16)), bytes(range(15))) == 0xA129CA6149BE45E5


def test_hash_values_is_keyed_siphash_of_the_utf8_value():
    salt = "pepper"
    # documented in budgetlab.pii: key = SHA-256("budgetlab.pii/v1\0" + salt)[:16], 7 bits per byte
    key = bytes(
        b & 0x7F for b in hashlib.sha256(b"budgetlab.pii/v1\x00" + salt.encode()).digest()[:16]
    )
    values = ["83.149.9.216", "s-1", "Köln", "a" * 40]
    got = hash_values(pd.Series(values * 2 + [None]), salt)

    def mix(h):  # pandas.util.hash_array's final mixing step (pandas/core/util/hashing.py)
        m = 2**64 - 1
        h ^= h >> 30
        h = (h * 0xBF58476D1CE4E5B9) & m
        h ^= h >> 27
        h = (h * 0x94D049BB133111EB) & m
        return h ^ (h >> 31)

    want = [f"{mix(siphash24(key, v.encode('utf-8'))):016x}" for v in values]
    assert got.iloc[:4].tolist() == want
    assert got.iloc[4:8].tolist() == want  # the many-distinct path and the factorized path agree
    assert got.isna().tolist() == [False] * 8 + [True]
    ids = pd.Series([f"id{i}" for i in range(30_000)])  # mostly distinct: hashed row by row
    assert hash_values(ids, salt).iloc[:4].tolist() == [
        f"{mix(siphash24(key, v.encode())):016x}" for v in ids[:4]
    ]


# the real access log ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def apache_frame():
    path = next((p for p in APACHE_CANDIDATES if p.is_file()), None)
    assert path is not None, f"the Apache sample log is missing: {APACHE_CANDIDATES}"
    line_re = re.compile(r'^(\S+) \S+ \S+ \[([^\]]+)\] "[^"]*" (\d{3}) ')
    rows = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        m = line_re.match(line)
        assert m
        rows.append((m.group(2), m.group(1), int(m.group(3))))
    frame = pd.DataFrame(rows, columns=["time", "client_ip", "status"])
    frame["ok"] = np.where(frame["status"] < 500, "true", "false")
    return frame


def test_the_access_log_ips_are_refused_by_column_kind_and_count(apache_frame):
    ips = set(apache_frame["client_ip"])
    # oracle: Python's ipaddress module, line by line
    n_ipv4 = sum(ipaddress.ip_address(v).version == 4 for v in apache_frame["client_ip"])
    assert n_ipv4 == 10_000 and len(ips) == 1753
    with pytest.raises(PersonalDataError) as info:
        read_events(apache_frame, time="time", ok="ok", by="client_ip")
    text = str(info.value)
    assert "'client_ip'" in text and ("10,000 rows like an IPv4 address (1,753 distinct "
                                      "values)") in text
    assert not IPV4_ANYWHERE.search(text)


def test_the_access_log_loads_without_ips_when_dropped_or_hashed(apache_frame):
    ips = set(apache_frame["client_ip"])
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        dropped = read_events(apache_frame, time="time", ok="ok", keep=["client_ip"], pii="drop")
    assert list(dropped.columns) == ["ts", "ok", "bucket"] and len(dropped) == 10_000
    # a by= key that pii='drop' would drop: refused, naming by= and pii=
    with pytest.raises(ConfigError) as info:
        read_events(apache_frame, time="time", ok="ok", by="client_ip", pii="drop")
    assert str(info.value) == ("by='client_ip' names a column that pii='drop' removes as "
                               "personal data; use pii='hash' with salt= to group by its hashed "
                               "values.")
    assert not any(IPV4_ANYWHERE.search(str(r.message)) for r in rec)
    hashed = read_events(apache_frame, time="time", ok="ok", by="client_ip", pii="hash", salt="k")
    text = hashed.to_csv()
    assert not IPV4_ANYWHERE.search(text) and not ips & set(hashed["client_ip"].astype(str))
    assert hashed["client_ip"].nunique() == 1753  # one hash per address: still joinable
    # the CLF times were parsed exactly (oracle: datetime.strptime per line), then sorted stably
    want = sorted(int(datetime.strptime(t,
                                        "%d/%b/%Y:%H:%M:%S "
                                        "%z").timestamp()) * 10**9 for t in apache_frame["time"])
    assert hashed["ts"].array.asi8.tolist() == want
    assert int((~hashed["ok"]).sum()) == 3  # the README: three 500 responses


def test_the_access_log_through_the_cli(apache_frame, tmp_path, capsys):
    path = tmp_path / "access.csv"
    apache_frame.to_csv(path, index=False)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    base = ["replay", str(path), "--time", "time", "--ok", "ok", "--by", "client_ip", "--window",
            "1h"]
    assert main(base) == 2
    captured = capsys.readouterr()
    assert (
        captured.err.count("\n") == 1
        and "'client_ip'" in captured.err
        and "IPv4 address" in captured.err
    )
    assert "10,000 rows" in captured.err
    assert not IPV4_ANYWHERE.search(captured.out + captured.err)
    out = tmp_path / "tr.csv"
    # --pii drop would drop the --by key: refused in one line (the grouping is never lost)
    assert main([*base, "--pii", "drop", "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.err == ("budgetlab: error: --by client_ip names a column that --pii drop "
                            "removes as personal data; use --pii hash --salt S to group by its "
                            "hashed values.\n")
    assert not out.exists() and not IPV4_ANYWHERE.search(captured.out + captured.err)
    assert main([*base, "--pii", "hash", "--salt", "k", "--out", str(out), "--force"]) == 0
    captured = capsys.readouterr()
    assert not IPV4_ANYWHERE.search(captured.out + captured.err + out.read_text())
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


# the guard API every path calls (issue 15): looks_personal, shown, guard_values
# ---------------------
from budgetlab.privacy import guard_values, looks_personal, scan_text, shown  # noqa: E402

PERSONAL = ["иван@почта.рф", '"john doe"@example.org', "(495) 123-45-67", "tel:+79161234567",
            "sess-2001:db8::1",
            "client=192.0.2.7;", "4111 1111 1111 1111"]


@pytest.mark.parametrize("value", PERSONAL)
def test_shown_never_returns_a_value_that_fails_the_detector(value):
    text = shown(value)
    assert value not in text and not looks_personal(text) and "not shown" in text
    assert shown(f"x{value}") == text  # inside a longer value too


def test_shown_quotes_and_cuts_long_values_on_one_line():
    assert shown("turnstile") == "'turnstile'"
    assert shown("a" * 100) == repr("a" * 40 + "…")
    assert shown("x" * 10, limit=4) == repr("xxxx…")
    assert shown("line\nbreak") == "'line\\nbreak'"  # repr: one line
    # the cut itself must pass: 192.0.2.71234 is no address, its first 9 characters are
    assert not looks_personal("192.0.2.71234") and looks_personal("192.0.2.7")
    assert "192" not in shown("192.0.2.71234", limit=9)
    assert shown("192.0.2.71234") == "'192.0.2.71234'"


def test_guard_values_counts_per_kind_and_never_shows():
    values = ["turnstile", *PERSONAL, "иван@почта.рф"]
    with pytest.raises(PersonalDataError) as info:
        guard_values(values, what="the 'group' column of rec.csv")
    text = str(info.value)
    # oracle: the corpus labels above, counted by hand (a value is counted once; an e-mail twice
    # listed)
    assert text.startswith("the 'group' column of rec.csv: 8 of the 9 values look like personal "
                           "data (")
    assert ("3 like an e-mail address, 1 like an IPv4 address, 1 like an IPv6 address, 2 like a "
            "phone number, "
            "1 like a payment-card number") in text
    assert "\n" not in text
    for value in PERSONAL:
        assert value not in text
    assert "почта" not in text and "495" not in text and "2001" not in text and "192.0" not in text
    guard_values(["turnstile", "recaptcha_v2", "sess-8f3a9c", 4829301746521], what="keys")  # passes
    guard_values([], what="keys")


def test_scan_text_accepts_lists_arrays_series_and_missing_values():
    values = ["иван@почта.рф", None, "fra", "  (495) 123-45-67  "]
    for given in (values, np.asarray(values, dtype=object), pd.Series(values, dtype="str"),
                  pd.Series(values, dtype="string[pyarrow]")):
        found = scan_text(given)
        assert {k: m.tolist() for k, m in found.items()} == {"e-mail address": [True, False, False,
                                                                                False],
                                                             "phone number": [False, False, False,
                                                                              True]}
    assert scan_text([]) == {} and scan_text(np.asarray([], dtype=object)) == {}
    assert scan_text(["", ""]) == {}


def test_card_numbers_are_luhn_checked_like_the_standard():
    # ISO/IEC 7812-1 annex B, written out: every 13-19-digit number from a seeded generator agrees
    def luhn(d):
        return sum(int(c) if i % 2 == 0 else (2 * int(c) - 9 if int(c) > 4 else 2 * int(c))
                   for i, c in enumerate(reversed(d))) % 10 == 0

    rng = np.random.default_rng(7)
    values = ["4" + "".join(map(str, rng.integers(0, 10, int(w) - 1))) for w in rng.integers(13, 20,
                                                                                             3000)]
    masks = scan_text([f"card {v[:4]} {v[4:8]} {v[8:12]} "
                       f"{v[12:]}" if len(v) == 16 else v for v in values])
    got = masks.get("payment-card number", np.zeros(len(values), bool))
    # a lone value per row is judged alone: scan each bare value by itself would use the column
    # rule,
    # so compare only the 16-digit values written in text (always judged one by one) and the column
    # share
    want = np.array([luhn(v) for v in values])
    sixteen = np.array([len(v) == 16 for v in values])
    assert (got[sixteen] == want[sixteen]).all()
    assert not got[~sixteen].any()  # bare ids in a column where about 1 in 10 pass: not cards


def test_a_lone_all_digit_id_in_a_column_of_hex_ids_is_not_a_card():
    # 4111111111111111 is Luhn-valid; among 200 hexadecimal ids it is one more id (the column rule),
    # through the loader's path (prefilter, distinct values) as through scan_text on the whole
    # column
    rng = np.random.default_rng(3)
    ids = [f"{int(v):016x}" for v in rng.integers(2**60, 2**63 - 1, 200)]
    ids = [i if any(c in "abcdef" for c in i) else "a" + i[1:] for i in ids] + ["4111111111111111"]
    assert scan_personal_data(pd.Series(ids * 3, dtype="str")) == {}
    assert scan_text(ids) == {}
    assert scan_text(["4111111111111111"]) == {"payment-card number": np.array([True])}


def test_values_with_lone_surrogates_are_still_scanned():
    # bytes decoded with surrogateescape hold lone surrogates, which Arrow text cannot; such a
    # character is read as "?" and the rest of the value is still checked (it used to crash)
    value = "ivan\udc80@example.org"
    assert "e-mail address" in scan_text([value])
    assert scan_personal_data(pd.Series([value, "fra", None],
                                        dtype=object)) == {"e-mail address": 1}
    assert "ivan" not in shown(value)
    assert shown("x\udcff") == repr("x\udcff")
