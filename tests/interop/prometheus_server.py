"""A real Prometheus server for the tests (and the benchmark), filled with known counters.

:func:`make_counts` generates per-minute event counts per series with known features;
:func:`event_log` turns them into the equivalent event log (for ``bin_events``);
:func:`openmetrics` writes the counters sampled at every minute end; :class:`PrometheusServer`
builds a TSDB from that text with ``promtool tsdb create-blocks-from openmetrics``, starts
``prometheus`` (the Debian package's binary) on a free 127.0.0.1 port, waits for ``/-/ready``
and always stops it.

The test data (``make_counts()``), 2 days at 1 minute from 2026-01-05 00:00 UTC, metrics
``app_requests_total``, ``app_request_errors_total``, ``app_request_successes_total`` with labels
``region`` and ``instance``:

* ``region="fra"``: instances ``a`` and ``b``, 30 events per minute each, no errors except a
  full outage (every event fails) in minutes ``[1800, 1820)``;
* ``region="ams"``: one instance, varying traffic, a few errors, a **counter reset** at minute
  1000 (the process restarts at that bin boundary, its counters start again from 0);
* ``region="par"``: one instance, varying traffic and errors, a **scrape gap**: no samples at
  the ends of minutes 2000..2002 (3 minutes, shorter than the 5-minute lookback).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

START = pd.Timestamp("2026-01-05 00:00", tz="UTC")
MINUTES = 2 * 24 * 60
OUTAGE = (1800, 1820)
RESET_MINUTE = 1000
GAP_MINUTES = (2000, 2003)  # sample times START + k min missing for k in [2000, 2003)


@dataclass
class SeriesCounts:
    labels: dict[str, str]
    n: np.ndarray  # events per minute
    e: np.ndarray  # failed events per minute (<= n)
    reset_at: int | None = None  # minute at whose start the counters restart from 0
    missing: tuple[int, int] | None = None  # sample indices [lo, hi) not written


def make_counts(minutes: int = MINUTES) -> list[SeriesCounts]:
    k = np.arange(minutes)
    fra = []
    for inst in ("a", "b"):
        e = np.zeros(minutes, dtype=np.int64)
        n = np.full(minutes, 30, dtype=np.int64)
        e[OUTAGE[0]:OUTAGE[1]] = n[OUTAGE[0]:OUTAGE[1]]
        fra.append(SeriesCounts({"region": "fra", "instance": inst}, n, e))
    n_ams = 20 + (7 * k) % 11
    e_ams = ((k % 97) == 3).astype(np.int64) * 2
    n_par = 15 + (5 * k + 3) % 13
    e_par = ((k % 61) == 7).astype(np.int64)
    return [*fra,
            SeriesCounts({"region": "ams", "instance": "a"}, n_ams.astype(np.int64), e_ams,
                         reset_at=RESET_MINUTE),
            SeriesCounts({"region": "par", "instance": "a"}, n_par.astype(np.int64),
                         e_par.astype(np.int64),
                         missing=GAP_MINUTES)]


def event_log(counts: list[SeriesCounts], start: pd.Timestamp = START) -> pd.DataFrame:
    """The events the counters count: ``n[k]`` events spread over minute ``k``, the first
    ``e[k]`` of them failed."""
    ts, ok, region = [], [], []
    base = start.value
    for s in counts:
        for kk in np.flatnonzero(s.n):
            m = int(s.n[kk])
            t = base + kk * 60 * 10**9 + (np.arange(m) * (60 * 10**9 // m))
            ts.append(t)
            ok.append(np.arange(m) >= s.e[kk])
            region.append(np.full(m, s.labels["region"], dtype=object))
    frame = pd.DataFrame({"ts": pd.to_datetime(np.concatenate(ts), utc=True),
                          "ok": np.concatenate(ok),
                          "region": pd.Categorical(np.concatenate(region))})
    return frame.sort_values("ts", kind="stable").reset_index(drop=True)


def _cumulative(s: SeriesCounts, per_minute: np.ndarray) -> np.ndarray:
    """Counter value at the end of every minute ``0..len`` (index k = time START + k min)."""
    cum = np.concatenate([[0], np.cumsum(per_minute)])
    if s.reset_at is not None:
        r = s.reset_at
        cum[r + 1:] = cum[r + 1:] - cum[r]  # the new process counts from minute r on
    return cum


def openmetrics(counts: list[SeriesCounts], start: pd.Timestamp = START) -> str:
    """OpenMetrics text of the three counters, one sample per series per minute end."""
    t0 = start.value // 10**9
    lines = []
    for family, part in (("app_requests", "n"), ("app_request_errors", "e"),
                         ("app_request_successes", "g")):
        lines.append(f"# TYPE {family} counter")
        for s in counts:
            per = s.n if part == "n" else s.e if part == "e" else s.n - s.e
            cum = _cumulative(s, per)
            lab = ",".join(f'{k}="{v}"' for k, v in sorted(s.labels.items()))
            keep = np.ones(len(cum), dtype=bool)
            if s.missing is not None:
                keep[s.missing[0]:s.missing[1]] = False
            for i in np.flatnonzero(keep).tolist():
                lines.append(f"{family}_total{{{lab}}} {int(cum[i])} {t0 + 60 * i}")
    lines.append("# EOF")
    return "\n".join(lines) + "\n"


HISTOGRAM = "app_request_duration_seconds"
HISTOGRAM_BOUNDS = ("0.1", "0.5", "1.0", "+Inf")
HISTOGRAM_MINUTES = 180


def histogram_counts(minutes: int = HISTOGRAM_MINUTES) -> dict[str, np.ndarray]:
    """Events per minute and bucket (columns: (0, 0.1], (0.1, 0.5], (0.5, 1], (1, +Inf)) per region:
    ``fra`` 30 a minute within 0.1 s except minutes [60, 80), where 20 of the 30 take (0.5, 1] s;
    ``ams`` 10 a minute within 0.1 s except minutes [100, 110), where 4 of the 10 take (0.1, 0.5]
    s."""
    fra = np.zeros((minutes, 4), dtype=np.int64)
    fra[:, 0] = 30
    fra[60:80, 0], fra[60:80, 2] = 10, 20
    ams = np.zeros((minutes, 4), dtype=np.int64)
    ams[:, 0] = 10
    ams[100:110, 0], ams[100:110, 1] = 6, 4
    return {"fra": fra, "ams": ams}


def histogram_openmetrics(counts: dict[str, np.ndarray], start: pd.Timestamp = START) -> str:
    """OpenMetrics text of the histogram :data:`HISTOGRAM` (``_bucket{le}``, ``_count``, ``_sum``),
    one point per region per minute end."""
    t0 = start.value // 10**9
    lines = [f"# TYPE {HISTOGRAM} histogram"]
    for region, per in counts.items():
        # per minute end
        cum = np.vstack([np.zeros((1, 4), dtype=np.int64), np.cumsum(per, axis=0)])
        below = np.cumsum(cum, axis=1)  # cumulative over the bounds
        for i in range(len(cum)):
            for j, le in enumerate(HISTOGRAM_BOUNDS):
                lines.append(f'{HISTOGRAM}_bucket{{le="{le}",region="{region}"}} '
                             f'{int(below[i, j])} {t0 + 60 * i}')
            lines.append(f'{HISTOGRAM}_count{{region="{region}"}} {int(below[i, -1])} '
                         f'{t0 + 60 * i}')
            lines.append(f'{HISTOGRAM}_sum{{region="{region}"}} {0.05 * int(below[i, -1]):.2f} '
                         f'{t0 + 60 * i}')
    lines.append("# EOF")
    return "\n".join(lines) + "\n"


def missing_binary(what: str, skip_reason: str) -> None:
    """In CI a missing binary is a failure (.ci/run installs it); elsewhere a skip that names it."""
    import pytest

    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing; .ci/run installs Debian's 'prometheus' package, which "
                    "provides it.")
    pytest.skip(skip_reason)


def prometheus_binaries() -> tuple[str, str] | None:
    """``(prometheus, promtool)`` on PATH, or None."""
    prom, tool = shutil.which("prometheus"), shutil.which("promtool")
    return (prom, tool) if prom and tool else None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrometheusServer:
    """``with PrometheusServer(text) as url:`` a server on 127.0.0.1 serving the given OpenMetrics
    (one text, or several covering consecutive time ranges), and with ``blocks`` the TSDB blocks
    of a folder (recording rules backfilled by ``promtool tsdb create-blocks-from rules``)."""

    def __init__(self, text: str | list[str], *, rules: str | None = None,
                 ready_timeout: float = 60.0,
                 blocks: Path | None = None) -> None:
        bins = prometheus_binaries()
        if bins is None:
            raise RuntimeError("prometheus and promtool are needed (Debian package 'prometheus')")
        self.prometheus, self.promtool = bins
        self.text = text
        self.rules = rules
        self.ready_timeout = ready_timeout
        # a folder of TSDB blocks (promtool create-blocks-from rules) served too
        self.blocks = blocks
        self.proc: subprocess.Popen[bytes] | None = None
        self.tmp: tempfile.TemporaryDirectory[str] | None = None
        self.url = ""

    def __enter__(self) -> str:
        self.tmp = tempfile.TemporaryDirectory(prefix="budgetlab-prom-")
        root = Path(self.tmp.name)
        data = root / "tsdb"
        # promtool 2.42 reads its whole input once per 2-hour block: long spans come as several
        # texts
        for i, text in enumerate([self.text] if isinstance(self.text, str) else self.text):
            (root / f"data{i}.om").write_text(text, encoding="utf-8")
            proc = subprocess.run([self.promtool, "tsdb", "create-blocks-from", "openmetrics",
                                   str(root / f"data{i}.om"),
                                   str(data)], capture_output=True, text=True, timeout=600,
                                  check=False)
            if proc.returncode != 0:
                self._cleanup()
                raise RuntimeError(f"promtool create-blocks failed: {proc.stderr[-2000:]}")
        if self.blocks is not None:
            for block in sorted(self.blocks.iterdir()):
                if block.is_dir():
                    shutil.copytree(block, data / block.name)
        config = "global:\n  evaluation_interval: 1m\n"
        if self.rules is not None:
            (root / "rules.yaml").write_text(self.rules, encoding="utf-8")
            config += f"rule_files:\n  - {root / 'rules.yaml'}\n"
        (root / "prometheus.yml").write_text(config, encoding="utf-8")
        for _attempt in range(3):  # stopped at once: the free port was taken meanwhile (another
            if self._serve(root, data):  # test process): another port
                return self.url
            if self.proc is not None and self.proc.poll() is None:
                break  # running, but not ready in time
        tail = (root / "prometheus.log").read_text(errors="replace")[-2000:]
        self._cleanup()
        raise RuntimeError(f"prometheus did not get ready: {tail}")

    def _serve(self, root: Path, data: Path) -> bool:
        """Start the server on a free port; True once it answers ready, False if it stopped or
        the time ran out (a server of another process on that port is not taken for this one)."""
        self._stop()
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self._log = open(root / "prometheus.log", "wb")  # noqa: SIM115 - closed in _stop
        self.proc = subprocess.Popen(
            [self.prometheus, f"--config.file={root / 'prometheus.yml'}",
             f"--storage.tsdb.path={data}",
             f"--web.listen-address=127.0.0.1:{port}", "--storage.tsdb.retention.time=100y",
             "--log.level=warn"],
            stdout=self._log, stderr=subprocess.STDOUT, cwd=root)
        deadline = time.monotonic() + self.ready_timeout
        while time.monotonic() < deadline and self.proc.poll() is None:
            with contextlib.suppress(OSError, ValueError, KeyError):
                with urllib.request.urlopen(self.url + "/api/v1/status/flags", timeout=2) as resp:
                    if json.load(resp)["data"]["storage.tsdb.path"] == str(data):
                        with urllib.request.urlopen(self.url + "/-/ready", timeout=2) as ready:
                            if ready.status == 200:
                                return True
            time.sleep(0.2)
        return False

    def __exit__(self, *exc: object) -> None:
        self._cleanup()

    def cpu_seconds(self) -> float | None:
        """CPU time (user + system) the server has used so far (Linux ``/proc``), None elsewhere;
        the benchmark tells the server's work from budgetlab's with it."""
        if self.proc is None:
            return None
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def _cleanup(self) -> None:
        self._stop()
        if self.tmp is not None:
            self.tmp.cleanup()
            self.tmp = None

    def _stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
            self.proc = None
        if getattr(self, "_log", None) is not None:
            self._log.close()
            self._log = None


@contextlib.contextmanager
def running(text: str, **kw: object) -> Iterator[str]:
    with PrometheusServer(text, **kw) as url:  # type: ignore[arg-type]
        yield url
