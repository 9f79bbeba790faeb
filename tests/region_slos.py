"""An OpenSLO file of one SLO per region, each at target 0.99 over its own budget period: the
per-group periods the alert and bucket tests bind (``--slo FILE --by region``)."""

REGION_SLO = """\
apiVersion: openslo/v1
kind: SLO
metadata: {{name: {name}, labels: {{region: {name}}}}}
spec:
  service: captcha
  indicatorRef: solves
  budgetingMethod: Occurrences
  timeWindow: [{{duration: {period}, isRolling: true}}]
  objectives: [{{target: 0.99}}]
"""


def region_slos(periods: dict[str, str]) -> str:
    """The file's text: one SLO document per ``region: period``, separated by ``---``."""
    return "---\n".join(REGION_SLO.format(name=name, period=period)
                        for name, period in periods.items())
