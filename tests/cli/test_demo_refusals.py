"""`budgetlab demo` refuses before its story what it cannot finish, by its flags: it printed the
summary, the episodes and the incident, then failed (a bad --gap after the summary; a window as
long as the sample in the closing verdicts, in the API's words "window="; an unknown --by as
"events has no column").

Oracle: the sample's span, 2026-10-06 00:00:06 .. 2026-10-08 23:59:53 UTC (the dataset's own
description: three days), so 2 d 23 h in the package's truncating words."""

from __future__ import annotations

import pytest

from budgetlab.cli import main


@pytest.mark.parametrize(("argv", "words"), [
    # demo.parquet: 2026-10-06 00:00:06.020 .. 2026-10-08 23:59:53.514, 2 d 23 h 59 min 47.494 s
    (["--window", "3d"], "the demo's sample spans 2 d 23 h 59 min 47 s, no longer than the 3 d "
     "window: its closing verdicts count the time after the first window, which leaves none; "
     "give a shorter --window (the demo's default: 24 h)."),
    (["--by", "region,nosuch"], "--by region,nosuch: the demo's sample has no column 'nosuch'; "
     "its group keys are captcha_type, region, sitekey."),
    (["--gap=abc"], "--gap abc is not a duration"),
])
def test_refused_before_the_story_by_its_flag(argv, words, capsys):
    assert main(["demo", *argv]) == 2
    printed = capsys.readouterr()
    assert printed.out == ""  # nothing of the story before the refusal
    assert words in printed.err and "window=" not in printed.err
