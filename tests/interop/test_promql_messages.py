"""PromQL given by the user (issue 15): its messages never show a personal value, and an ``@``
inside a label value is no ``@`` modifier."""

from __future__ import annotations

import pytest

from budgetlab.errors import ConfigError
from budgetlab.interop.promql import parse_count_query

EMAIL = "ivan@example.org"


@pytest.mark.parametrize("query", [
    f'sum(y_total{{user="{EMAIL}"}})',  # no counter function
    f'sum(rate(x_total{{job="a"}}[5m])) + on() vector(0) @ 100 + count(z{{u="{EMAIL}"}})',
])
def test_a_refused_query_is_not_quoted_when_it_holds_personal_data(query):
    with pytest.raises(ConfigError) as info:
        parse_count_query(query, "total")
    assert EMAIL not in str(info.value)
    assert "personal data (not shown)" in str(info.value)


def test_an_at_sign_inside_a_label_value_is_not_an_at_modifier():
    q = parse_count_query('sum(rate(x_total{job="a"}[5m])) / on() group_left count(u{mail="a@b"})', "total")
    assert q.selectors == ('x_total{job="a"}',)
    with pytest.raises(ConfigError, match="offset or @"):
        parse_count_query('sum(rate(x_total{job="a"}[5m])) @ 1700000000', "total")


def test_the_fast_sample_decoder_refuses_pairs_it_would_have_to_re_pair():
    # [[1],[2,"3","4"]] has four numbers but no two pairs: the fast path must hand it to the
    # JSON path (which refuses it), never read it as (1, 2), (3, 4)
    from budgetlab.interop.prometheus_answer import _parse_samples

    assert _parse_samples(b'[1],[2,"3","4"]') is None
    ts, vals = _parse_samples(b'[1,"2"],[3,"NaN"]')
    assert ts.tolist() == [1.0, 3.0] and vals[0] == 2.0 and vals[1] != vals[1]
