"""The plot gallery: one entry per picture, drawn from the sample data while the docs build.

Add a picture by adding one entry: ``name -> (title, code)`` (and, in :data:`NOTES`, what its
marks mean where its legend does not say it: shown under the picture). The code is shown beside its
picture exactly as written, runs in a fresh namespace with the working folder set to a temporary
directory, and must leave the figure to show as ``fig`` or as matplotlib's current figure.
``python docs/_ext/budgetlab_docs.py NAME OUT.png`` renders one entry (the README's picture is
``timeline``).
"""

from __future__ import annotations

from budgetlab.plotting.history import MIN_HOUR_ATTEMPTS

GALLERY: dict[str, tuple[str, str]] = {
    "timeline": (
        "Timeline of the tracker: success rate, burn rate, budget remaining",
        """\
import matplotlib.pyplot as plt
import budgetlab as bl
from budgetlab.plotting import plot_timeline

events = bl.datasets.load("demo")
rc = events[events["captcha_type"] == "recaptcha_v2"]
slo = bl.SLO(target=0.93, window="24h")
states = bl.replay(rc, slo)
fig, ax = plt.subplots(figsize=(9, 6.5))
plot_timeline(states, slo=slo, transitions=bl.transitions(states),
              spans=bl.status_spans(rc, slo, steps=True),
              incidents=bl.datasets.load("demo_incidents"), tz="Europe/Berlin", ax=ax)
""",
    ),
    "buckets": (
        "Burn rate by failure bucket (timeouts vs solve errors), per region",
        """\
import matplotlib.pyplot as plt
import budgetlab as bl
from budgetlab.plotting import plot_buckets

events = bl.datasets.load("demo")
over_time = bl.bucket_burn_over_time(events, bl.SLO(target=0.95, window="24h"),
                                     freq="6h", by="region")
fig, ax = plt.subplots(figsize=(9, 4))
plot_buckets(over_time, by="region", tz="Europe/Berlin", ax=ax)
""",
    ),
    "alerts": (
        "Alert episodes of the SRE Workbook policy, with the labelled incident",
        """\
import matplotlib.pyplot as plt
import budgetlab as bl
from budgetlab.plotting import plot_alerts

events = bl.datasets.load("demo")
bins = bl.bin_events(events, "1min", by="captcha_type")
episodes = bl.alert_episodes(bins, 0.95, bl.AlertPolicy.workbook())
fig, ax = plt.subplots(figsize=(9, 4))
plot_alerts(episodes, incidents=bl.datasets.load("demo_incidents"), tz="Europe/Berlin", ax=ax,
            groups=bins)  # the groups evaluated: those without an alert are named
""",
    ),
    "recalibration": (
        "Recalibration: time exhausted under each candidate target",
        """\
import matplotlib.pyplot as plt
import budgetlab as bl
from budgetlab.plotting import plot_recalibration

events = bl.datasets.load("demo")
r = bl.recalibrate(events, by="captcha_type", window="24h",
                   target={"recaptcha_v2": 0.93, "turnstile": 0.97, "image": 0.88})
fig, ax = plt.subplots(figsize=(9, 4))
plot_recalibration(r, ax=ax)
""",
    ),
    "window_comparison": (
        "Window lengths compared: flapping against detection delay",
        """\
import matplotlib.pyplot as plt
import budgetlab as bl
from budgetlab.plotting import plot_window_comparison

events = bl.datasets.load("outcomes_4w")  # four weeks, seven labelled incidents
table = bl.compare_windows(events, bl.SLO(target=0.9), ["1h", "6h", "24h", "calendar:day"],
                           by="captcha_type",
                           target={"recaptcha_v2": 0.93, "turnstile": 0.97, "image": 0.88},
                           incidents=bl.datasets.load("incidents_4w"))
fig, ax = plt.subplots(figsize=(9, 5.5))
plot_window_comparison(table, ax=ax)
""",
    ),
    "incident_report": (
        "Post-incident replay: the report's figure",
        """\
import budgetlab as bl

events = bl.datasets.load("demo")
incidents = bl.datasets.load("demo_incidents")
rep = bl.incident_report(events, bl.SLO(target=0.93, window="24h"),
                         incidents["start"][0], incidents["end"][0],
                         scope="captcha_type=recaptcha_v2", breakdown_by="region",
                         incidents=incidents, tz="Europe/Berlin")
fig = rep.plot()
""",
    ),
    "daily_success": (
        "Success rate per local day, with each day's Wilson interval (notebook 01)",
        """\
import matplotlib.pyplot as plt
import budgetlab as bl
from budgetlab.analyses.history import daily_success
from budgetlab.plotting import plot_daily_success

events = bl.datasets.load("outcomes_4w")
daily = daily_success(events, by="captcha_type", tz="Europe/Berlin")
fig, ax = plt.subplots(figsize=(9, 4))
plot_daily_success(daily, ax=ax)
""",
    ),
    "hourly_profile": (
        "Timeouts by local hour against all other failures (notebook 03)",
        """\
import matplotlib.pyplot as plt
import budgetlab as bl
from budgetlab.analyses.history import hourly_profile
from budgetlab.plotting import plot_hourly_profile

events = bl.datasets.load("outcomes_4w")
profile = hourly_profile(events, bucket="timeout", by="region", tz="Europe/Berlin")
fig, ax = plt.subplots(figsize=(9, 4))
plot_hourly_profile(profile, ax=ax)
""",
    ),
    "latency_shares": (
        "Latency: the share of attempts that succeeded within each threshold, hour by hour",
        """\
import matplotlib.pyplot as plt
import budgetlab as bl
from budgetlab.plotting import plot_latency_shares

events, incidents = bl.synth.generate(**bl.synth.PRESETS["demo"]["args"], client_timeout="60s")
rc = events[events["captcha_type"] == "recaptcha_v2"]
profile = bl.latency_profile(rc, thresholds=["10s", "20s", "30s"], freq="1h")
fig, ax = plt.subplots(figsize=(9, 4))
plot_latency_shares(profile.shares, ax=ax, incidents=incidents)
""",
    ),
    "timeout_tradeoff": (
        "The client timeout: successes lost against waiting saved, per captcha type, a point per "
        "candidate timeout (only the candidates are measured: no line joins them)",
        """\
import matplotlib.pyplot as plt
import budgetlab as bl
from budgetlab.plotting import plot_timeout_tradeoff

events, _ = bl.synth.generate(**bl.synth.PRESETS["demo"]["args"], client_timeout="60s")
table = bl.timeout_tradeoff(events, timeouts=["20s", "30s", "45s", "60s"], by="captcha_type")
fig, ax = plt.subplots(figsize=(9, 4))
plot_timeout_tradeoff(table, ax=ax)
""",
    ),
}

#: What a picture's marks mean where its legend may not say it (the legend names a rule only when
#: the picture holds a mark it applies to): a caption under the picture, by entry name.
NOTES: dict[str, str] = {
    "hourly_profile": (
        f"A solid dot is an hour of day with {MIN_HOUR_ATTEMPTS} attempts or more, all days "
        "together (budgetlab.plotting.history.MIN_HOUR_ATTEMPTS). An hour with fewer is drawn as "
        "a hollow dot: one attempt more or less would move its rates by more than "
        f"{100 // MIN_HOUR_ATTEMPTS} points, too few to read the hour against the others. The "
        "legend names the rule when the picture holds a hollow dot."
    ),
}
