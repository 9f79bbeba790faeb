"""Files that share a name (a hive layout: date=.../part.parquet) are told apart in "how it was
read" by the shortest ending of their path that is their own, not listed as part.parquet three
times."""

from __future__ import annotations

import budgetlab as bl
from budgetlab.cli import main
from tests.hive_files import WANT, hand_hive


def test_hive_files_are_named_by_their_folder_and_name(tmp_path):
    hive = hand_hive(tmp_path)
    events = bl.read_events(str(hive / "*" / "part.parquet"))
    assert events.attrs["how_read"]["files"] == WANT
    assert str(bl.how_read(events)).splitlines()[0] == (
        "how it was read: 3 files: date=2026-01-01/part.parquet, date=2026-01-02/part.parquet, "
        "date=2026-01-03/part.parquet (6 rows)")


def test_only_names_that_repeat_take_their_folders(tmp_path):
    # a/x/day.csv and b/x/day.csv share x/day.csv too: a/x/day.csv; c.csv is its own
    for folder in ("a/x", "b/x", "."):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    paths = [tmp_path / "a/x/day.csv", tmp_path / "b/x/day.csv", tmp_path / "c.csv"]
    for i, path in enumerate(paths):
        path.write_text(f"ts,outcome\n2026-01-0{i + 1}T00:00:00Z,success\n")
    events = bl.read_events([str(p) for p in paths])
    assert [f["name"] for f in events.attrs["how_read"]["files"]] == \
        ["a/x/day.csv", "b/x/day.csv", "c.csv"]


def test_text_logs_that_share_a_name_are_told_apart(tmp_path):
    paths = []
    for day, host in enumerate(("web1", "web2"), start=1):
        (tmp_path / host).mkdir()
        paths.append(tmp_path / host / "app.log")
        paths[-1].write_text(f"2026-01-0{day}T00:00:00Z ok\n2026-01-0{day}T00:01:00Z failed\n")
    events = bl.read_events([str(p) for p in paths],
                            pattern=r"^(?P<ts>\S+) (?P<outcome>\w+)$")
    assert events.attrs["how_read"]["files"] == [{"name": "web1/app.log", "rows": 2},
                                                 {"name": "web2/app.log", "rows": 2}]


def test_the_command_line_names_hive_files_apart(tmp_path, capsys):
    hive = hand_hive(tmp_path)
    assert main(["replay", str(hive / "*" / "part.parquet"), "--target", "0.9",
                 "--window", "1h"]) == 0
    first = capsys.readouterr().err.splitlines()[0]
    assert first == ("how it was read: 3 files: date=2026-01-01/part.parquet, "
                     "date=2026-01-02/part.parquet, date=2026-01-03/part.parquet (6 rows)")
