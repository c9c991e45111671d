#!/usr/bin/python3
"""Checks Lectern's metrics file with Prometheus's own parser (Debian python3-prometheus-client).

Usage: promcheck.py FILE [NAME>=VALUE ...]
Parses FILE as the Prometheus text format (what node_exporter's textfile collector reads),
requires every metric Lectern documents, and each NAME>=VALUE (a sample's name, with its
labels as the file writes them: lectern_gestures_total{component="fastScroll"}>=1).
Prints one line of samples and exits 0, or prints what is wrong and exits 1.
"""
import sys

from prometheus_client.parser import text_string_to_metric_families

REQUIRED = [
    "lectern_pages_shown",
    "lectern_touches",
    "lectern_documents_opened",
    "lectern_documents_failed",
    "lectern_render_errors",
    "lectern_idle_resets",
    "lectern_frame_latency_seconds",
    "lectern_resident_memory_bytes",
    "lectern_uptime_seconds",
]


def sample_key(sample):
    labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
    return f"{sample.name}{{{labels}}}" if labels else sample.name


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], encoding="utf-8") as handle:
            text = handle.read()
        families = list(text_string_to_metric_families(text))
    except (OSError, ValueError) as error:
        print(f"not a Prometheus text file: {error}")
        return 1
    names = {family.name for family in families}
    samples = {sample_key(s): s.value for family in families for s in family.samples}
    problems = [f"no {name}" for name in REQUIRED if name not in names]
    histogram = [f for f in families if f.name == "lectern_frame_latency_seconds"]
    if histogram and histogram[0].type != "histogram":
        problems.append(f"lectern_frame_latency_seconds is a {histogram[0].type}, not a histogram")
    for condition in sys.argv[2:]:
        name, _, minimum = condition.partition(">=")
        value = samples.get(name)
        if value is None or value < float(minimum):
            problems.append(f"{name} is {value}, wanted >= {minimum}")
    if problems:
        print("; ".join(problems))
        return 1
    print(" ".join(f"{k}={v:g}" for k, v in sorted(samples.items()) if "_bucket" not in k))
    return 0


if __name__ == "__main__":
    sys.exit(main())
