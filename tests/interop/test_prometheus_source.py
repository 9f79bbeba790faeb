"""read_prometheus against a real Prometheus server filled with known counters
(tests/interop/prometheus_server.py), and the faults a real server cannot produce against a
small http.server stub on 127.0.0.1."""

from __future__ import annotations

import http.server
import json
import re
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from budgetlab import (
    SLO,
    AlertPolicy,
    BudgetlabError,
    ConfigError,
    InputError,
    PersonalDataError,
    alert_states,
    bin_events,
)
from budgetlab.interop import prometheus_http
from budgetlab.interop.openslo import SLODocument
from budgetlab.interop.prometheus import prometheus_rules
from budgetlab.interop.prometheus_source import read_prometheus
from budgetlab.interop.prometheus_span import ScrapeGapWarning, Span, report_gaps
from tests.interop.prometheus_server import (
    GAP_MINUTES,
    MINUTES,
    RESET_MINUTE,
    START,
    event_log,
    free_port,
    make_counts,
)

END = START + pd.Timedelta(minutes=MINUTES)
TOTAL, ERRORS, GOOD = (
    "app_requests_total",
    "app_request_errors_total",
    "app_request_successes_total",
)
MIN = pd.Timedelta("1min")


@pytest.fixture(scope="module")
def reference() -> pd.DataFrame:
    """The equivalent event log, binned by bin_events (the offline path; every bin, as Prometheus
    answers)."""
    return bin_events(event_log(make_counts()), "1min", by="region", start=START, end=END,
                      dense=True)


def _read(url: str, **kw) -> pd.DataFrame:
    args = {"total": TOTAL, "errors": ERRORS, "start": START, "end": END, "by": "region"}
    args.update(kw)
    with pytest.warns(ScrapeGapWarning):
        return read_prometheus(url, **args)


def _merged(bins: pd.DataFrame, ref: pd.DataFrame) -> pd.DataFrame:
    a, b = bins.copy(), ref.copy()
    a["region"], b["region"] = a["region"].astype(str), b["region"].astype(str)
    return a.merge(b, on=["region", "bin_start"], suffixes=("", "_ref"), validate="one_to_one")


def test_same_bins_as_the_event_log_except_the_scrape_gap(prom, reference):
    bins = _read(prom)
    assert list(bins.columns) == ["region", "bin_start", "total", "good", "bad"]
    assert bins.attrs["freq"] == "1m" and bins.attrs["by"] == ["region"]
    m = _merged(bins, reference)
    assert len(m) == len(reference) == 3 * MINUTES
    gap = (m["region"] == "par") & (m["bin_start"] >= START + (GAP_MINUTES[0] - 1) * MIN) & \
        (m["bin_start"] <= START + (GAP_MINUTES[1] - 1) * MIN)
    for col in ("total", "good", "bad"):
        assert (m.loc[~gap, col] == m.loc[~gap, f"{col}_ref"]).all(), col
        # the gap's events are not lost: they land in the bin that ends the gap
        assert m.loc[gap, col].sum() == m.loc[gap, f"{col}_ref"].sum()
    # no scrape at the ends of minutes 1999..2001 (samples 2000..2002 missing): those bins are 0,
    # the bin [2002 min, 2003 min) holds the four minutes 1999..2002
    par = m[gap].sort_values("bin_start")
    assert par["total"].tolist()[:3] == [0, 0, 0]
    assert par["total"].iloc[3] == par["total_ref"].sum()


def test_counter_reset_counts_the_new_process(prom, reference):
    bins = _read(prom)
    m = _merged(bins, reference)
    at = m[(m["region"] == "ams") & (m["bin_start"] == START + RESET_MINUTE * MIN)]
    # the known count of the minute after the restart (tests/interop/prometheus_server.py: 20 + 7k %
    # 11)
    assert at["total"].item() == 20 + (7 * RESET_MINUTE) % 11 == at["total_ref"].item()


def test_gap_is_reported_in_attrs(prom):
    bins = _read(prom)
    # times as ISO-8601 text (attrs are JSON values: DataFrame.to_parquet saves them)
    assert bins.attrs["gaps"] == [{"region": "par",
                                   "start": (START + (GAP_MINUTES[0] - 1) * MIN).isoformat(),
                                   "end": (START + (GAP_MINUTES[1] - 1) * MIN).isoformat(),
                                   "bins": 3}]


def test_good_counter_gives_the_same_bins(prom):
    a = _read(prom)
    b = _read(prom, errors=None, good=GOOD)
    pd.testing.assert_frame_equal(a, b, check_like=False)


def test_chunks_under_the_points_limit(prom, monkeypatch):
    whole = _read(prom)
    monkeypatch.setattr(prometheus_http, "MAX_POINTS", 700)
    chunked = _read(prom)
    pd.testing.assert_frame_equal(whole, chunked)
    assert chunked.attrs["source"]["requests"] > whole.attrs["source"]["requests"]


def test_sloth_style_query_and_ungrouped_sum(prom, reference):
    tot = "sum(rate(app_requests_total[{{.window}}]))"
    err = 'sum(increase(app_request_errors_total{region="fra"}[5m]))'
    bins = read_prometheus(prom, total=tot, errors=err, start=START + 1500 * MIN,
                           end=START + 1900 * MIN)
    ref = reference[reference["bin_start"].between(START + 1500 * MIN, START + 1899 * MIN)]
    assert bins["total"].tolist() == ref.groupby("bin_start")["total"].sum().tolist()
    assert bins["bad"].tolist() == ref[ref["region"] == "fra"]["bad"].tolist()


def test_bins_feed_the_sre_model_unchanged(prom, reference):
    """Episodes of the fra outage (minutes 1800..1820, every event failed, 60 events a minute):
    closed forms, with T = 2026-01-06 06:00 and E = T + 20 min; target 0.999, workbook at 30 d:
    page_1h fires when x/60 > 0.0144 (x = 1 min) until the 5 m ratio (5 - y)/5 <= 0.0144 (y = 5);
    page_6h when x/360 > 0.006 (x = 3) until (30 - y)/30 <= 0.006 (y = 30); ticket_1d when
    x/1440 > 0.003 (x = 5) until (120 - y)/120 <= 0.003 (y = 120); ticket_3d (history 1800 min)
    when x/(1800 + x) > 0.001 (x = 2) until (360 - y)/360 <= 0.001 (y = 360)."""
    from budgetlab import alert_episodes

    bins = _read(prom)
    ep = alert_episodes(bins, 0.999, AlertPolicy.workbook("30D"))
    fra = ep[ep["region"].astype(str) == "fra"].sort_values("tier")
    t, e = START + 1800 * MIN, START + 1820 * MIN
    assert fra["start"].tolist() == [t + 1 * MIN, t + 3 * MIN, t + 5 * MIN, t + 2 * MIN]
    assert fra["end"].tolist() == [e + 5 * MIN, e + 30 * MIN, e + 120 * MIN, e + 360 * MIN]
    offline = alert_episodes(reference, 0.999, AlertPolicy.workbook("30D"))
    on = ep[ep["region"].astype(str) != "par"].astype({"region": str}).reset_index(drop=True)
    off = (
        offline[offline["region"].astype(str) != "par"]
        .astype({"region": str})
        .reset_index(drop=True)
    )
    pd.testing.assert_frame_equal(on, off, check_categorical=False)


def _query_range_series(
    url: str, expr: str, start: pd.Timestamp, end: pd.Timestamp
) -> dict[tuple, dict[int, float]]:
    """One plain query_range (json module, no budgetlab code): {labels: {unix seconds: value}}."""
    form = urllib.parse.urlencode({"query": expr, "start": start.value / 1e9,
                                   "end": end.value / 1e9,
                                   "step": "60"}).encode()
    with urllib.request.urlopen(urllib.request.Request(url + "/api/v1/query_range", data=form),
                                timeout=60) as r:
        data = json.loads(r.read())["data"]["result"]
    return {tuple(sorted(s["metric"].items())): {int(round(float(t))): float(v) for t,
                                                 v in s["values"]} for s in data}


def _count_form(selector: str, by: str) -> str:
    """The documented count form (budgetlab.interop.promql), written out here as the reference."""
    s, o = selector, f"{selector} offset 1m"
    inner = f"({s} - {o} >= 0) or (({s} < {o}) * 1)"
    return f"sum by ({by}) ({inner})" if by else f"sum({inner})"


@pytest.mark.parametrize("by", ["region", ""])
@pytest.mark.parametrize("kind", ["errors", "good"])
def test_split_form_gives_the_bins_of_the_count_form(prom, kind, by):
    """The split form sent for a bare selector (differences + reset part added back) gives, bin by
    bin, the values of the documented count form evaluated by the server: across the counter
    reset (ams, minute 1000), the scrape gap (par) and all label values."""
    other = {"errors": ERRORS, "good": GOOD}[kind]
    with pytest.warns(ScrapeGapWarning):
        bins = read_prometheus(prom, total=TOTAL, **{kind: other}, start=START, end=END,
                               by=by or ())
    for metric, column in ((TOTAL, "total"), (other, "bad" if kind == "errors" else "good")):
        # the split form was sent
        assert "budgetlab_part" in bins.attrs["source"]["queries"]["total"]
        ref = _query_range_series(prom, _count_form(metric, by), START + MIN, END)
        expected = {}
        for labels, points in ref.items():
            for t, v in points.items():
                expected[(dict(labels).get("region", ""), t - 60)] = v
        got = {
            (str(getattr(r, "region", "")), int(r.bin_start.value // 10**9)): float(
                getattr(r, column)
            )
            for r in bins.itertuples()
        }
        # bins without a value of the count form read 0 (and are reported as scrape gaps)
        assert {k: v for k, v in got.items() if v or k in expected} == expected, column
        reset_bin = int((START + RESET_MINUTE * MIN).value // 10**9)
        if by and column == "total":
            assert got[("ams", reset_bin)] == expected[("ams",
                                                        reset_bin)] == 20 + (7 * RESET_MINUTE) % 11


def test_one_series_per_group_reads_the_same_bins_and_gaps(prom, monkeypatch):
    """Grouped by region and instance every group holds one series: the read leaves the sums and the
    appear/disappear gap parts out (the server's index says so), and gives the bins of the count
    form evaluated by the server per series, and the same scrape gaps as the general path."""
    by = ["region", "instance"]
    with pytest.warns(ScrapeGapWarning):
        fast = read_prometheus(prom, total=TOTAL, errors=ERRORS, start=START, end=END, by=by)
    assert "sum" not in fast.attrs["source"]["queries"]["total"]  # the one-series form was sent
    for metric, column in ((TOTAL, "total"), (ERRORS, "bad")):
        ref = _query_range_series(prom, _count_form(metric, "region, instance"), START + MIN, END)
        expected = {(dict(k)["region"], dict(k)["instance"], t - 60): v for k,
                    pts in ref.items() for t, v in pts.items()}
        got = {
            (str(r.region), str(r.instance), int(r.bin_start.value // 10**9)): float(
                getattr(r, column)
            )
            for r in fast.itertuples()
        }
        assert {k: v for k, v in got.items() if v or k in expected} == expected, column
    # the general path
    monkeypatch.setattr(prometheus_http.PrometheusClient, "series",
                        lambda self, *a: prometheus_http.Listing(None))
    with pytest.warns(ScrapeGapWarning):
        general = read_prometheus(prom, total=TOTAL, errors=ERRORS, start=START, end=END, by=by)
    assert "sum by" in general.attrs["source"]["queries"]["total"]
    pd.testing.assert_frame_equal(fast, general)
    assert fast.attrs["gaps"] == general.attrs["gaps"] == [
        {"region": "par", "instance": "a",
         "start": (START + (GAP_MINUTES[0] - 1) * MIN).isoformat(),
         "end": (START + (GAP_MINUTES[1] - 1) * MIN).isoformat(), "bins": 3}]


def test_label_values_that_look_personal_are_refused(prom):
    """A group key that is an e-mail address (made by the server with label_replace) is refused in
    one line that counts it and never shows it."""
    # PromQL's "\\x40" is "@" (the query text holds no "@": see the offset/@ check)
    def with_email(metric: str) -> str:
        return (f'label_replace(rate({metric}[5m]), "region", "ivan.petrov\\x40example.org", '
                '"region", "fra")')

    with pytest.raises(PersonalDataError) as info:
        read_prometheus(prom, total=with_email(TOTAL), errors=with_email(ERRORS), start=START,
                        end=END, by="region")
    text = str(info.value)
    assert "\n" not in text and "ivan" not in text and "example.org" not in text
    assert re.match(r"total: the values of the label 'region': 1 of the 3 values looks like "
                    r"personal data .*e-mail", text)


def _query_range(url: str, expr: str, start: pd.Timestamp, end: pd.Timestamp) -> dict[int, float]:
    form = urllib.parse.urlencode({"query": expr, "start": start.value / 1e9,
                                   "end": end.value / 1e9,
                                   "step": "60"}).encode()
    with urllib.request.urlopen(urllib.request.Request(url + "/api/v1/query_range", data=form),
                                timeout=60) as r:
        data = json.loads(r.read())["data"]["result"]
    out: dict[int, float] = {}
    for s in data:
        for ts, v in s["values"]:
            out[int(round(float(ts)))] = float(v)
    return out


@pytest.mark.parametrize("region", ["fra", "ams"])
def test_alert_states_equal_prometheus_rule_evaluation(prom, region):
    """The exported rules, evaluated by the server itself (query_range of each alert expression
    with the recording rules inlined) fire at the same minutes as budgetlab on the read bins."""
    policy = AlertPolicy.workbook("30D")
    doc = SLODocument(region, SLO(0.999, "30D"), labels={"region": region})
    rules = prometheus_rules(doc, policy, total_metric=TOTAL, errors_metric=ERRORS,
                             selector_labels=["region"])
    group = rules["groups"][0]["rules"]
    records = {
        r["record"]: r["expr"]
        for r in group
        if "record" in r and "sloth_window" in r.get("labels", {})
    }
    alerts = [r for r in group if "alert" in r]
    bins = _read(prom)
    states = alert_states(bins, 0.999, policy)
    states = states[states["region"].astype(str) == region]
    lo, hi = START + 60 * MIN, END  # evaluations from the first hour on
    for rule, tier in zip(alerts, policy.tiers, strict=True):
        expr = re.sub(r"(slo:sli_error:ratio_rate\w+)\{[^}]*\}",
                      lambda m: f"({records[m.group(1)]})", rule["expr"])
        fired = _query_range(prom, expr, lo, hi)
        mine = states[(states["tier"] == tier.name) & states["bin_end"].between(lo, hi)]
        expected = {int(t.value // 10**9) for t in mine.loc[mine["firing"], "bin_end"]}
        assert set(fired) == expected, tier.name
        assert len(expected) > 0 or region == "ams"


# ---------------------------------------------------------------------------------------------
# faults against the real server


def test_several_series_where_one_was_expected(prom):
    # the server holds 4 series (make_counts: fra/a, fra/b, ams/a, par/a), told apart by region
    # and instance; the query sums none of them
    with pytest.raises(InputError) as err:
        read_prometheus(prom, total="increase(app_requests_total[{{.window}}])", errors=ERRORS,
                        start=START, end=END)
    assert str(err.value) == (
        "total: the query returned 4 series where one series was expected; aggregate with "
        "sum(...) or give the labels that tell them apart: by=['instance', 'region'].")


@pytest.mark.parametrize("query", [
    "sum by (region) (rate(app_requests_total[{{.window}}]))",
    "sum(rate(app_requests_total[{{.window}}])) by (region)",
    "sum without (instance) (rate(app_requests_total[{{.window}}]))",
])
def test_several_series_of_a_query_that_aggregates(prom, query):
    # it sums already, keeping region (3 values: fra, ams, par): "aggregate with sum(...)" would
    # be no advice; the label it keeps is
    with pytest.raises(InputError) as err:
        read_prometheus(prom, total=query, errors=ERRORS, start=START, end=END)
    assert str(err.value) == (
        "total: the query returned 3 series where one series was expected; the query aggregates "
        "but keeps the label region: give by='region', or aggregate over it in the query too.")


def test_bad_promql_shows_the_servers_message(prom):
    bad = 'sum(increase(app_requests_total{region=~"("}[5m]))'
    with pytest.raises(ConfigError,
                       match=r"refused the query \(HTTP 400\): bad_data: .*(missing "
                             r"closing|parse)"):
        read_prometheus(prom, total=bad, errors=ERRORS, start=START, end=END)


def test_empty_result(prom):
    with pytest.raises(InputError, match="returned no series"):
        read_prometheus(prom, total="no_such_metric_total", errors=ERRORS, start=START, end=END)


def test_range_wider_than_the_data(prom):
    with pytest.raises(InputError, match="holds no data before 2026-01-05 00:0"):
        read_prometheus(prom, total=TOTAL, errors=ERRORS, start=START - pd.Timedelta("1D"), end=END)


def test_missing_by_label(prom):
    with pytest.raises(ConfigError, match="no label 'zone'"):
        read_prometheus(prom, total=TOTAL, errors=ERRORS, start=START, end=END, by="zone")


@pytest.mark.parametrize("errors,said", [
    ('app_request_errors_total{region!="par"}', "errors: 1 group has no errors series"),
    ('app_request_errors_total{region="fra"}', "errors: 2 groups have no errors series"),
])
def test_groups_without_errors_series_are_counted_in_words(prom, errors, said):
    # three regions (fra, ams, par); the selector leaves out one, then two of them
    bins = _read(prom, errors=errors)
    assert f"{said} in the span; read as 0 errors (initialise counters" in " ".join(
        bins.attrs["notes"])


def test_scrape_gap_warning_counts_in_words():
    span = Span.over("1min", START, START + 10 * MIN)
    keys = pd.DataFrame({"region": ["par"]})
    flags = np.zeros((1, 10), dtype=bool)
    flags[0, 4] = True
    with pytest.warns(ScrapeGapWarning) as got:
        report_gaps(flags, keys, ["region"], span)
    assert str(got[0].message).startswith(
        "1 bin in 1 scrape gap (first: region=par 2026-01-05 00:04..00:05 UTC): its count is not "
        "known;")
    flags[0, [1, 2, 7]] = True  # runs 1-2 and 4 and 7
    with pytest.warns(ScrapeGapWarning) as got:
        report_gaps(flags, keys, ["region"], span)
    assert str(got[0].message).startswith(
        "4 bins in 3 scrape gaps (first: region=par 2026-01-05 00:01..00:03 UTC): their counts are "
        "not known;")


@pytest.mark.parametrize("freq", ["20s", "30s"])
def test_step_shorter_than_scrape_interval(prom, freq):
    # under 1-minute scrapes, 30 s bins leave every other bin without a scrape: exactly half,
    # which was a warning of "scrape gaps" (its rule refused only more than half), not refused
    with pytest.raises(InputError, match=f"freq={freq} is shorter than the scrape interval"):
        read_prometheus(prom, total=TOTAL, errors=ERRORS, start=START,
                        end=START + pd.Timedelta("2h"), freq=freq)


def test_half_the_bins_without_a_scrape_are_refused_by_the_cli_flag():
    from budgetlab._util.words import cli_words

    span = Span.over("30s", START, START + 10 * MIN)
    flags = np.zeros((1, 20), dtype=bool)
    flags[0, 1::2] = True  # every other bin: 10 of 20, half
    with cli_words(), pytest.raises(InputError) as got:
        report_gaps(flags, pd.DataFrame({"region": ["par"]}), ["region"], span)
    assert str(got.value) == ("50 % of the bins have no scrape: --freq 30s is shorter than the "
                              "scrape interval; use a --freq of at least the scrape interval.")


def test_unknown_counter_form_refused_before_sending():
    with pytest.raises(ConfigError, match="holds no counter"):
        read_prometheus("http://127.0.0.1:9", total="sum(app_requests_total)", errors=ERRORS,
                        start=START, end=END)


# ---------------------------------------------------------------------------------------------
# faults from a stub server


class _Stub(http.server.BaseHTTPRequestHandler):
    mode = "ok"
    seen: list[dict[str, str]] = []
    queries: list[str] = []

    def log_message(self, *args) -> None:  # quiet
        pass

    def do_POST(self) -> None:
        _Stub.seen.append(dict(self.headers))
        body = urllib.parse.parse_qs(self.rfile.read(int(self.headers.get("Content-Length",
                                                                          0))).decode())
        _Stub.queries.append(body.get("query", [""])[0])
        mode = _Stub.mode
        # the gap query: no gaps
        if "count_over_time(" in body.get("query", [""])[0] and mode not in ("5xx", "sleep"):
            self._send(200, {"status": "success", "data": {"resultType": "matrix", "result": []}})
            return
        if mode == "sleep":
            time.sleep(1.5)
        if mode == "5xx":
            self._send(503, {"status": "error", "errorType": "unavailable",
                             "error": "tsdb overloaded"})
            return
        if mode == "html":
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"<html>login</html>")
            return
        value = {"nan": "NaN", "inf": "+Inf", "malformed": "five"}.get(mode, "5")
        t0 = START.value / 1e9 + 60
        values = [[t0 + 60 * i, value if i == 3 else "5"] for i in range(10)]
        metric = {"job": 'x"values":[[1,"2"]]'} if mode == "tricky" else {}
        self._send(200, {"status": "success", "data": {"resultType": "matrix",
                                                       "result": [{"metric": metric,
                                                                   "values": values}]}})

    def _send(self, code: int, payload: dict) -> None:
        body = json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _StubServer(http.server.ThreadingHTTPServer):
    """The stub's server: ``server_close`` waits for every request thread (a ``sleep`` answer
    outlives its client's deadline), so nothing of one test runs on into the next; a client gone
    before the answer (that deadline) is expected, not reported."""

    daemon_threads = False  # tracked and joined on close (block_on_close)

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


@pytest.fixture()
def stub():
    server = _StubServer(("127.0.0.1", 0), _Stub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Stub.seen = []
    _Stub.queries = []
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _stub_read(url: str, **kw):
    return read_prometheus(url, total=TOTAL, errors=ERRORS, start=START, end=START + 10 * MIN, **kw)


def test_stub_ok_reads(stub):
    _Stub.mode = "ok"
    bins = _stub_read(stub)
    assert bins["total"].tolist() == [5] * 10


@pytest.mark.parametrize("mode,kind", [("nan", "NaN"), ("inf", "infinite")])
def test_nan_and_inf_samples(stub, mode, kind):
    _Stub.mode = mode
    with pytest.raises(InputError,
                       match=rf"returned {kind} values \(1 sample, first at 2026-01-05 00:04:00 "
                             r"UTC\)"):
        _stub_read(stub)


def test_malformed_samples(stub):
    _Stub.mode = "malformed"
    with pytest.raises(InputError, match=r"total: the Prometheus answer has malformed samples\.$"):
        _stub_read(stub)


def test_label_text_like_a_sample_array_is_read_as_a_label(stub):
    """A label value holding the text '"values":[[1,"2"]]' does not confuse the sample parser."""
    _Stub.mode = "tricky"
    bins = _stub_read(stub)
    assert bins["total"].tolist() == [5] * 10


def test_5xx_is_retried_with_backoff_then_fails(stub, monkeypatch):
    monkeypatch.setattr(prometheus_http, "BACKOFF_SECONDS", 0.01)
    _Stub.mode = "5xx"
    with pytest.raises(InputError,
                       match=r"failed with HTTP 503 after 4 attempts: unavailable: tsdb "
                             r"overloaded"):
        _stub_read(stub, retries=3)
    # every query of the read (counts and scrape gaps, sent together) was tried 1 + 3 times
    assert sorted(Counter(q for q in _Stub.queries if q).values()) == [4, 4, 4, 4]


def test_timeout(stub):
    _Stub.mode = "sleep"
    with pytest.raises(InputError, match=r"did not answer within 0.3 s"):
        _stub_read(stub, timeout=0.3)


def test_not_a_prometheus_answer(stub):
    _Stub.mode = "html"
    with pytest.raises(InputError, match="did not answer with JSON"):
        _stub_read(stub)


def test_unreachable_server():
    port = free_port()  # nothing listens there
    with pytest.raises(InputError, match=rf"cannot reach Prometheus at http://127.0.0.1:{port} \("):
        _stub_read(f"http://127.0.0.1:{port}", timeout=2)


def test_credentials_are_sent_but_never_shown(stub, monkeypatch):
    monkeypatch.setattr(prometheus_http, "BACKOFF_SECONDS", 0.01)
    _Stub.mode = "ok"
    url = stub.replace("http://", "http://bob:pa55word@")
    bins = _stub_read(url, headers={"X-Api-Key": "TOPSECRET"})
    assert _Stub.seen[0]["Authorization"] == "Basic Ym9iOnBhNTV3b3Jk"  # base64("bob:pa55word")
    assert _Stub.seen[0]["X-Api-Key"] == "TOPSECRET"
    shown = repr(bins.attrs)
    assert "pa55word" not in shown and "bob" not in shown and "TOPSECRET" not in shown
    _Stub.mode = "5xx"
    with pytest.raises(BudgetlabError) as info:
        _stub_read(url, headers={"X-Api-Key": "TOPSECRET"}, retries=0)
    assert (
        "pa55word" not in str(info.value)
        and "bob" not in str(info.value)
        and "TOPSECRET" not in str(info.value)
    )


def test_errors_or_good_required():
    with pytest.raises(ConfigError, match="exactly one of errors= .* and good="):
        read_prometheus("http://127.0.0.1:9", total=TOTAL, start=START, end=START + 10 * MIN)
