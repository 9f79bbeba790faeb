"""The command line speaks command line (issue 29, point 7): every message a command prints names
the command's own flags (``--slow-above 2s``), never the API's keyword arguments
(``slow_above='2s'``); the API keeps its keywords.

Each command ``budgetlab --help`` lists runs with bad values, one case per flag checked; the
command list is read from the parser, so a new command without a case here fails the test.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest

from budgetlab import SLO
from budgetlab._util.words import cli_words, flags_as, speak
from budgetlab.cli import main
from budgetlab.cli.app import build_parser
from budgetlab.errors import ConfigError

# what speak() rewrites: name='value', name=True, name=<number> and a bare name= before a space,
# punctuation or the end (GROUP=TARGET values such as turnstile=0.97 are data, and are rejected
# by the cases below only where they spell a keyword)
KEYWORD = re.compile(r"(?<![\w-])[a-z][a-z_]*=(?:'|True\b|-?\d|(?=[\s,;.)/]|$))")

LOG = "ts,kind,ok,bucket,duration_ms\n" + "".join(
    f"2026-01-05T{h:02d}:{m:02d}:00Z,{'busy' if m % 2 else 'quiet'},{str(m % 7 != 0)},"
    f"{'success' if m % 7 else 'timeout'},{1000 + 37 * m}\n" for h in range(3) for m in range(0, 60,
                                                                                              3))
INCIDENTS = ("incident_id,start,end,scope,kind\n"
             "dip,2026-01-05T01:00:00Z,2026-01-05T01:30:00Z,kind=busy,outage\n")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("words")
    (d / "log.csv").write_text(LOG)
    (d / "incidents.csv").write_text(INCIDENTS)
    return d


def _cases(d) -> dict[str, list[tuple[list[str], str]]]:
    """Per command: (argv, the flag the message must name)."""
    log, inc = str(d / "log.csv"), str(d / "incidents.csv")
    read = [log, "--ok", "ok", "--bucket", "bucket", "--by", "kind"]
    latency = ["latency", *read, "--duration", "duration_ms", "--duration-unit", "ms",
               "--thresholds", "2s"]
    prom = ["backtest", "--prometheus", "http://127.0.0.1:9", "--total", "t", "--errors", "e",
            "--target", "0.99",
            "--policy", "workbook"]
    rules = ["export", "prometheus", "--target", "0.9", "--policy", "workbook", "--total-metric",
             "t",
             "--errors-metric", "e", str(d / "rules.yaml")]
    return {
        "demo": [(["demo", "--target", "2"], "--target"), (["demo", "--gap", "soon"], "--gap"),
                 (["demo", "--min-events", "-1"], "--min-events")],
        "replay": [(["replay", *read, "--target", "1.5"], "--target"),
                   (["replay", *read, "--window", "0h"], "--window"),
                   (["replay", *read, "--warning", "2"], "--warning"),
                   (["replay", *read, "--tz", "Mars/Base"], "--tz"),
                   (["replay", *read, "--pii", "hash"], "--salt"),
                   (["replay", *read, "--slow-above", "2s"], "--duration"),
                   (["replay", *read, "--target", "busy=0.9"], "--target")],
        "recalibrate": [(["recalibrate", *read, "--history", "soon"], "--history"),
                        (["recalibrate", *read, "--max-share", "2"], "--max-share"),
                        (["recalibrate", *read, "--step", "0"], "--step"),
                        (["recalibrate", *read, "--seed", "-1"], "--seed")],
        "compare-windows": [(["compare-windows", *read, "--windows", "1h,soon"], "--windows"),
                            (["compare-windows", *read, "--windows", ","], "--windows"),
                            (["compare-windows", *read, "--min-dwell", "soon"], "--min-dwell"),
                            (["compare-windows", *read, "--warmup", "soon"], "--warmup")],
        "buckets": [(["buckets", *read, "--freq", "soon"], "--freq"),
                    (["buckets", *read, "--plot-freq", "soon", "--plot", str(d / "b.png")],
                     "--plot-freq")],
        "incident": [(["incident", *read, "--incidents", inc, "--id", "dip", "--context", "soon"],
                      "--context"),
                     (["incident", *read, "--incidents", inc, "--id", "dip", "--policy", "nope"],
                      "--policy"),
                     (["incident", *read, "--start", "2026-01-05 02:00", "--end",
                       "2026-01-05 01:00"], "--end"),
                     (["incident", *read, "--start", "soon", "--end", "2026-01-05 01:00"],
                      "--start")],
        "alerts": [(["alerts", *read, "--incidents", inc, "--grace", "soon"], "--grace"),
                   (["alerts", *read, "--incidents", inc, "--policy", "workbook,nope"],
                    "--policy")],
        "latency": [([*latency, "--thresholds", ","], "--thresholds"),
                    ([*latency, "--quantiles", "2"], "--quantiles"),
                    ([*latency, "--client-timeout", "soon"], "--client-timeout"),
                    ([*latency, "--freq", "soon"], "--freq"),
                    ([*latency, "--target", "0.9"], "--window"),
                    ([*latency, "--window", "1h", "--n-boot", "-1"], "--n-boot")],
        "backtest": [([*prom, "--freq", "soon"], "--freq"), ([*prom, "--since", "soon"], "--since"),
                     ([*prom, "--timeout", "-1"], "--timeout"), ([*prom, "--max-series", "0"],
                                                                 "--max-series"),
                     ([*prom, "--start", "2026-01-02", "--end", "2026-01-01"], "--end"),
                     ([*prom, "--by", "a b"], "--by"), ([*prom[:-1], "nope"], "--policy")],
        "export": [(["export", "openslo", "--target", "2", str(d / "slo.yaml")], "--target"),
                   (["export", "openslo", "--target", "0.9", "--policy", "nope",
                     str(d / "slo.yaml")], "--policy"),
                   ([*rules, "--window", "0"], "--window"),
                   ([*rules[:-1], "--total-metric", "bad metric", str(d / "rules.yaml")],
                    "--total-metric")],
        "notebooks": [(["notebooks", "--html", str(d / "html"), "--timeout", "-1"], "--timeout")],
    }


def test_every_command_has_a_case(files):
    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    assert set(sub.choices) == set(_cases(files)) == set(COMMANDS)


COMMANDS = ["demo", "replay", "recalibrate", "compare-windows", "buckets", "incident", "alerts",
            "latency",
            "backtest", "export", "notebooks"]


@pytest.mark.parametrize("command", COMMANDS)
def test_messages_name_the_commands_flags(files, command, capsys):
    for argv, flag in _cases(files)[command]:
        code = main(argv)
        err = capsys.readouterr().err
        line = err.strip().splitlines()[-1]
        assert code == 2, (argv, err)
        assert line.startswith("budgetlab: error: "), (argv, err)
        assert re.search(rf"{re.escape(flag)}\b(?!-)", line), (argv, line)
        assert not KEYWORD.search(err), (argv, err)  # the "how it was read" block included


def test_the_api_keeps_its_keywords():
    with pytest.raises(ConfigError, match=r"target=1\.5 must lie in \(0, 1\)"):
        SLO(target=1.5)
    with pytest.raises(ConfigError, match=r"window='0h' is zero; give a positive duration, "
                                          r"e\.g\. window='24h'\."):
        SLO(target=0.9, window="0h")


def test_speak_rewrites_only_the_commands_flags():
    msg = "target=1.5 and window='1h' and strict=True and year= and by: 'kind=busy' kept"
    assert speak(msg) == msg  # not on the command line
    with cli_words({"target": "--target", "window": "--window", "strict": "--strict",
                    "year": "--year"}):
        assert speak(msg) == ("--target 1.5 and --window 1h and --strict and --year and by: "
                              "'kind=busy' kept")
        assert speak("by: x") == "by: x"  # not a flag of this command: left as written
        assert speak("--freq='x'") == "--freq='x'"  # a flag already: not rewritten twice
    with cli_words({"by": "--by"}):
        assert speak("by: 'a b' is not a label name") == "--by: 'a b' is not a label name"


def test_a_field_of_a_file_is_not_a_flag(tmp_path, capsys):
    """``metadata.name=`` and ``spec.target=`` are fields of the file read, written as the file
    spells them, even where the command has a flag of that name (--name, --target)."""
    with cli_words({"name": "--name", "target": "--target", "duration": "--duration"}):
        for msg in ("metadata.name='example service' is not an RFC 1123 label.",
                    "spec.target=99.5 must be a percentage as text.",
                    "spec.timeWindow[0].duration='1m' is not supported."):
            assert speak(msg) == msg
    slo = tmp_path / "pyrra.yaml"
    slo.write_text("apiVersion: pyrra.dev/v1alpha1\nkind: ServiceLevelObjective\n"
                   "metadata:\n  name: api-errors\nspec:\n  target: 99.5\n  window: 2w\n"
                   "  indicator:\n    ratio:\n      errors:\n        metric: a_total{code=\"5\"}\n"
                   "      total:\n        metric: a_total\n")
    assert main(["export", "prometheus", "--slo", str(slo), str(tmp_path / "rules.yaml")]) == 2
    assert capsys.readouterr().err == (
        "budgetlab: error: pyrra.yaml, ServiceLevelObjective 'api-errors': spec.target=99.5 must "
        'be a percentage as text (e.g. "99.5").\n')


def test_flags_as_renames_a_keyword_for_one_call():
    with cli_words({"window": "--window"}):
        with pytest.raises(ConfigError, match=r"^--windows soon is not"):
            with flags_as(window="--windows"):
                raise ConfigError("window='soon' is not a duration.")
    with pytest.raises(ConfigError, match=r"^window='soon'"):  # the API: unchanged
        with flags_as(window="--windows"):
            raise ConfigError("window='soon' is not a duration.")


def test_export_policy_choices_are_the_presets():
    from budgetlab.interop.prometheus import POLICY_PRESETS

    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    export = sub.choices["export"]
    (fmt,) = [a for a in export._actions if a.choices and "openslo" in a.choices]
    for name in ("openslo", "prometheus"):
        (policy,) = [a for a in fmt.choices[name]._actions if "--policy" in a.option_strings]
        assert tuple(policy.choices) == POLICY_PRESETS


def test_notebooks_take_the_clis_label_mapping():
    from budgetlab.analyses.history import outcome_labels, target_table
    from budgetlab.cli.reading import parse_outcomes
    from budgetlab.datasets import load

    text = "2xx=success,4xx=skip,5xx=server_error"
    assert outcome_labels(text) == parse_outcomes(text) == {"2xx": "success", "4xx": "skip",
                                                            "5xx": "server_error"}
    events = load("demo")
    table = target_table(events, by="captcha_type", target=0.95, overrides="turnstile=0.97")
    assert dict(zip(table["captcha_type"], table["target"], strict=True)) == {
        "recaptcha_v2": 0.95, "turnstile": 0.97, "image": 0.95}


def test_incident_scope_messages_name_where_the_scope_came_from(files, capsys):
    """A scope naming a key the log was not read with: ``--scope`` when the flag gave it, the
    incidents file when its scope column did; the fix names ``--by``."""
    read = [str(files / "log.csv"), "--ok", "ok", "--bucket", "bucket"]
    window = ["--start", "2026-01-05 01:00", "--end", "2026-01-05 01:30"]
    assert main(["incident", *read, *window, "--scope", "region=fra"]) == 2
    line = capsys.readouterr().err.strip().splitlines()[-1]
    # the log has no column region: no --by can read it (since stop 59; it said "give --by
    # region", which the reader refuses)
    assert line.startswith("budgetlab: error: --scope names 'region', which is not a column of "
                           "the log")
    assert "--by region" not in line
    assert main(["incident", *read, "--incidents", str(files / "incidents.csv")]) == 2
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert "the scope of incident 'dip' in " in line
    assert "incidents.csv names column 'kind'" in line
    assert "--by kind" in line and "--scope" not in line


def test_incident_breakdown_by_a_key_not_read_names_the_flags(files, capsys):
    """``--breakdown-by kind`` on a log read without ``--by kind``: the message names both flags
    (it said "events has no column 'kind'", which names no flag)."""
    read = [str(files / "log.csv"), "--ok", "ok", "--bucket", "bucket"]
    window = ["--start", "2026-01-05 01:00", "--end", "2026-01-05 01:30"]
    assert main(["incident", *read, *window, "--breakdown-by", "kind"]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "budgetlab: error: --breakdown-by names column 'kind', which the log was not read with: "
        "the log keeps only the --by keys; give --by kind (the tracker then runs per 'kind' too).")


@pytest.fixture(scope="module")
def sparse_log(tmp_path_factory):
    """20 days, an event every 48 minutes (30 a day), four failures in a row every 80 events: a 3 h
    window holds ~4 events and is all failures ~5 % of the time, so no usual target meets the
    rule and the note says what would make one possible."""
    start = pd.Timestamp("2026-01-01", tz="UTC")
    rows = [f"{start + pd.Timedelta(minutes=48 * i):%Y-%m-%dT%H:%M:%SZ},{i % 80 >= 4}\n"
            for i in range(600)]
    path = tmp_path_factory.mktemp("sparse") / "sparse.csv"
    path.write_text("ts,ok\n" + "".join(rows))
    return path


def test_recalibrate_prints_its_notes_in_flags(sparse_log, capsys):
    argv = ["recalibrate", str(sparse_log), "--ok", "ok", "--window", "3h", "--n-boot", "0"]
    assert main([*argv, "--target", "0.95"]) == 0
    out = capsys.readouterr().out
    assert "note: no target meets the rule" in out
    flat = " ".join(out.split())
    assert "use a longer window (--window " in flat and "or --min-events 100" in flat
    assert not KEYWORD.search(out) and "CLI" not in out
    assert main(argv) == 0  # no current target: said in flags too
    flat = " ".join(capsys.readouterr().out.split())
    assert "no current target given (--target or --slo)" in flat
    # a min_events already as high as the note would ask is not asked for again
    assert main([*argv, "--target", "0.95", "--min-events", "100"]) == 0
    assert "--min-events" not in " ".join(capsys.readouterr().out.split()).partition("note:")[2]


@pytest.mark.parametrize("flag", [["--min-events", "100"], ["--warning", "0.6"]])
def test_recalibrate_refuses_slo_flags_it_would_drop(sparse_log, capsys, flag):
    """Without a current target recalibrate replays SLO()'s statuses: a --min-events or
    --warning given alone would be dropped silently, so it is refused with the fix."""
    assert main(["recalibrate", str(sparse_log), "--ok", "ok", "--n-boot", "0", *flag]) == 2
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert line.startswith(f"budgetlab: error: {flag[0]} ") and "--target" in line


def test_durations_in_prose_are_spelled_one_way(files, capsys):
    """The SLO header, the silences line and the warm-up count say a window as prose_duration
    does (``24 h``, ``3 d``), as the demo's story and the incident text do."""
    assert main(["replay", str(files / "log.csv"), "--ok", "ok", "--window", "1d"]) == 0
    out = capsys.readouterr().out
    assert "window 24 h," in out and "Silences longer than the window (24 h)" in out
    assert "in the log's first 24 h, while the windows fill" in out
    assert not re.search(r"\b\d+[dhm]\b(?! \()", out.replace("24 h", ""))


def test_slo_header_names_min_events_by_the_commands_flag(files, capsys):
    """The SLO line a command prints says ``--min-events 5`` (the flag that sets it); outside the
    command line, or for a command without that flag, the API name without ``=``."""
    from budgetlab.cli.reading import describe_slo

    assert main(["replay", str(files / "log.csv"), "--ok", "ok", "--min-events", "5"]) == 0
    header = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("SLO: "))
    assert header.endswith(", --min-events 5") and "min_events" not in header
    slo = SLO(0.9, min_events=5)
    assert describe_slo(slo, []).endswith(", min_events 5")
    with cli_words({"target": "--target"}):  # a command without --min-events
        assert describe_slo(slo, []).endswith(", min_events 5")


@pytest.mark.parametrize(("p10", "verdict_name", "burn"), [
    (0.99, "too_loose", "burns at most 0.2 "), (0.9, "ok", "burns at most 2 ")])
def test_recalibration_reasons_name_loose_burn_without_a_keyword(p10, verdict_name, burn):
    """The reason that cites ``loose_burn`` says its value after the name (never ``name=``), and
    the flag instead where a command has one; the numbers are hand-computed: 9 hours in 10 the
    window burns (1 - p10) / (1 - 0.95) of its budget, 0.2 or 2."""
    from budgetlab.analyses.recalibration.verdict import verdict

    def reason() -> str:
        got = verdict(0.95, 0.0, p10, 0.97, 0.96, 0.98, max_share=0.01,
                      limit_status="exhausted", loose_burn=0.25)
        assert got[0] == verdict_name
        return got[1]

    assert burn in reason() and "(limit: loose_burn 0.25)" in reason()
    with cli_words({"min_events": "--min-events"}):  # recalibrate: no --loose-burn
        # the value only: a keyword the command line cannot set is no word for its user
        assert "(limit: 0.25)" in reason() and "loose" not in reason()
        assert not KEYWORD.search(reason())
    with cli_words({"loose_burn": "--loose-burn"}):
        assert "(limit: --loose-burn 0.25)" in reason() and "loose_burn 0" not in reason()


@pytest.mark.parametrize(("p10", "words"), [
    # (1 - 1.0) / (1 - 0.95) = 0: nothing spent, where it read "burns under 0.00 of its budget"
    (1.0, "the 24 h window spends none of its budget"),
    # (1 - 0.9998) / 0.05 = 0.004, which two decimals said as 0.00
    (0.9998, "the 24 h window burns at most 0.004 of its budget"),
    # (1 - 0.995) / 0.05 = 0.1, which two decimals padded to 0.10
    (0.995, "the 24 h window burns at most 0.1 of its budget"),
    # (1 - 0.99 - 5e-11) / 0.05 = 0.2 - 1e-9: three significant digits, 0.2 (never 0.199999999)
    (0.99 + 5e-11, "the 24 h window burns at most 0.2 of its budget"),
    # (1 - 0.99989) / 0.05 = 0.0022, which two decimals said as 0.00
    (0.99989, "the 24 h window burns at most 0.0022 of its budget"),
])
def test_a_loose_target_says_a_zero_burn_plainly(p10, words):
    from budgetlab.analyses.recalibration.verdict import verdict

    got = verdict(0.95, 0.0, p10, 0.97, 0.96, 0.98, max_share=0.01, limit_status="exhausted",
                  loose_burn=0.25, window="24 h window")
    assert got[0] == "too_loose"
    # one "under", the target's: "burns under 0.2 of its budget under 0.95" said it twice
    assert (f"budget barely moves: under 0.95, 9 hours in 10 {words} (limit: loose_burn 0.25)"
            in got[1])
    assert got[1].count("under") == 1
    assert "0.00 of its budget" not in got[1]
