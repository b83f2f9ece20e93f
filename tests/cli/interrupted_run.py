#!/usr/bin/python3
"""A run stopped by a signal records how it ended (docs/reliability.md, Incomplete runs).

    interrupted_run.py DLBENCH WORKLOAD FOLDER MPIEXEC_LINE...

In FOLDER (emptied first): generates WORKLOAD's dataset, then starts long `dlbench train` runs and
signals each once its summary.json says phase train (the marker: written when the phase starts),
200 ms later. For SIGINT and SIGTERM on one rank, and SIGTERM or SIGINT to `mpiexec -n 2` (Open
MPI's mpirun, which passes either on to the ranks as SIGTERM and exits 1, recorded as sent by
mpirun): the process ends by the signal (exit status -SIG for one rank), summary.json is
valid JSON whose run_status says phase train, exit code 128 + SIG and the signal's name, dlio.log
ends with the ERROR line, the terminal says it once; a rerun trains (exit 0) on the same dataset
and `dlbench compare` refuses the interrupted run naming the signal. A SIGINT ignored when dlbench
starts (a shell's background job, nohup) stays ignored. Before, the process died at once and
run_status kept "exit_code": null."""
import json, os, shutil, signal, subprocess, sys, time

dlbench, workload, folder = sys.argv[1:4]
mpiexec = sys.argv[4:]
shutil.rmtree(folder, ignore_errors=True)
os.makedirs(folder)
os.chdir(folder)
data = "++workload.dataset.data_folder=data"
LONG = ["++workload.train.epochs=500", "++workload.train.computation_time=0.01", data]


def fail(text):
    print("interrupted_run: FAIL: " + text)
    sys.exit(1)


def check(code, command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != code:
        fail(f"{command}: exit {result.returncode}, expected {code}:\n{result.stdout}{result.stderr}")
    return result


def wait_for_phase(process, out, phase):
    deadline = time.time() + 60
    while time.time() < deadline:
        if process.poll() is not None:
            fail(f"{out}: ended with {process.returncode} before phase {phase}")
        try:
            if json.load(open(out + "/summary.json"))["run_status"]["phase"] == phase:
                time.sleep(0.2)
                return
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.01)
    fail(f"{out}: phase {phase} not reached in 60 s")


def interrupt(name, sig, launcher, expected_status, **popen):
    out = "out_" + name
    command = launcher + [dlbench, "train", workload, "-q", "-o", out] + LONG
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, **popen)
    wait_for_phase(process, out, "train")
    process.send_signal(sig)
    try:
        output, _ = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        fail(f"{name}: still running 60 s after {sig.name}")
    if expected_status is not None and process.returncode != expected_status:
        fail(f"{name}: exit status {process.returncode}, expected {expected_status}:\n{output}")
    return out, output


# What mpirun's ranks record: the SIGTERM it sends them on a Ctrl-C or its own SIGTERM.
BY_MPIRUN = ("interrupted by SIGTERM from mpirun (it stops every rank with SIGTERM when it gets a "
             "Ctrl-C or a SIGTERM; mpirun then exits 1)")


def check_recorded(out, output, sig, by_mpirun=False):
    status = json.load(open(out + "/summary.json"))["run_status"]
    error = "interrupted by " + sig.name
    said = BY_MPIRUN if by_mpirun else f"interrupted by {sig.name} (exit {128 + sig})"
    want = {"complete": False, "phase": "train", "exit_code": 128 + sig,
            "error": error, "signal": sig.name}
    if by_mpirun:
        want["sent_by"] = "mpirun"
    if status != want:
        fail(f"{out}: run_status is {status}, expected {want}")
    last = open(out + "/dlio.log").read().splitlines()[-1]
    if not (last.startswith("[ERROR] ") and last.endswith(said)):
        fail(f"{out}/dlio.log ends with {last!r}")
    if output.count(f"dlbench: error: {said}") != 1:
        fail(f"{out}: the terminal does not say it once:\n{output}")
    if "bug in dlbench" in output or "internal error" in output:
        fail(f"{out}: an interruption reads as a bug:\n{output}")
    compared = check(2, [dlbench, "compare", "ok", out])
    if f"stopped in phase train: {error} (exit {128 + sig})" not in compared.stderr:
        fail(f"compare does not name the signal: {compared.stderr}")


check(0, [dlbench, "generate", workload, "-q", "-o", "gen", data])
check(0, [dlbench, "train", workload, "-q", "-o", "ok", data])
for sig in (signal.SIGINT, signal.SIGTERM):
    out, output = interrupt(sig.name, sig, [], -sig)
    check_recorded(out, output, sig)
    check(0, [dlbench, "train", workload, "-q", "-o", out + "_rerun", data])
# Under mpirun the ranks get mpirun's SIGTERM, whether mpirun got a SIGTERM or a Ctrl-C (SIGINT),
# and mpirun exits 1 whatever the ranks' status: the record says so (before: SIGTERM/143 with
# nothing about mpirun, while mpirun's 1 read as "internal error" in the exit code table).
for sig in (signal.SIGTERM, signal.SIGINT):
    out, output = interrupt("mpi_" + sig.name, sig, mpiexec + ["2"], 1)
    check_recorded(out, output, signal.SIGTERM, by_mpirun=True)
# Ignored at start (a background job of a non-interactive shell): SIGINT does nothing; SIGTERM
# still stops the run and is recorded.
out = "out_ignored"
process = subprocess.Popen([dlbench, "train", workload, "-q", "-o", out] + LONG,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
wait_for_phase(process, out, "train")
process.send_signal(signal.SIGINT)
time.sleep(0.5)
if process.poll() is not None:
    fail(f"an ignored SIGINT stopped the run: {process.returncode}")
process.send_signal(signal.SIGTERM)
output, _ = process.communicate(timeout=60)
if process.returncode != -signal.SIGTERM:
    fail(f"{out}: exit status {process.returncode}")
check_recorded(out, output, signal.SIGTERM)
print("interrupted_run: OK")
