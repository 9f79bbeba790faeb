"""Fixtures of the docs tests: the sample files every page's examples may use."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.docs.doc_blocks import FIXTURE_COPIES, SAMPLE_FILES_CODE


@pytest.fixture(scope="session")
def sample_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the sample files, made once per session."""
    folder = tmp_path_factory.mktemp("doc_samples")
    here = os.getcwd()
    os.chdir(folder)
    try:
        exec(compile(SAMPLE_FILES_CODE, "<sample files>", "exec"), {})
    finally:
        os.chdir(here)
    for name, src in FIXTURE_COPIES.items():
        shutil.copyfile(src, folder / name)
    return folder


@pytest.fixture
def page_dir(tmp_path: Path, sample_dir: Path) -> Path:
    """A fresh working folder for one page, holding the sample files."""
    for src in sample_dir.iterdir():
        shutil.copyfile(src, tmp_path / src.name)
    return tmp_path
