"""Messages of budgetlab._util count their nouns in the number the count takes (they wrote
"1 group(s) x 1 bin(s)") and their pronouns agree ("n given both ...; set them" for one
keyword). Expected texts written by hand; byte figures are count x bytes per cell."""

from __future__ import annotations

import dataclasses

import pytest

from budgetlab._util.memory import check_cells
from budgetlab._util.validation import options_object
from budgetlab.errors import ConfigError

RAISE = "raise the limit (BUDGETLAB_MEMORY_LIMIT=8GiB, default: half of the physical memory)"


@pytest.mark.parametrize(("groups", "bins", "shape", "need"), [
    (1, 1, "1 group x 1 bin", "150 B"),            # 1 x 1 x 150 B
    (2, 3, "2 groups x 3 bins", "900 B"),          # 2 x 3 x 150 B
    (1, 4032, "1 group x 4,032 bins", "590.6 KiB"),  # 604,800 B / 1024
])
def test_check_cells_counts_groups_and_bins(groups, bins, shape, need):
    with pytest.raises(ConfigError) as info:
        check_cells(groups, bins, 150, "the dense burn-rate table", ["use a coarser freq="],
                    limit=1)
    assert str(info.value) == (f"the dense burn-rate table ({shape}) would need about {need}, "
                               f"over the memory limit of 1 B; use a coarser freq=, or {RAISE}.")


@dataclasses.dataclass(frozen=True)
class _Opts:
    n: int = 1
    m: int = 1


def test_options_object_says_it_for_one_keyword_and_them_for_two():
    with pytest.raises(ConfigError) as one:
        options_object(_Opts, _Opts(3), {"n": 2, "m": 1}, "Opts(n=2)")
    assert str(one.value) == "n given both as keyword and in options=; set it in options only."
    with pytest.raises(ConfigError) as two:
        options_object(_Opts, _Opts(3), {"n": 2, "m": 5}, "Opts(n=2)")
    assert str(two.value) == ("n, m given both as keyword and in options=; set them in options "
                              "only.")
