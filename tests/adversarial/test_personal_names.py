"""Review of issue 15: file names the user gives are repeated in the report only when they pass
the personal-data guard; the files are still read and written."""

from __future__ import annotations

import json

from budgetlab.cli import main

LOG = "ts,outcome\n" + "".join(
    f"2026-11-29T00:{m:02d}:00Z,{'timeout' if m % 4 == 0 else 'success'}\n" for m in range(40)
)


def test_personal_input_and_output_names_are_not_repeated(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "иван@почта.рф.csv").write_text(LOG)
    assert main(["replay", "иван@почта.рф.csv", "--target", "0.9", "--window", "10min",
                 "--out", "ivan@mail.ru.csv", "--plot", "+7 (495) 123-45-67.png"]) == 0
    out, err = capsys.readouterr()
    for secret in ("иван", "ivan@mail.ru", "123-45-67"):
        assert secret not in out and secret not in err
    assert (tmp_path / "ivan@mail.ru.csv").exists() and (tmp_path / "+7 (495) "
                                                                    "123-45-67.png").exists()
    record = json.loads((tmp_path / "ivan@mail.ru.csv.run.json").read_text())
    text = json.dumps(record, ensure_ascii=False)
    for secret in ("иван", "ivan@mail.ru", "123-45-67"):
        assert secret not in text
