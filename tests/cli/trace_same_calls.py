"""`--trace` makes exactly the same file-system calls as a run without it.

Generates the same dataset twice under strace, once untraced and once with --trace, and compares
the system calls made on the data folder, by name (openat also by whether it made an unnamed
O_TMPFILE file): the tracer only watches, it never changes how a file is written or published.
Usage: trace_same_calls.py DLBENCH WORKLOAD SCRATCH [OVERRIDE...]; prints "trace_same_calls: OK".
"""

import collections
import pathlib
import re
import shutil
import subprocess
import sys

# A call line of `strace -f -y -o FILE`: "PID name(args) = result", or, when another thread's call
# came in between, "PID name(args <unfinished ...>" then "PID <... name resumed>) = result": each
# call is counted once, by its complete line or its unfinished one.
CALL = re.compile(r"^(?:\d+\s+)?(\w+)\((.*)\)\s+=\s+(-?\d+|\?)")
UNFINISHED = re.compile(r"^(?:\d+\s+)?(\w+)\((.*)<unfinished \.\.\.>$")


def calls_on(trace: pathlib.Path, folder: str) -> collections.Counter:
    counts: collections.Counter = collections.Counter()
    for line in trace.read_text(errors="replace").splitlines():
        match = CALL.match(line) or UNFINISHED.match(line)
        if not match or folder not in match.group(2):
            continue
        name = match.group(1)
        if name in ("openat", "open") and "O_TMPFILE" in match.group(2):
            name += "(O_TMPFILE)"
        if name.startswith("rename"):
            name = "rename"
        counts[name] += 1
    return counts


def generate(dlbench: str, workload: str, scratch: pathlib.Path, overrides: list, traced: bool):
    mode = "traced" if traced else "untraced"
    data = scratch / f"data_{mode}"
    trace = scratch / f"{mode}.strace"
    command = ["strace", "-f", "-qq", "-y", "-e", "trace=file,desc", "-o", str(trace), dlbench,
               "generate", workload, "--quiet", "--output", str(scratch / f"out_{mode}"),
               f"++workload.dataset.data_folder={data}", *overrides]
    if traced:
        command.append("--trace")
    subprocess.run(command, check=True)
    return calls_on(trace, str(data))


def main() -> int:
    dlbench, workload, scratch = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    overrides = sys.argv[4:]
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    untraced = generate(dlbench, workload, scratch, overrides, traced=False)
    traced = generate(dlbench, workload, scratch, overrides, traced=True)
    print("untraced:", dict(sorted(untraced.items())))
    print("traced:  ", dict(sorted(traced.items())))
    published = untraced["linkat"] + untraced["rename"]
    if published == 0:
        print("trace_same_calls: FAILED: strace saw no file published in the data folder")
        return 1
    if traced != untraced:
        differ = sorted(name for name in set(traced) | set(untraced)
                        if traced[name] != untraced[name])
        print("trace_same_calls: FAILED: the calls differ:",
              ", ".join(f"{n} {untraced[n]} untraced, {traced[n]} traced" for n in differ))
        return 1
    print("trace_same_calls: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
