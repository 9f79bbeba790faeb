"""``export openslo --from-recalibration`` names the row of the user's file in every refusal,
the header not counted, even after it has left out the rows without a target; the API takes the
rows' numbers as ``rows=`` (default: their positions). Every table written by hand; the row
numbers counted by hand in the comments."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main
from budgetlab.errors import ConfigError
from budgetlab.interop.openslo import slos_from_recalibration

# data row 1 (image) has no target and is left out; data row 2 (recaptcha_v2) is the faulty one
HEAD = "captcha_type,events,current_target,verdict,recommended_target,recommendation_note\n"
LEFT_OUT = "image,100,0.9,,,too few events\n"
LAST = "turnstile,800,0.97,ok,0.97,\n"


def _export(tmp_path, text: str) -> int:
    (tmp_path / "rec.csv").write_text(text, encoding="utf-8")
    return main(["export", "openslo", "--from-recalibration", str(tmp_path / "rec.csv"),
                 "--window", "1h", str(tmp_path / "rec.yaml")])


@pytest.mark.parametrize("faulty, said", [
    # a target out of range, refused as the table's cell (not as --target, which is not given)
    ("recaptcha_v2,900,0.95,too_strict,1.5,\n",
     "row 2: recommended_target 1.5 is not a target (a fraction in (0, 1), such as 0.95); if 1.5 "
     "is a percentage, write the fraction 0.015 in the table."),
    # an empty group key (a CSV cell is read as text: ""), never written as a group of its own
    ("  ,900,0.95,too_strict,0.93,\n",
     "row 2: the group key captcha_type is missing; every row names its group."),
    # the current target the action keeps (verdict ok), named as the column it came from
    ("recaptcha_v2,900,0,ok,0.93,\n",
     "row 2: current_target 0 is not a target (a fraction in (0, 1), such as 0.95)."),
    # a current target that is no number, refused where the action's target is read
    ("recaptcha_v2,900,abc,ok,0.93,\n",
     "row 2: current_target is not a number; give targets such as 0.95."),
])
def test_a_refusal_names_the_files_row_after_a_row_was_left_out(tmp_path, capsys, faulty, said):
    assert _export(tmp_path, HEAD + LEFT_OUT + faulty + LAST) == 2
    out, err = capsys.readouterr()
    assert out.startswith("left out 1 group without a recommended_target: image")
    assert err == f"budgetlab: error: {said}\n", err
    assert "row 1" not in err
    # the same row is row 2 with nothing left out before it
    assert _export(tmp_path, HEAD + faulty + LEFT_OUT + LAST) == 2
    assert capsys.readouterr().err.startswith("budgetlab: error: row 1: ")


def test_the_api_names_the_rows_it_is_given():
    table = pd.DataFrame({"captcha_type": ["recaptcha_v2", None],
                          "recommended_target": [0.93, 0.97]})
    with pytest.raises(ConfigError, match=r"^row 2: the group key captcha_type is missing"):
        slos_from_recalibration(table, by="captcha_type", window="1h")
    # the two rows are the file's rows 4 and 7 (the caller left out the others)
    with pytest.raises(ConfigError, match=r"^row 7: the group key captcha_type is missing"):
        slos_from_recalibration(table, by="captcha_type", window="1h", rows=[4, 7])
    with pytest.raises(ConfigError, match=r"^rows= has 1 number; the recalibration table has 2 "
                                          r"rows: give one number per row\.$"):
        slos_from_recalibration(table, by="captcha_type", window="1h", rows=[4])
