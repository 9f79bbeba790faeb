"""An output path typed relative to the home folder (``~/nonexist/x.csv``) is named as typed
when refused, as a path relative to the working folder is; an absolute path keeps showing its
name only (it may hold the user's login)."""

from __future__ import annotations

import pytest

from budgetlab._util.files import check_output
from budgetlab.errors import ConfigError


def test_a_missing_folder_under_the_home_folder_is_named_as_typed(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    with pytest.raises(ConfigError) as info:
        check_output("~/nonexist/x.csv", option="--out")
    assert str(info.value) == "--out: folder '~/nonexist' does not exist; create it first."
    with pytest.raises(ConfigError) as info:
        check_output(str(tmp_path / "nonexist" / "x.csv"), option="--out")
    assert str(info.value) == "--out: folder 'nonexist' does not exist; create it first."
