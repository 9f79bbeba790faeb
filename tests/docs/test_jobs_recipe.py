"""docs/cli.md ("Example files") gives a wheel user the recipe that writes ``jobs.csv``: it writes
the repository's fixture byte for byte, so every page's figures about ``jobs.csv`` hold for it."""

import csv
import os
from collections import Counter

from tests.docs.doc_blocks import DOCS, ROOT, blocks

FIXTURE = ROOT / "tests" / "fixtures" / "jobs" / "job_status.csv"


def test_the_recipe_writes_the_fixture(tmp_path, monkeypatch):
    recipe = [b for b in blocks(DOCS / "cli.md")
              if b.language == "python" and 'open("jobs.csv"' in b.code]
    assert len(recipe) == 1, "docs/cli.md shows one recipe that writes jobs.csv"
    monkeypatch.chdir(tmp_path)
    exec(compile(recipe[0].code, recipe[0].where, "exec"), {})
    written = tmp_path / "jobs.csv"
    assert written.read_bytes() == FIXTURE.read_bytes()
    # tests/fixtures/jobs/README.md: the hand counts of the states (200 rows)
    with open(written, newline="", encoding="utf-8") as fh:
        states = Counter(row["state"] for row in csv.DictReader(fh))
    assert states == {"Succeeded": 140, "succeeded\u200b": 20, "FAILED": 12, "Timed out": 8,
                      "pending": 9, "running": 6, "cancelled": 5}
    assert os.path.getsize(written) == FIXTURE.stat().st_size


def test_own_log_page_says_how_a_wheel_user_gets_it():
    text = " ".join((DOCS / "own-log.md").read_text(encoding="utf-8").split())
    said = "from a wheel, write `jobs.csv` with the recipe in [example files](cli.md#example-files)"
    assert said in text
