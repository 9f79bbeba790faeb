"""The edges a stranger found exporting budgetlab's rules into a real Prometheus and backtesting
against it: an errors selector that matches nothing (read as no failures), credentials refused
said as credentials missing (and requests sent after the refusal), https to a plain-HTTP server,
credentials given twice, and a tier whose long window never filled said "not evaluated" above
its episodes. The fake server runs on 127.0.0.1 and is stopped by its fixture."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main
from budgetlab.errors import ConfigError, InputError, ServerError
from budgetlab.interop import prometheus_span
from budgetlab.interop.prometheus_source import read_prometheus
from tests.interop.test_prometheus_hostile import (
    START,
    Fake,
    N,
    _backtest,
    _matrix,
    _read,
    _values,
    serving,
)


@pytest.fixture()
def fake():
    with serving(Fake()) as server:
        yield server


def _by_counter(total: list[dict], errors: list[dict]):
    """Count queries: ``total`` for a_total's, ``errors`` for b_total's."""
    return lambda h, body: h.send(200, _matrix(errors if "b_total" in body["query"][0]
                                               else total))


# -- 1. an errors selector that matches nothing ----------------------------------------------------

def test_an_errors_selector_matching_no_series_is_refused_naming_it(fake, capsys):
    fake.act = _by_counter([{"metric": {}, "values": _values("5")}], [])
    with pytest.raises(InputError) as info:
        _read(fake.url)
    # hand: bins 00:00 .. 00:10 of 2026-01-05 (N = 10 one-minute bins)
    assert str(info.value).startswith(
        "errors='b_total' returned no series between 2026-01-05 00:00 and 2026-01-05 00:10 UTC; "
        "check its metric name and labels"), info.value
    assert "a counter that exists at 0 is read" in str(info.value)
    rc, err = _backtest(fake.url, capsys)
    assert rc == 2 and err.count("\n") == 1, err
    assert err.startswith("budgetlab: error: --errors b_total returned no series"), err


def test_a_good_selector_matching_no_series_is_refused_too(fake):
    fake.act = lambda h, body: h.send(200, _matrix(
        [] if "g_total" in body["query"][0] else [{"metric": {}, "values": _values("5")}]))
    with pytest.raises(InputError, match=r"^good='g_total' returned no series between "
                                         r"2026-01-05 00:00 and 2026-01-05 00:10 UTC"):
        read_prometheus(fake.url, total="a_total", good="g_total", start=START,
                        end=START + N * pd.Timedelta("1min"))


def test_some_groups_without_errors_series_are_read_as_0_and_warned(fake, capsys):
    both = [{"metric": {"region": r}, "values": _values("5")} for r in ("ams", "fra")]
    fake.act = _by_counter(both, [{"metric": {"region": "fra"}, "values": _values("2")}])
    with pytest.warns(prometheus_span.AbsentSeriesWarning,
                      match="errors: 1 group has no errors series in the span; read as 0 errors"):
        bins = _read(fake.url, by="region")
    bad = bins.groupby("region", observed=True)["bad"].sum().to_dict()
    assert bad == {"ams": 0, "fra": 2 * N}  # hand: ams has no errors series, fra 2 a minute
    rc, err = _backtest(fake.url, capsys, "--by", "region")
    assert rc == 0, err
    assert "budgetlab: warning: --errors: 1 group has no errors series in the span" in err


# -- 3. credentials refused; nothing sent after a 401 ----------------------------------------------

def _refusing(fake: Fake, code: int) -> None:
    fake.act = lambda h, body: h.send(code, b"")
    fake.series_act = lambda h, body: h.send(code, b"")


@pytest.mark.parametrize("kw, said", [
    ({"headers": {"Authorization": "Bearer nope"}},
     "refused the credentials given (HTTP 401); check the value of the Authorization header "
     "(headers=)."),
    ({"user": "u:wrong@"}, "refused the credentials given (HTTP 401); check the user and password "
                           "in the URL (url=)."),
    ({}, "refused access (HTTP 401); give credentials with headers= 'Authorization: ...' or "
         "user:password@ in the URL."),
])
def test_a_401_says_whether_credentials_were_given_and_stops_the_read(fake, kw, said):
    _refusing(fake, 401)
    url = fake.url.replace("http://", "http://" + kw.pop("user", ""))
    with pytest.raises(ConfigError) as info:
        _read(url, **kw)
    assert str(info.value).endswith(said), info.value
    # hand: the first request (/api/v1/series) is refused; not one request after it
    assert [path for path, _ in fake.seen] == ["/api/v1/series"]


def test_a_401_on_the_command_line_names_the_header_flag(fake, capsys):
    _refusing(fake, 401)
    rc, err = _backtest(fake.url, capsys, "--header", "Authorization: Bearer nope")
    assert rc == 2 and err.count("\n") == 1, err
    assert "refused the credentials given (HTTP 401); check the value of the Authorization " \
           "header (--header)." in err and "nope" not in err
    assert len(fake.seen) == 1


def test_a_403_with_credentials_says_they_give_no_access(fake):
    _refusing(fake, 403)
    with pytest.raises(ConfigError, match=r"refused access with the credentials given \(HTTP "
                                          r"403\)"):
        _read(fake.url, headers={"Authorization": "Bearer ok-but-not-here"})
    assert len(fake.seen) == 1


# -- 4. https:// to a plain-HTTP server -----------------------------------------------------------

def test_https_to_a_plain_http_server_says_to_use_http(fake, capsys):
    url = fake.url.replace("http://", "https://")
    with pytest.raises(ServerError) as info:
        _read(url)
    assert f"Prometheus at {url} does not speak TLS at that address (" in str(info.value)
    assert str(info.value).endswith("; use http:// in place of https://.")
    assert "try again" not in str(info.value)


# -- 5. credentials given twice --------------------------------------------------------------------

def test_user_info_and_an_authorization_header_at_once_are_refused_before_sending(fake, capsys):
    url = fake.url.replace("http://", "http://u:pw@")
    with pytest.raises(ConfigError, match=r"^url= holds user:password@ and headers= an "
                                          r"Authorization header: give the credentials one way"):
        _read(url, headers={"authorization": "Bearer x"})
    rc, err = _backtest(url, capsys, "--header", "Authorization: Bearer x")
    assert rc == 2 and err.count("\n") == 1 and "--prometheus holds user:password@ and " \
        "--header an Authorization header" in err, err
    assert fake.seen == []  # nothing sent
    # one of them alone is sent as given (hand: base64 of "u:pw" is dTpwdw==)
    _read(url)
    assert fake.seen[-1][1]["Authorization"] == "Basic dTpwdw=="


# -- 6. a tier whose long window never filled: listed, not scored ----------------------------------

def test_the_header_says_the_unfilled_tiers_episodes_are_listed_but_not_scored(fake, capsys):
    # every event fails (5 of 5) for 10 min: the long windows of every workbook tier (1 h and
    # more) never fill, and the tiers fire: their episodes are listed
    start = pd.Timestamp("2026-01-05 00:00")
    rc = main(["backtest", "--prometheus", fake.url, "--total", "a_total", "--errors", "b_total",
               "--target", "0.99", "--policy", "workbook", "--start", str(start),
               "--end", str(start + N * pd.Timedelta("1min")), "--freq", "1min"])
    out = " ".join(capsys.readouterr().out.split())
    assert rc == 0
    assert "never filled in the 10 min span: their episodes are listed (filling) but not " \
           "scored (--incidents scores them apart)" in out, out
    assert "not evaluated" not in out
    assert " page_1h " in out  # the tier's episodes are in the table the header speaks of


# -- 7. the Workbook at 28 d: the window rounded to the minute is said ---------------------------

@pytest.mark.parametrize("period, said", [
    # hand: 5 min x 28/30 = 280 s = 4m40s, rounded to 5m; x 7/30 = 70 s = 1m10s, rounded to 1m;
    # every other window scales to whole minutes (1 h x 28/30 = 56 min, 30 min x 7/30 = 7 min)
    ("28d", "page_1h's short window rounded to the minute: 5m x 28 d / 30 d is 4m40s, 5m written "
            "(Pyrra's rule)"),
    ("7d", "page_1h's short window rounded to the minute: 5m x 7 d / 30 d is 1m10s, 1m written "
           "(Pyrra's rule)"),
])
def test_the_workbook_s_window_rounded_at_another_period_is_said(tmp_path, capsys, period, said):
    rc = main(["export", "prometheus", str(tmp_path / "r.yaml"), "--total-metric", "a_total",
               "--errors-metric", "e_total", "--target", "0.999", "--period", period,
               "--policy", "workbook"])
    out = " ".join(capsys.readouterr().out.split())
    assert rc == 0
    assert said in out, out
    assert out.count("rounded to the minute") == 1


def test_the_workbook_at_30_d_says_no_rounding(tmp_path, capsys):
    rc = main(["export", "prometheus", str(tmp_path / "r.yaml"), "--total-metric", "a_total",
               "--errors-metric", "e_total", "--target", "0.999", "--policy", "workbook"])
    out = capsys.readouterr().out
    assert rc == 0 and "page_1h 14.4 over 1h/5m" in out and "rounded" not in out


# -- 2. a per-group SLO file backtested with the counters named on the command line -------------

_SLO = ("apiVersion: openslo/v1\nkind: SLO\n"
        "metadata: {name: NAME, labels: {region: REGION}}\n"
        "spec: {service: api, indicatorRef: requests, budgetingMethod: Occurrences,\n"
        "  timeWindow: [{duration: 30d, isRolling: true}], objectives: [{target: TARGET}]}\n")


def _per_group_file(tmp_path) -> str:
    path = tmp_path / "rec.yaml"
    path.write_text("---\n".join(_SLO.replace("NAME", n).replace("REGION", n).replace("TARGET", t)
                                 for n, t in (("fra", "0.999"), ("ams", "0.99"))))
    return str(path)


def _two_regions(fake: Fake) -> None:
    """100 events a minute in each region, 2 of them failed: an error ratio of 0.02."""
    fake.act = _by_counter(
        [{"metric": {"region": r}, "values": _values("100")} for r in ("ams", "fra")],
        [{"metric": {"region": r}, "values": _values("2")} for r in ("ams", "fra")])


def _episodes(fake: Fake, tmp_path, slo: str, capsys) -> tuple[int, str, pd.DataFrame | None]:
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    rc = main(["backtest", "--prometheus", fake.url, "--slo", slo, "--total", "a_total",
               "--errors", "b_total", "--by", "region", "--policy", "workbook",
               "--start", str(START.tz_localize(None)),
               "--end", str((START + N * pd.Timedelta("1min")).tz_localize(None)),
               "--out", str(out / "episodes.csv")])
    text = capsys.readouterr()
    if rc:
        return rc, text.err, None
    return rc, " ".join(text.out.split()), pd.read_csv(out / "episodes.csv")


def test_a_per_group_slo_file_gives_each_group_its_target(fake, tmp_path, capsys):
    _two_regions(fake)
    rc, said, ep = _episodes(fake, tmp_path, _per_group_file(tmp_path), capsys)
    assert rc == 0 and ep is not None, said
    # hand: a constant error ratio 0.02 burns at 0.02 / 0.001 = 20 in fra (target 0.999) over
    # every window, above every workbook factor (14.4, 6, 3, 1): all four tiers fire, each once
    # from the first bin on; in ams (0.99) at 0.02 / 0.01 = 2: above 1 only, ticket_3d alone
    fired = sorted(zip(ep["region"], ep["tier"], strict=True))
    assert fired == [("ams", "ticket_3d"), ("fra", "page_1h"), ("fra", "page_6h"),
                     ("fra", "ticket_1d"), ("fra", "ticket_3d")]
    assert "targets per group (" in said and "fra (target 0.999)" in said \
        and "ams (target 0.99)" in said, said
    assert f"targets from {tmp_path / 'rec.yaml'}, counters from --total/--errors" in said


def test_one_slo_of_the_file_gives_every_group_its_target(fake, tmp_path, capsys):
    _two_regions(fake)
    rc, said, ep = _episodes(fake, tmp_path, _per_group_file(tmp_path) + "#ams", capsys)
    assert rc == 0 and ep is not None, said
    # hand: 0.99 for both regions: burn 2, ticket_3d alone in each
    assert sorted(zip(ep["region"], ep["tier"], strict=True)) == [("ams", "ticket_3d"),
                                                                   ("fra", "ticket_3d")]
    assert "target 0.99," in said


def test_per_group_targets_refuse_a_target_for_every_group(fake, tmp_path, capsys):
    rc = main(["backtest", "--prometheus", fake.url, "--slo", _per_group_file(tmp_path),
               "--total", "a_total", "--errors", "b_total", "--target", "0.9", "--by", "region",
               "--policy", "workbook"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "--target would replace the target of every " \
        f"group of {tmp_path / 'rec.yaml'}; leave it out" in err, err
    assert fake.seen == []
