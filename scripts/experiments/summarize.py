#!/usr/bin/env python3
"""Medians and spreads of the experiment runs (scripts/experiments/*.sh), as a Markdown table.

summarize.py TSV BASELINE  -- TSV rows: variant, metric, value (one per run); BASELINE: the variant
the ratio column divides by. Variants and metrics keep their first-seen order.
"""
import statistics
import sys

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
baseline = sys.argv[2]
variants, metrics, values = [], [], {}
for variant, metric, value in rows:
    if variant not in variants:
        variants.append(variant)
    if metric not in metrics:
        metrics.append(metric)
    values.setdefault((variant, metric), []).append(float(value))


def cell(v):
    xs = values.get(v)
    if not xs:
        return "", None
    m = statistics.median(xs)
    return "%.4g [%.4g-%.4g] (n=%d)" % (m, min(xs), max(xs), len(xs)), m


print("| metric (median [min-max]) | " + " | ".join(variants) + " |")
print("|---|" + "---|" * len(variants))
for metric in metrics:
    cells = [cell((v, metric))[0] for v in variants]
    print("| " + metric + " | " + " | ".join(cells) + " |")
print()
print("Ratios of medians to `%s`:" % baseline)
print()
print("| metric | " + " | ".join(v for v in variants if v != baseline) + " |")
print("|---|" + "---|" * (len(variants) - 1))
for metric in metrics:
    base = cell((baseline, metric))[1]
    out = []
    for v in variants:
        if v == baseline:
            continue
        m = cell((v, metric))[1]
        out.append("%.3f" % (m / base) if base and m is not None else "")
    print("| " + metric + " | " + " | ".join(out) + " |")
