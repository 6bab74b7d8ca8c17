from dsl import E

ENTRIES = [
    E("LogAnomalyDetector", "tool", "1.0.0", "deprecated", "Stream[LogLine] -> AnomalyReport",
      """Flagged log lines whose template frequency drifted from a seven-day baseline. Raised too
      many false alarms during deploys.""",
      "logs, anomaly detection, baseline, legacy", "sre-team", "streaming",
      "0.46 12000 2025-10-15T10:00 400 local", "dep:LogTemplateMiner"),
    E("LogAnomalyDetector_v2", "tool", "2.0.0", "active", "Stream[LogLine] -> AnomalyReport",
      """Learns normal log patterns per service and flags new error templates and rate changes,
      keeping quiet during deploy windows.""",
      "logs, anomaly detection, error templates, observability", "sre-team", "streaming",
      "0.91 24000 2026-11-21T16:59 90 hybrid", "succ:LogAnomalyDetector dep:LogTemplateMiner",
      fmt="card", file="cards/log-anomaly-detector-v2.md", body="""
## What it watches
Every service's log stream, grouped into templates by LogTemplateMiner. It learns how often
each template appears by hour of week, and reports:
- templates never seen before that look like errors,
- rate changes beyond 4 robust standard deviations,
- templates that suddenly stop (a silent consumer is often worse than a noisy one).

## Deploys
During a deploy window (read from the CD system) new templates are collected but not
reported until the window closes and they persist for 10 minutes. This removed most of the
false alarms that got LogAnomalyDetector deprecated.

## Output
AnomalyReports go to AlertRouter, which decides whether anybody gets paged.
"""),
    E("LogTemplateMiner", "tool", "1.1.0", "active", "Stream[LogLine] -> Stream[Record]",
      """Clusters raw log lines into templates with the Drain algorithm, replacing variable parts
      such as IDs and IP addresses with placeholders.""",
      "logs, drain, templates, parsing", "sre-team", "deterministic, streaming",
      "0.98 27000 2026-11-21T16:59 20 local"),
    E("MetricsCollector", "tool", "2.0.0", "active", "APIEndpoint -> MetricSeries",
      """Scrapes Prometheus-format endpoints on an interval and stores the samples as time
      series.""",
      "prometheus, metrics, scraping, time series", "sre-team", "requires_network",
      "0.99 49870 2026-11-21T16:59 30 local"),
    E("MetricAnomalyDetector", "tool", "1.3.0", "active", "MetricSeries -> AnomalyReport",
      """Seasonal anomaly detection on metric series (STL decomposition plus robust z-scores)
      with per-metric sensitivity.""",
      "metrics, anomaly detection, seasonality", "sre-team", "deterministic",
      "0.89 19000 2026-11-21T16:59 350 local"),
    E("AlertRouter", "tool", "3.0.0", "active", "AnomalyReport -> Alert",
      """Decides who gets paged: merges related anomalies into one alert, applies on-call
      schedules and escalates when nobody acknowledges.""",
      "alerting, paging, on-call, escalation", "sre-team", "idempotent",
      "0.97 33000 2026-11-21T16:59 150 cloud", "dep:SlackNotifier,SMSGateway,OnCallRotation"),
    E("IncidentSummarizer", "agent", "1.0.0", "active", "List[Alert] -> Summary",
      """Keeps a running incident summary from alerts, chat and deploy events: impact, timeline,
      current hypothesis and time of the next update.""",
      "incidents, status updates, timeline", "sre-team", "",
      "0.85 2100 2026-11-20T03:10 11000 cloud", "impl:SummarizerInterface dep:Summarizer_v4"),
    E("UptimeWatcher", "tool", "1.0.0", "retired", "URL -> Alert",
      """Pinged URLs every five minutes from a single region. Retired because it paged people
      for its own network blips.""",
      "uptime, ping, legacy", "sre-team", "requires_network",
      "0.40 31000 2024-12-01T10:00 500 cloud"),
    E(("UptimeWatcher_v2", "Uptime Watcher v2"), "tool", "2.0.0", "active", "URL -> Alert",
      """Checks endpoints every 30 seconds from six regions and alerts only when at least three
      agree the service is down; also warns before TLS certificates expire.""",
      "uptime, synthetic checks, tls expiry, multi-region", "sre-team", "requires_network",
      "0.99 45000 2026-11-21T16:59 800 cloud", "succ:UptimeWatcher dep:AlertRouter",
      fmt="card", file="cards/uptime-watcher-v2.md", body="""
## Adding a check
```yaml
- url: https://api.example.com/healthz
  expect_status: 200
  expect_body_contains: '"ok":true'
  regions: all          # or a list
  tls_warn_days: 21
```
Checks run every 30 s from six regions. An alert fires only when three or more regions fail
two consecutive checks, which is what stopped the 3 a.m. pages caused by one region's
network hiccups (the reason UptimeWatcher was retired).

## Where alerts go
Through AlertRouter, so on-call schedules and escalation apply. Certificate warnings are
never paged; they open a ticket for the owning team.
"""),
    E("ArtifactHealthProbe", "tool", "1.2.0", "active", "",
      """Calls registered tools with canned inputs every hour and writes their success rate and
      latency back into the catalog.""",
      "health checks, catalog, probes, success rate", "platform-core", "",
      "0.98 40000 2026-11-21T16:00 1500 cloud"),
    E(("LLMCostTracker", "LLM Cost Tracker"), "tool", "1.1.0", "active", "Stream[LogLine] -> Report",
      """Tallies token usage and spend per agent, team and model from gateway logs, with daily
      budgets and warnings.""",
      "cost, tokens, budgets, finops", "platform-core", "",
      "0.96 12000 2026-11-21T16:00 100 local"),
    E("TraceAnalyzer", "tool", "1.0.0", "active", "Trace -> Report",
      """Finds the slow span in distributed traces and ranks services by how much they add to
      p99 latency.""",
      "tracing, opentelemetry, latency, p99", "sre-team", "deterministic",
      "0.88 4200 2026-11-21T15:00 2000 local"),
    E("DashboardBuilder", "tool", "0.9.0", "active", "",
      """Generates Grafana dashboards as code from a service's metric names and SLOs.""",
      "grafana, dashboards, as code", "ToolForge", "deterministic",
      "0.86 1400 2026-03-03T10:00 1800 local", "forge:ToolForge"),
    E("SLOReporter", "tool", "1.1.0", "active", "MetricSeries -> Report",
      """Computes error-budget burn for each SLO over 7- and 28-day windows and writes the weekly
      reliability report.""",
      "slo, error budget, reliability", "sre-team", "deterministic",
      "0.97 3300 2026-11-17T08:00 2500 local"),
    E("PostmortemDrafter", "agent", "0.9.0", "active", "List[Alert] -> MarkdownText",
      """Drafts a blameless postmortem from the incident channel, the timeline and the alerts,
      leaving the root-cause section for people to confirm.""",
      "postmortem, incident review, blameless", "PromptSmith", "",
      "0.80 380 2026-11-20T09:00 23000 cloud", "dep:IncidentSummarizer forge:PromptSmith"),
    E("DriftMonitor", "tool", "0.5.0", "experimental", "DataFrame -> Report",
      """Watches a model's production inputs and outputs for distribution drift (PSI,
      Kolmogorov-Smirnov) and warns when retraining looks due.""",
      "ml monitoring, drift, psi, retraining", "ml-platform", "",
      "0.74 600 2026-11-21T06:00 4000 local"),
    E("LogShipper", "tool", "2.1.0", "active", "Stream[LogLine] -> ObjectStoreBucket",
      """Ships logs to object storage as compressed hourly files with a manifest.""",
      "logs, shipping, archive, s3", "sre-team", "streaming",
      "0.99 48000 2026-11-21T16:59 20 local"),
    E("SyntheticCheckRecorder", "tool", "0.7.0", "deprecated", "URL -> Report",
      """Recorded browser click-paths for synthetic monitoring from Selenium IDE exports. Flaky
      on single-page apps.""",
      "synthetic monitoring, selenium, legacy", "sre-team", "requires_network",
      "0.50 2200 2025-12-01T10:00 12000 cloud", "dep:ChromiumPool"),
    E("CronJobWatcher", "tool", "1.0.0", "active", "",
      """Alerts when a scheduled job fails to check in on time or runs far longer than usual.""",
      "heartbeat, scheduled jobs, dead man's switch", "sre-team", "",
      "0.99 21000 2026-11-21T16:59 20 cloud", "dep:AlertRouter"),
    E("DiskUsageForecaster", "tool", "0.3.0", "experimental", "MetricSeries -> Report",
      """Projects when volumes will fill up from their growth trend and files a ticket two weeks
      ahead.""",
      "capacity planning, disk, forecast", "sre-team", "",
      "0.41 90 2026-11-15T10:00 900 local"),
]
