"""Fixtures shared by the interop tests: Prometheus's promtool and one real Prometheus server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from budgetlab.interop.prometheus import promtool_path
from tests.interop.prometheus_server import (
    PrometheusServer,
    histogram_counts,
    histogram_openmetrics,
    make_counts,
    missing_binary,
    openmetrics,
    prometheus_binaries,
)


@pytest.fixture
def promtool() -> str:
    path = promtool_path()
    if path is None:
        missing_binary("promtool", "promtool is not installed (Debian: apt-get install prometheus)")
    assert path is not None
    return path


@pytest.fixture(scope="session")
def prom() -> Iterator[str]:
    """URL of a real Prometheus server on 127.0.0.1 holding the generated counters of
    ``tests/interop/prometheus_server.py`` (one server for every test that reads it)."""
    if prometheus_binaries() is None:
        missing_binary("prometheus or promtool",
                       "needs the prometheus and promtool binaries on PATH "
                 "(Debian package 'prometheus')")
    with PrometheusServer(openmetrics(make_counts())) as url:
        yield url


@pytest.fixture(scope="session")
def hist_prom() -> Iterator[str]:
    """URL of a real Prometheus server holding the histogram of
    ``tests/interop/prometheus_server.histogram_counts`` (latency SLIs, issue 32)."""
    if prometheus_binaries() is None:
        missing_binary("prometheus or promtool",
                       "needs the prometheus and promtool binaries on PATH "
                       "(Debian package 'prometheus')")
    with PrometheusServer(histogram_openmetrics(histogram_counts())) as url:
        yield url


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """With ``-n`` (pytest-xdist, ``--dist loadgroup``) the tests that read these servers run on
    one worker, so each server starts once, not once per worker (tryfirst: before xdist reads the
    marks)."""
    for item in items:
        if {"prom", "hist_prom"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.xdist_group("prometheus"))
