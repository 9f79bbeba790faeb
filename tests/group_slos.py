"""An OpenSLO file of two SLOs, one per value of the key ``g`` (``lat-a`` at 0.9, ``lat-b`` at
0.8, 30 d rolling): the file the ``--slo FILE#NAME`` tests pick one SLO from."""

GROUP_SLO = """\
apiVersion: openslo/v1
kind: SLO
metadata: {{name: lat-{g}, labels: {{g: {g}}}}}
spec:
  service: app
  indicatorRef: solves
  budgetingMethod: Occurrences
  timeWindow: [{{duration: 30d, isRolling: true}}]
  objectives: [{{target: {target}}}]
"""


def group_slos() -> str:
    """The file's text: ``lat-a`` (labels ``g: a``, target 0.9) and ``lat-b`` (``g: b``, 0.8)."""
    return GROUP_SLO.format(g="a", target=0.9) + "---\n" + GROUP_SLO.format(g="b", target=0.8)
