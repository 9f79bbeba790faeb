"""The refusal of times that do not match ``--time-format`` agrees in number with the lines it
names (stop 62's stranger: "times at line 3 ... do not match" for one line)."""

from __future__ import annotations

from budgetlab.cli import main

PATTERN = r"^(?P<ts>\S+ \S+) (?P<outcome>\w+)"
FORMAT = "%Y-%m-%d %H:%M:%S"


def refusal(tmp_path, capsys, lines):
    path = tmp_path / "app.log"
    path.write_text("".join(f"{x}\n" for x in lines))
    assert main(["replay", str(path), "--pattern", PATTERN, "--time-format", FORMAT,
                 "--target", "0.9", "--window", "1h"]) == 2
    printed = capsys.readouterr()
    assert printed.out == "" and len(printed.err.strip().splitlines()) == 1
    return printed.err.strip()


def test_one_line_is_singular(tmp_path, capsys):
    # line 3 is written with slashes and no seconds: the only line not in the format
    err = refusal(tmp_path, capsys, ["2026-10-05 00:00:00 ok", "2026-10-05 00:01:00 ok",
                                     "2026/10/05 00:02 ok", "2026-10-05 00:03:00 failed"])
    assert err == ("budgetlab: error: the time at line 3 of app.log does not match the time "
                   "format '%Y-%m-%d %H:%M:%S'; check --time-format, fix it, or pass --on-error "
                   "skip to leave that line out (with a warning).")


def test_several_lines_are_plural(tmp_path, capsys):
    # lines 3, 7 and 9 are not in the format (hand-placed)
    lines = [f"2026-10-05 00:0{i}:00 ok" for i in range(9)]
    for k in (3, 7, 9):
        lines[k - 1] = f"2026/10/05 00:0{k - 1} ok"
    err = refusal(tmp_path, capsys, lines)
    assert err == ("budgetlab: error: times at lines 3, 7, 9 of app.log do not match the time "
                   "format '%Y-%m-%d %H:%M:%S'; check --time-format, fix them, or pass "
                   "--on-error skip to leave those lines out (with a warning).")
