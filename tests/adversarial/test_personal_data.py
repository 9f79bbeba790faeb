"""The standing adversarial suite, personal-data rows (issue 15, points 2 and 7): a log whose
outcome, group or bucket column holds personal values is refused through the CLI (exit 2, one
line) and the API (PersonalDataError or another BudgetlabError), and no personal value appears in
stdout, stderr, the exception message or any file left behind; the inputs stay byte-identical.
Values are synthetic (tests/fixtures/pii_corpus/README.md says where they come from)."""

from __future__ import annotations

import json

import pytest

from budgetlab import read_events
from budgetlab.errors import PersonalDataError
from tests.adversarial.harness import Case, run_case

T0 = "2026-11-29T02:{:02d}:00Z"
# each of these was missed by the detector before issue 15 (so each case failed then)
EMAILS = ("иван@почта.рф", "анна.петрова@пример.испытание", "пётр@почта.рф",
          '"john doe"@example.org')
PHONES = ("(495) 123-45-67", "(812) 765-43-21", "(495)123-4567")
IPV6 = ("sess-2001:db8::1", "sess-2001:db8::2", "client=2001:db8::7;")
TEXT_PHONES = ("звоните tel:+79161234567", "call +44 20 7946 0958 now")


def csv(column: str, values: tuple[str, ...], *, outcome: str | None = None) -> bytes:
    """A small log: ts, outcome and one more column cycling through ``values`` (quoted as CSV)."""
    head = "ts,outcome" + (f",{column}" if column != "outcome" else "")
    rows = []
    for i in range(12):
        value = values[i % len(values)].replace('"', '""')
        label = outcome or ("success" if i % 3 else "timeout")
        if column == "outcome":
            rows.append(f'{T0.format(i)},"{value}"')
        else:
            rows.append(f'{T0.format(i)},{label},"{value}"')
    return ("\n".join([head, *rows]) + "\n").encode("utf-8")


def jsonl(column: str, values: tuple[str, ...]) -> bytes:
    rows = [{"ts": T0.format(i), "outcome": "success" if i % 3 else "timeout",
             column: values[i % len(values)]}
            for i in range(12)]
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8")


def replay(name: str, *extra: str) -> list[str]:
    return ["replay", "{d}/" + name, "--window", "1h", *extra]


CASES = [
    Case(
        "cyrillic-emails-in-by",
        argv=replay("log.csv", "--by", "contact"),
        files={"log.csv": csv("contact", EMAILS)},
        needles=("personal data", "'contact'", "e-mail address"),
        forbidden=EMAILS + ("почта", "иван", "example.org"),
        api=lambda d: read_events(d / "log.csv", by="contact"),
        api_error=PersonalDataError,
    ),
    Case(
        "cyrillic-emails-as-outcome",
        argv=replay("log.csv"),
        files={"log.csv": csv("outcome", EMAILS)},
        needles=("personal data",),
        forbidden=EMAILS + ("почта", "иван"),
        api=lambda d: read_events(d / "log.csv"),
        api_error=PersonalDataError,
    ),
    Case(
        "bracketed-phones-in-by",
        argv=replay("log.csv", "--by", "caller"),
        files={"log.csv": csv("caller", PHONES)},
        needles=("personal data", "'caller'", "phone number"),
        forbidden=PHONES + ("123-45-67", "765-43-21"),
        api=lambda d: read_events(d / "log.csv", by="caller"),
        api_error=PersonalDataError,
    ),
    Case(
        "ipv6-inside-session-keys-in-by",
        argv=replay("log.csv", "--by", "sid"),
        files={"log.csv": csv("sid", IPV6)},
        needles=("personal data", "'sid'", "IPv6 address"),
        forbidden=IPV6 + ("2001:db8",),
        api=lambda d: read_events(d / "log.csv", by="sid"),
        api_error=PersonalDataError,
    ),
    Case(
        "phones-inside-text-in-a-declared-column",
        argv=replay("log.csv", "--by", "note"),
        files={"log.csv": csv("note", TEXT_PHONES)},
        needles=("personal data", "'note'", "phone number"),
        forbidden=TEXT_PHONES + ("79161234567", "7946 0958"),
        api=lambda d: read_events(d / "log.csv", by="note"),
        api_error=PersonalDataError,
    ),
    Case(
        "cyrillic-emails-in-bucket",
        argv=replay("log.csv", "--ok", "ok", "--bucket", "who"),
        files={
            "log.csv": (
                "ts,ok,who\n"
                + "".join(
                    f"{T0.format(i)},{'true' if i % 2 else 'false'},{EMAILS[i % 4]}\n"
                    for i in range(8)
                ).replace('"john doe"', '"""john doe"""')
            ).encode("utf-8")
        },
        needles=("personal data",),
        forbidden=EMAILS[:3] + ("почта", "иван"),
        api=lambda d: read_events(d / "log.csv", ok="ok", bucket="who"),
        api_error=PersonalDataError,
    ),
    Case(
        "idn-emails-in-by-jsonl",
        argv=replay("log.jsonl", "--by", "user"),
        files={"log.jsonl": jsonl("user", EMAILS)},
        needles=("personal data", "'user'"),
        forbidden=EMAILS + ("почта", "иван"),
        api=lambda d: read_events(d / "log.jsonl", by="user"),
        api_error=PersonalDataError,
    ),
    Case(
        "phones-in-a-tsv-by",
        argv=replay("log.tsv", "--by", "phone"),
        files={"log.tsv": csv("phone", PHONES).replace(b",", b"\t").replace(b'"', b"")},
        needles=("personal data", "'phone'"),
        forbidden=PHONES + ("123-45-67",),
        api=lambda d: read_events(d / "log.tsv", by="phone"),
        api_error=PersonalDataError,
    ),
    # a header-less file: its first row would be listed as "columns present"; the personal values
    # are hidden
    Case(
        "headerless-first-row-with-personal-values",
        argv=replay("log.csv", "--by", "region"),
        files={
            "log.csv": "".join(
                f"{T0.format(i)},success,{EMAILS[0]},{PHONES[0]}\n" for i in range(4)
            ).encode("utf-8")
        },
        needles=("header row",),
        forbidden=(EMAILS[0], PHONES[0], "почта", "123-45-67"),
        api=lambda d: read_events(d / "log.csv", by="region"),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_personal_values_are_refused_and_never_shown(case, tmp_path, capsys, monkeypatch):
    run_case(case, tmp_path, capsys, monkeypatch)


@pytest.mark.parametrize("case", [c for c in CASES if c.id.endswith("-in-by")], ids=str)
def test_the_same_logs_load_when_the_column_is_hashed(case, tmp_path, capsys, monkeypatch):
    """Control: the refusal is the guard's, not a broken file: with --pii hash the same run succeeds
    and its output holds none of the values."""
    ok = Case(case.id + "-hashed", argv=[*case.argv, "--pii", "hash", "--salt", "k", "--out",
                                         "{d}/out.csv"],
              files=case.files, exit=0, forbidden=case.forbidden, allowed_new=("out.csv",
                                                                               "out.csv.run.json"))
    run_case(ok, tmp_path, capsys, monkeypatch)
