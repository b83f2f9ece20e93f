"""`dlbench sweep` end to end on the tiny training workload with real mpiexec at 1, 2 and 4 ranks:
sweep.json agrees with every run folder's summary.json, the dataset is generated once, a rerun
keeps the completed points, another sweep's arguments are refused (exit 2), `dlbench report`
draws the sweep, and a point whose job fails is recorded and the sweep goes on (or stops).

    sweep_end_to_end.py DLBENCH TINY_YAML SCRATCH MPIEXEC... (the words before the rank count)
"""
import json
import os
import shutil
import subprocess
import sys

dlbench, tiny, scratch = sys.argv[1:4]
mpiexec = " ".join(sys.argv[4:])
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
out = os.path.join(scratch, "sweep")
common = [tiny, "++workload.dataset.data_folder=" + os.path.join(scratch, "data"),
          "++workload.workflow.evaluation=False", "++workload.dataset.num_files_train=16",
          "++workload.train.epochs=1", "++workload.metric.au=0.01"]


def run(args, code):
    done = subprocess.run([dlbench, "sweep"] + args, capture_output=True, text=True, timeout=240)
    text = done.stdout + done.stderr
    if done.returncode != code:
        sys.exit("exit %d (expected %d) for %s:\n%s" % (done.returncode, code, args, text))
    return text


def check(condition, what):
    if not condition:
        sys.exit("sweep_end_to_end: " + what)


search = common + ["--launcher", mpiexec + " {ranks}", "--max-accelerators", "4", "-o", out]
text = run(search, 0)
check("tiny_train: 4 accelerator(s) per host meet AU >= 1 % (median AU" in text, text)
sweep = json.load(open(os.path.join(out, "sweep.json")))
check(sweep["max_accelerators"] == 4 and sweep["complete"], "max_accelerators/complete")
check(sweep["au_threshold_percentage"] == 1.0, "threshold")
check([p["accelerators"] for p in sweep["points"]] == [1, 2, 4], "points 1 2 4")
check(sweep["generated"] == [""] and os.path.isfile(os.path.join(out, "generate/summary.json")),
      "one generation")
mtimes = {}
for point in sweep["points"]:
    check(point["verdict"] == "pass" and len(point["runs"]) == 1, "verdict")
    run_entry = point["runs"][0]
    path = os.path.join(out, run_entry["folder"], "summary.json")
    summary = json.load(open(path))
    metric = summary["metric"]
    check(summary["num_accelerators"] == point["accelerators"], path + ": num_accelerators")
    check(run_entry["au_percentage"] == metric["train_au_mean_percentage"], path + ": AU")
    check(point["au_median_percentage"] == metric["train_au_mean_percentage"], path + ": median")
    check(run_entry["samples_per_second"] == metric["train_throughput_mean_samples_per_second"],
          path + ": samples/s")
    check(run_entry["read_MiB_per_second"] == metric["train_read_MiB_per_second"],
          path + ": read rate")
    check(summary["num_files_train"] == 16, path + ": the dataset")
    mtimes[path] = os.stat(path).st_mtime_ns

# A rerun with the same arguments keeps every point and runs nothing.
text = run(search, 0)
check(text.count("(kept from sweep.json)") == 3, "resume:\n" + text)
check("generating" not in text, "resume generated again")
for path, mtime in mtimes.items():
    check(os.stat(path).st_mtime_ns == mtime, path + " was run again")

# Another sweep's arguments into the same folder: refused.
text = run(search + ["--repeat", "2"], 2)
check("holds another sweep" in text and "repeat (recorded 1, given 2)" in text, text)

report = os.path.join(scratch, "report.html")
done = subprocess.run([dlbench, "report", out, "-o", report], capture_output=True, text=True)
check(done.returncode == 0, done.stdout + done.stderr)
html = open(report).read()
check("dlbench sweep: tiny_train" in html and html.count('class="mark"') >= 6, "report")

# A grid point whose job fails (a bad value) is recorded with its error; the sweep goes on. Jobs
# of one rank need no mpiexec: the template only has to place the count.
grid = common + ["--launcher", "env DLBENCH_SWEEP_RANKS={ranks}", "--grid",
                 "reader.read_threads=1,-3"]
text = run(grid + ["-o", os.path.join(scratch, "grid")], 0)
sweep = json.load(open(os.path.join(scratch, "grid", "sweep.json")))
verdicts = [p["verdict"] for p in sweep["points"]]
check(verdicts == ["pass", "error"], "grid verdicts %s" % verdicts)
check("read_threads" in sweep["points"][1]["error"], sweep["points"][1]["error"])
check(sweep["points"][1]["runs"][0]["exit_code"] == 2, "the failed job's exit code")
text = run(["--stop-on-error", "--grid", "reader.batch_size=2"] + grid +
           ["-o", os.path.join(scratch, "stop")], 2)
check("stopped early" not in text, text)  # no search: the table says the error
sweep = json.load(open(os.path.join(scratch, "stop", "sweep.json")))
check(not sweep["complete"] and len(sweep["points"]) == 2, "stop-on-error")
print("sweep_end_to_end: OK")
