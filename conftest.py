"""What every test of the repository shares, the doctests in ``budgetlab/`` included (both are in
``testpaths``; ``tests/conftest.py`` reaches only ``tests/``)."""

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def no_proxy_of_the_machine() -> Iterator[None]:
    """Every test runs without the proxies the machine's environment names (HTTP_PROXY,
    HTTPS_PROXY, ALL_PROXY, NO_PROXY, any ``*_proxy`` in any case): budgetlab honours them, and a
    test that talks to a server on 127.0.0.1 (Prometheus, a fake, the doctest of
    ``read_prometheus``) must reach it directly, in process or in a child process. Session-wide,
    so the session's Prometheus servers start without them too; the proxy tests
    (tests/interop/test_prometheus_proxy.py) set their own."""
    with pytest.MonkeyPatch.context() as patch:
        for name in [n for n in os.environ if n.lower().endswith("_proxy")]:
            patch.delenv(name)
        yield


@pytest.fixture(autouse=True)
def reading_at_the_end_of_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test reads at the last instant pandas holds (BUDGETLAB_READING_TIME, which child
    processes inherit), so that no reading block depends on the real date: a fixture stamped
    after today (a sample read with --year 2026) reads alike on any day. The tests of the note
    on times after the time of reading set their own time."""
    monkeypatch.setenv("BUDGETLAB_READING_TIME", "2262-04-11T23:47:16Z")
