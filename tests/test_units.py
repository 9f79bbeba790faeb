"""Time units are defined once (budgetlab/_util/units.py) and imported everywhere else."""

from __future__ import annotations

import re
from pathlib import Path

from budgetlab._util.units import DAY_NS, HOUR_NS, MINUTE_NS, SECOND_NS

PACKAGE = Path(__file__).resolve().parents[1] / "budgetlab"
# a module-level definition of a minute, hour or day in ns, under any of the names it had
DEFINED = re.compile(r"^_?(MIN|MINUTE|HOUR|DAY)_NS\s*=", re.M)


def test_the_units_by_hand():
    assert SECOND_NS == 1_000_000_000
    assert MINUTE_NS == 60_000_000_000
    assert HOUR_NS == 3_600_000_000_000
    assert DAY_NS == 86_400_000_000_000


def test_no_module_defines_a_unit_again():
    found = [str(p.relative_to(PACKAGE)) for p in sorted(PACKAGE.rglob("*.py"))
             if DEFINED.search(p.read_text(encoding="utf-8"))]
    assert found == ["_util/units.py"]
