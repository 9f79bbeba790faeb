"""Issue 29 point 5: group keys whose names denote people or accounts are refused even when their
values look plain (login names), unless hashed, dropped or declared not personal."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.cli import main
from budgetlab.errors import ConfigError, PersonalDataError

SSH = Path(__file__).parents[1] / "fixtures" / "loghub" / "openssh_300.log"
# the sshd preset's pattern with the login name as a group
USER_PATTERN = (r"^(?P<ts>[A-Z][a-z]{2} [ 0-9]?[0-9] [0-9:]{8}) \S+ sshd\[[0-9]+\]: "
                r"(?P<outcome>Accepted|Failed) "
                r"\S+ for (?:invalid user )?(?P<user>\S+) from")
LOGINS = ["fztu", "root", "admin", "root"]


def frame(key: str) -> pd.DataFrame:
    return pd.DataFrame({"ts": [f"2026-11-29T00:0{i}:00Z" for i in range(4)],
                         "outcome": ["success"] * 4,
                         key: LOGINS})


@pytest.mark.parametrize("key", ["user", "username", "login", "account_id", "customerName",
                                 "client",
                                 "e_mail", "first_name", "Benutzer", "логин"])
def test_person_named_keys_are_refused_without_showing_values(key):
    with pytest.raises(PersonalDataError) as info:
        read_events(frame(key), by=key)
    text = str(info.value)
    assert ("named like personal "
            "data") in text and f"not_personal=[{key!r}]" in text and "pii='hash'" in text
    assert not any(v in text for v in LOGINS)


def test_hash_drop_or_declared_not_personal():
    hashed = read_events(frame("user"), by="user", pii="hash", salt="s")
    assert hashed["user"].nunique() == 3 and not set(LOGINS) & set(hashed["user"].astype(str))
    # dropped, the key would take the grouping with it: refused, the way out named
    with pytest.raises(ConfigError, match=r"^by='user' names a column that pii='drop' removes "
                                          r"as personal data; use pii='hash' with salt="):
        read_events(frame("user"), by="user", pii="drop")
    kept = read_events(frame("client"), by="client", not_personal=["client"])
    assert sorted(kept["client"].astype(str)) == sorted(LOGINS)
    with pytest.raises(ConfigError, match="which by= does not declare"):
        read_events(frame("client"), not_personal=["client"])


def test_ordinary_keys_are_not_flagged_by_name():
    for key in ("pod_name", "region", "host", "program", "captcha_type", "sitekey"):
        assert len(read_events(frame(key), by=key)) == 4


def test_login_names_of_an_ssh_log_never_reach_the_output(tmp_path, capsys):
    argv = ["replay", str(SSH), "--pattern", USER_PATTERN, "--time-format", "%b %d %H:%M:%S",
            "--year", "2015",
            "--outcomes", "accepted=success,failed=failure", "--by", "user", "--window", "1h",
            "--out", str(tmp_path / "t.csv")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--pii hash --salt S" in err and "--not-personal user" in err
    assert "fztu" not in err and not (tmp_path / "t.csv").exists()
    assert main([*argv, "--pii", "hash", "--salt", "s"]) == 0
    out, _ = capsys.readouterr()
    assert "fztu" not in out and "fztu" not in (tmp_path / "t.csv").read_text()


def test_a_headerless_file_never_echoes_its_first_row(tmp_path, capsys):
    path = tmp_path / "auth.csv"
    path.write_text(
        "2026-11-29T02:00:00Z,success,fztu,LabSZ\n2026-11-29T02:01:00Z,failure,root,LabSZ\n"
    )
    with pytest.raises(Exception) as info:
        read_events(path, by="host")
    text = str(info.value)
    assert "header row" in text and "4 fields" in text
    assert not any(v in text for v in ("fztu", "LabSZ", "2026-11-29", "success"))
    assert main(["replay", str(path), "--by", "host"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "fztu" not in err and "LabSZ" not in err
