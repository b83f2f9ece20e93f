#!/usr/bin/python3
"""`dlbench compare --format json` against scipy.stats.mannwhitneyu (Debian's python3-scipy).

usage: compare_pvalues.py DLBENCH

Writes sets of summary.json files whose samples/s are random (sizes 2..15 a side, with and
without ties, so both the exact and the normal-approximation paths run), compares them, and
requires the U statistic and the two-sided p-value to equal SciPy's (defaults: method 'auto',
continuity correction) to 1e-9 relative.
"""
import json, math, os, random, subprocess, sys, tempfile

from scipy.stats import mannwhitneyu

dlbench = sys.argv[1]
rng = random.Random(20261123)
PATH = "metric.train_throughput_mean_samples_per_second"


def write_side(folder, values):
    for i, value in enumerate(values, 1):
        os.makedirs(f"{folder}/run-{i}")
        with open(f"{folder}/run-{i}/summary.json", "w") as out:
            json.dump({"metric": {PATH.split(".")[1]: value}}, out)


checked = 0
with tempfile.TemporaryDirectory() as tmp:
    for case in range(30):
        n1, n2 = rng.randint(2, 15), rng.randint(2, 15)
        shift = rng.choice([0, 0.5, 2, 5])
        if case % 3 == 0:  # ties: values on a coarse grid
            x = [float(rng.randint(95, 105)) for _ in range(n1)]
            y = [float(rng.randint(95, 105)) + round(shift) for _ in range(n2)]
        else:
            x = [rng.gauss(100, 3) for _ in range(n1)]
            y = [rng.gauss(100 - shift, 3) for _ in range(n2)]
        base, cur = f"{tmp}/{case}/base", f"{tmp}/{case}/cur"
        write_side(base, x)
        write_side(cur, y)
        result = subprocess.run([dlbench, "compare", base, cur, "--format", "json"],
                                capture_output=True, text=True)
        if result.returncode not in (0, 4):
            sys.exit(f"compare_pvalues: FAIL: exit {result.returncode}: {result.stderr}")
        row = next(m for m in json.loads(result.stdout)["metrics"] if m["path"] == PATH)
        expected = mannwhitneyu(x, y)
        if row["u_statistic"] != float(expected.statistic):
            sys.exit(f"compare_pvalues: FAIL: U {row['u_statistic']} != {expected.statistic} for {x} {y}")
        if math.isnan(expected.pvalue):  # every value equal: dlbench says 1
            ok = row["p_value"] == 1
        else:
            ok = math.isclose(row["p_value"], expected.pvalue, rel_tol=1e-9, abs_tol=1e-15)
        if not ok:
            sys.exit(f"compare_pvalues: FAIL: p {row['p_value']} != {expected.pvalue} for {x} {y}")
        checked += 1
print(f"compare_pvalues: OK ({checked} random pairs of samples)")
