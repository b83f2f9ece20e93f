# is the C10 overshoot the bias of a cap set from one noisy run? For each trial of the
# interleaved rates run, compares the measured C10 against what a pure cap would give if applied
# to the unthrottled B runs: per run (min(B_i, 0.9 A_i), the script's design at b4ff8d6) and from
# the median of A (min(B_i, 0.9 median A)). Prints per preset the median over trials.
#   python3 scripts/experiments/throttle-cap-bias.py DIR   (DIR: a --dir of test-regression-detection.sh at b4ff8d6, --slowdowns 10)
import json, os, statistics, sys
root = sys.argv[1]
M = {'ci_train_small': 'metric.train_read_MiB_per_second', 'ci_train_large': 'metric.train_read_MiB_per_second',
     'ci_checkpoint': 'metric.checkpoint_write_GiB_per_second', 'ci_generate': 'generation.total.MiB_per_second'}
def v(f, path):
    d = json.load(open(f))
    for k in path.split('.'):
        d = d[k]
    return statistics.fmean(d) if isinstance(d, list) else d
print("| preset | trials | measured C10 median / A median | cap per run on B: min(B_i, 0.9 A_i) | cap from A's median: min(B_i, 0.9 med A) | measured C10_i / A_i | per run on B: min(B_i, 0.9 A_i) / A_i |")
print("|---|---:|---:|---:|---:|---:|---:|")
for p, path in M.items():
    rows = []
    for t in sorted(os.listdir(f"{root}/{p}"), key=int):
        base = f"{root}/{p}/{t}"
        if not all(os.path.exists(f"{base}/{s}/run-8/summary.json") for s in ("A", "C10", "B")):
            continue
        A = [v(f"{base}/A/run-{i}/summary.json", path) for i in range(1, 9)]
        C = [v(f"{base}/C10/run-{i}/summary.json", path) for i in range(1, 9)]
        B = [v(f"{base}/B/run-{i}/summary.json", path) for i in range(1, 9)]
        mA = statistics.median(A)
        rows.append((statistics.median(C) / mA - 1,
                     statistics.median(min(b, 0.9 * a) for a, b in zip(A, B)) / mA - 1,
                     statistics.median(min(b, 0.9 * mA) for b in B) / mA - 1,
                     statistics.median(c / a - 1 for a, c in zip(A, C)),
                     statistics.median(min(b, 0.9 * a) / a - 1 for a, b in zip(A, B))))
    med = lambda k: f"{100 * statistics.median(r[k] for r in rows):+.1f} %"
    print(f"| {p} | {len(rows)} | " + " | ".join(med(k) for k in range(5)) + " |")
