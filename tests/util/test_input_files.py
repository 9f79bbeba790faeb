"""The one refusal of an input path that is not a regular file (budgetlab._util.inputs.
check_input_file); each reader's use of it is tested in tests/adversarial/test_input_paths.py.

Oracle: the sentences below, written by hand.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from budgetlab._util.inputs import check_input_file
from budgetlab.errors import ConfigError, FileFormatError

GIVE = "give a CSV file"


def test_a_regular_file_and_a_symlink_to_one_pass(tmp_path):
    (tmp_path / "a.csv").write_text("x")
    os.symlink(tmp_path / "a.csv", tmp_path / "link.csv")
    assert check_input_file(tmp_path / "a.csv", name="a.csv", give=GIVE) is None
    assert check_input_file(tmp_path / "link.csv", name="link.csv", give=GIVE) is None


def test_a_dangling_symlink_is_missing(tmp_path):
    os.symlink(tmp_path / "gone.csv", tmp_path / "link.csv")
    with pytest.raises(FileFormatError) as info:
        check_input_file(tmp_path / "link.csv", name="link.csv", give=GIVE)
    assert str(info.value) == "link.csv: no such file; give a CSV file."


def test_a_symlink_loop_says_why_it_cannot_be_read(tmp_path):
    os.symlink(tmp_path / "b.csv", tmp_path / "a.csv")
    os.symlink(tmp_path / "a.csv", tmp_path / "b.csv")
    with pytest.raises(FileFormatError) as info:
        check_input_file(tmp_path / "a.csv", name="a.csv", give=GIVE)
    assert str(info.value) == (f"a.csv: cannot be read ({os.strerror(errno.ELOOP)}); "
                               "give a CSV file.")


def test_a_device_and_the_callers_error_class(tmp_path):
    with pytest.raises(ConfigError) as info:
        check_input_file(tmp_path / "nope.ipynb", name="nope.ipynb", give="give a notebook",
                         error=ConfigError)
    assert str(info.value) == "nope.ipynb: no such file; give a notebook."
    with pytest.raises(FileFormatError) as info:
        check_input_file(Path(os.devnull), name="null", give=GIVE)
    assert str(info.value) == "null: is a device, not a regular file; give a CSV file."
