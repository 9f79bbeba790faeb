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
    q = parse_count_query('sum(rate(x_total{job="a"}[5m])) / on() group_left count(u{mail="a@b"})',
                          "total")
    assert q.selectors == ('x_total{job="a"}',)
    with pytest.raises(ConfigError, match="offset or @"):
        parse_count_query('sum(rate(x_total{job="a"}[5m])) @ 1700000000', "total")


def test_samples_that_are_no_pairs_are_refused_never_re_paired():
    # [[1],[2,"3","4"]] has four numbers but no two pairs: refused, never read as (1, 2), (3, 4)
    from budgetlab.errors import ServerError
    from budgetlab.interop.prometheus_answer import Asked, read_matrix

    asked = Asked("total", 10**9, 3, 2 * 10**9, 10)

    def answer(values: str) -> bytes:
        return ('{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},'
                f'"values":[{values}]}}]}}}}').encode()

    with pytest.raises(ServerError, match="malformed samples"):
        read_matrix(answer('[1],[3,"3","4"]'), asked, "p")
    (s,) = read_matrix(answer('[1,"2"],[3,"7"]'), asked, "p")
    assert s.ts_ns.tolist() == [10**9, 3 * 10**9] and s.values.tolist() == [2.0, 7.0]
