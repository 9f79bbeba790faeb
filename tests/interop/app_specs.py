"""Two specs of one service, written once for the tests that read them: a Sloth
prometheus/v1 SLO and a Pyrra ServiceLevelObjective, each 99.9 % of app_requests_total
(errors: app_request_errors_total), Pyrra's over 30 d."""

SLOTH = """version: "prometheus/v1"
service: app
slos:
  - name: availability
    objective: 99.9
    sli:
      events:
        error_query: sum(rate(app_request_errors_total[{{.window}}]))
        total_query: sum(rate(app_requests_total[{{.window}}]))
"""
PYRRA = """apiVersion: pyrra.dev/v1alpha1
kind: ServiceLevelObjective
metadata: {name: app-availability, namespace: app}
spec:
  target: "99.9"
  window: 30d
  indicator:
    ratio:
      errors: {metric: app_request_errors_total}
      total: {metric: app_requests_total}
"""
