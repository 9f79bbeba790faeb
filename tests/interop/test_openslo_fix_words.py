"""Two OpenSLO refusals that named no fix or misread the field (stop 62's stranger): a
time-slice field on an Occurrences SLO says which field to delete or which budgetingMethod reads
it; ``conditions`` that is not a list says what it is, never "lists 0 conditions".

Oracle: the words written here by hand from OpenSLO v1 (timeSliceTarget belongs to Timeslices,
timeSliceWindow to Timeslices and RatioTimeslices; an AlertPolicy's conditions is a list of
exactly one item)."""

from __future__ import annotations

import pytest

from budgetlab.errors import ConfigError
from budgetlab.interop.openslo import read_openslo

from .test_openslo_refusals_untested import BASE, CONDITIONS, PREFIX

OBJECTIVE = "    - target: 0.99\n"
POLICY = CONDITIONS.split("        conditions:\n")[0]
TARGETS = "        notificationTargets: [{targetRef: t}]\n"


@pytest.mark.parametrize(("field", "methods"), [
    ("timeSliceTarget: 0.9", "Timeslices"),
    ("timeSliceWindow: 5m", "Timeslices or RatioTimeslices"),
])
def test_a_time_slice_field_on_occurrences_says_the_fix(field, methods):
    key = field.split(":")[0]
    text = BASE.replace(OBJECTIVE, OBJECTIVE + f"      {field}\n")
    with pytest.raises(ConfigError) as err:
        read_openslo(text)
    assert str(err.value) == (
        f"{PREFIX}spec.objectives[0].{key} applies to the time-slice budgeting methods only "
        f"({methods}), and spec.budgetingMethod is Occurrences (each event counted): delete "
        f"{key}, or set budgetingMethod: {methods} to budget time slices.")


FIX = ("; an AlertPolicy lists exactly one condition (OpenSLO v1): write it as a list of one "
       "item ('- conditionRef: NAME' or '- kind: AlertCondition ...').")


@pytest.mark.parametrize(("conditions", "what"), [
    # one condition written as a mapping (the list's dash left out)
    ("        conditions:\n          kind: AlertCondition\n          metadata: {name: c}\n",
     "is a mapping, not a list"),
    ("        conditions: c\n", "is a string, not a list"),
    ("        conditions:\n", "is empty (null), not a list"),
    ("", "is missing"),
])
def test_conditions_that_are_not_a_list_say_what_they_are(conditions, what):
    with pytest.raises(ConfigError) as err:
        read_openslo(BASE + POLICY + conditions + TARGETS)
    assert str(err.value) == f"{PREFIX}spec.alertPolicies[0].spec.conditions {what}{FIX}"


def test_an_empty_list_still_counts_its_conditions():
    with pytest.raises(ConfigError) as err:
        read_openslo(BASE + POLICY + "        conditions: []\n" + TARGETS)
    assert str(err.value) == (f"{PREFIX}spec.alertPolicies[0].spec.conditions lists 0 "
                              "conditions; an AlertPolicy has exactly one condition (OpenSLO v1) "
                              "(give each condition its own AlertPolicy).")
