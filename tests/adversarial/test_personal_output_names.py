"""Every "wrote ... to PATH" line repeats the path only when it passes the personal-data guard
(:func:`budgetlab.cli.prose.path_label`), as ``replay``'s do: before the fix ``incident --plot``
("wrote the plot to ivan@mail.ru.png"), ``demo --out``/``--plot`` and ``python -m
budgetlab.datasets --out`` printed the path as given. The files are still written."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab.cli import main
from budgetlab.datasets.__main__ import main as datasets_main

HIDDEN = "a file whose name looks like personal data (not shown)"


def test_incident_plot_path_is_not_repeated(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ts = pd.date_range("2026-01-05", periods=120, freq="1min", tz="UTC")
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "ok": np.arange(120) % 10 != 0}).to_csv(
        "log.csv", index=False)
    assert main(["incident", "log.csv", "--ok", "ok", "--target", "0.9", "--window", "10min",
                 "--start", "2026-01-05T00:30:00Z", "--end", "2026-01-05T01:30:00Z",
                 "--context", "10min", "--plot", "ivan@mail.ru.png"]) == 0
    out, err = capsys.readouterr()
    assert "ivan@mail.ru" not in out + err
    assert f"wrote the plot to {HIDDEN}" in out
    assert (tmp_path / "ivan@mail.ru.png").stat().st_size > 0


def test_demo_out_and_plot_paths_are_not_repeated(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--out", "ivan@mail.ru.csv", "--plot", "+7 (495) 123-45-67.png"]) == 0
    out, err = capsys.readouterr()
    for secret in ("ivan@mail.ru", "123-45-67"):
        assert secret not in out + err
    assert f"to {HIDDEN}" in out and f"wrote timeline to {HIDDEN}" in out
    assert (tmp_path / "ivan@mail.ru.csv").exists()
    assert (tmp_path / "+7 (495) 123-45-67.png").exists()


def test_datasets_out_folder_is_not_repeated(tmp_path, capsys):
    folder = tmp_path / "ivan@mail.ru"
    assert datasets_main(["--preset", "demo", "--out", str(folder)]) == 0
    out, err = capsys.readouterr()
    assert "ivan@mail.ru" not in out + err
    assert out.startswith(f"wrote {HIDDEN} (")
    assert any(folder.iterdir())
