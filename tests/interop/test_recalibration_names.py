"""Groups of a recalibration table whose SLO names collide (``a b``, ``a-b`` and ``A B`` are all
``a-b`` as RFC 1123 names) are refused naming the groups, their rows and the name, with the fix;
the refusal said only "SLO names must be unique within one file." (stop 55, item 5)."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, ConfigError
from budgetlab.cli import main
from budgetlab.interop.openslo import SLODocument, slos_from_recalibration, write_openslo

WANT = ("the groups 'a b' (row 1), 'a-b' (row 2) and 'A B' (row 3) would share the SLO name "
        "'a-b' (an SLO is named after its group as an RFC 1123 name: lower-case letters, digits "
        "and -), and SLO names must be unique within one file: rename the groups in the table so "
        "that they differ in letters or digits, or write them to separate files.")


def _table() -> pd.DataFrame:
    return pd.DataFrame({"svc": ["a b", "a-b", "A B", "c"], "window": ["1h"] * 4,
                         "recommended_target": [0.99, 0.95, 0.9, 0.9]})


def test_slos_from_recalibration_names_the_colliding_groups():
    with pytest.raises(ConfigError) as caught:
        slos_from_recalibration(_table(), by="svc")
    assert str(caught.value) == WANT


def test_export_openslo_names_the_colliding_groups(tmp_path, capsys):
    rec = tmp_path / "rec.csv"
    _table().to_csv(rec, index=False)
    assert main(["export", "openslo", "--from-recalibration", str(rec), "--by", "svc",
                 str(tmp_path / "o.yaml")]) == 2
    assert " ".join(capsys.readouterr().err.split()) == f"budgetlab: error: {WANT}"
    assert not (tmp_path / "o.yaml").exists()


def test_two_documents_of_one_name_are_named(tmp_path):
    docs = [SLODocument("solve", SLO(0.9)), SLODocument("solve", SLO(0.99))]
    with pytest.raises(ConfigError, match="two SLOs are named 'solve'; SLO names must be unique "
                                          "within one file: rename one."):
        write_openslo(docs, tmp_path / "o.yaml")
