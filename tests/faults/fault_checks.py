"""What the fault sweep and the killed-rank tests check after a run (tests/faults/)."""
import json
import os
import re
import signal
import subprocess
import time

TIMEOUT = 60
OPERATIONS = ("open for reading|create|open for writing|read|write|fsync directory|fsync|close|"
              "rename|mkdir|remove tree|remove|list|statvfs|truncate|stat")
# "<operation> <path>": how storage errors begin (util/error.cpp IoError).
OPERATION_AND_PATH = re.compile(r"\b(" + OPERATIONS + r") (/[^ :]+)")
ANY_PATH = re.compile(r"/[^ :]+")


def run(command, faults, timeout=TIMEOUT):
    """Runs `command` with DLBENCH_FAULTS=`faults` (unset for None) in its own process group.
    Returns (exit code, or None if it had to be killed after `timeout` s; output; seconds)."""
    env = dict(os.environ)
    env.pop("DLBENCH_FAULTS", None)
    if faults is not None:
        env["DLBENCH_FAULTS"] = faults
    start = time.monotonic()
    p = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out, time.monotonic() - start
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return None, out, time.monotonic() - start


def leftover_processes(marker):
    """Processes (other than this one) whose command line holds `marker`."""
    left = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in cmdline:
            left.append(f"{pid}: {cmdline.strip()}")
    return left
def final_files(folder):
    """Files under their final names (no partial or hidden files), relative paths."""
    found = {}
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if name.startswith(".") or name.endswith(".dlbench-partial"):
                continue
            path = os.path.join(root, name)
            found[os.path.relpath(path, folder)] = path
    return found


def identity(path):
    st = os.stat(path)
    return (st.st_ino, st.st_mtime_ns)


def checkpoint_problems(folder):
    """Checkpoints with a manifest whose files are not all there with their sizes."""
    problems = []
    complete = set()
    if not os.path.isdir(folder):
        return problems, complete
    for name in sorted(os.listdir(folder)):
        manifest = os.path.join(folder, name, "dlbench_checkpoint_manifest.json")
        if not os.path.isfile(manifest):
            continue
        try:
            with open(manifest) as f:
                files = json.load(f)["files"]
        except (ValueError, KeyError) as e:
            problems.append(f"{manifest}: unreadable manifest ({e})")
            continue
        for entry in files:
            path = os.path.join(folder, name, entry["name"])
            if not os.path.isfile(path) or os.path.getsize(path) != entry["bytes"]:
                problems.append(f"{manifest} lists {entry['name']} ({entry['bytes']} B), "
                                "which is missing or of another size")
        complete.add(name)
    return problems, complete
