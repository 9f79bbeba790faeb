"""Issue 14, point 9: buckets, legends and sentences come from the data. On a web log the sample
domain's captcha buckets (``timeout``, ``solve_error``) appear nowhere: not as categories, rows,
bin columns or legend entries."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from budgetlab import SLO, bin_events, bucket_breakdown, bucket_burn_over_time, read_access_log  # noqa: E402
from budgetlab.plotting import plot_buckets  # noqa: E402

APACHE = Path(__file__).parents[1] / "fixtures" / "elastic_apache" / "apache_logs"
CAPTCHA_WORDS = ("timeout", "solve_error", "captcha", "recaptcha", "turnstile")


def test_web_log_tables_and_legend_hold_only_its_own_buckets():
    ev = read_access_log(APACHE, outcomes={"2xx": "success", "3xx": "success", "404": "not_found",
                                           "4xx": "skip",
                                           "5xx": "server_error"})
    assert list(ev["bucket"].cat.categories) == ["success", "not_found", "server_error"]
    slo = SLO(target=0.999, window="1h")
    table = bucket_breakdown(ev, slo, by=None)
    assert table["bucket"].astype(str).tolist() == ["not_found", "server_error"]
    assert table["failures"].tolist() == [213, 3]  # the published counts of 404 and 500
    bins = bin_events(ev, "1h")
    assert [c for c in bins.columns if c.startswith("bad_")] == ["bad_not_found",
                                                                 "bad_server_error"]
    over_time = bucket_burn_over_time(ev, slo)
    ax = plot_buckets(over_time)
    labels = [p.get_label() for p in ax.patches] + [
        t.get_text() for t in ax.get_legend().get_texts()
    ]
    plt.close("all")
    assert {"not_found", "server_error"} <= set(labels)
    assert not [x for x in labels if any(w in x for w in CAPTCHA_WORDS)]
