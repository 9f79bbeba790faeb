"""A loopback address in a Prometheus query names the server's machine, not a person: a refusal
of the query shows it. Other addresses stay hidden, and in an event log's key a loopback address
is refused as any address is (expected texts written by hand)."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.errors import ConfigError, PersonalDataError
from budgetlab.interop.promql import parse_count_query

HIDDEN = "a value that looks like personal data (not shown)"
FIX = ('holds no counter budgetlab can read per bin; give a counter selector (x_total{job="a"}) '
       "or PromQL with rate(x_total[...]) / increase(x_total[...]).")


@pytest.mark.parametrize("query", ['sum(x_total{instance="127.0.0.1:9090"})',
                                   'sum(x_total{instance="127.3.4.5:9090"})',
                                   'sum(x_total{instance="[::1]:9090"})'])
def test_a_loopback_address_in_a_query_is_shown(query):
    with pytest.raises(ConfigError) as info:
        parse_count_query(query, "errors")
    assert str(info.value) == f"errors={query!r} {FIX}"


@pytest.mark.parametrize("query", ['sum(x_total{instance="10.0.0.7:9090"})',
                                   'sum(x_total{instance="192.0.2.8:9090"})',
                                   'sum(x_total{instance="127.0.0.1:9090", ip="198.51.100.4"})',
                                   'sum(x_total{user="ivan@example.org", i="127.0.0.1"})'])
def test_other_addresses_keep_the_query_hidden(query):
    with pytest.raises(ConfigError) as info:
        parse_count_query(query, "errors")
    assert str(info.value) == f"errors={HIDDEN} {FIX}"


def test_a_loopback_address_in_an_event_key_is_still_refused():
    raw = pd.DataFrame({"ts": ["2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z"],
                        "outcome": ["success", "timeout"], "host": ["127.0.0.1", "127.0.0.1"]})
    with pytest.raises(PersonalDataError, match="'host' looks like personal data"):
        read_events(raw, by="host")
