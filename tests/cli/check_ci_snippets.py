#!/usr/bin/python3
"""Checks the ready-to-paste CI jobs of docs/ci.md: each is valid YAML of its CI system's shape,
its shell is valid bash, and every dlbench command it runs exists with every option it passes.

usage: check_ci_snippets.py DOCS/ci.md DLBENCH

The GitHub Actions block must parse to jobs.<job>.steps with `run` steps, the GitLab CI block to
<job>.script; the shell of each (the steps' `run`, the script lines joined) must pass `bash -n`;
each `dlbench SUBCOMMAND` in them (written dlbench/build/dlbench or $D) must be a subcommand
whose `--help` lists every --option given to it.
"""
import re, subprocess, sys

import yaml

doc, dlbench = sys.argv[1], sys.argv[2]


def fail(message):
    sys.exit(f"check_ci_snippets: FAIL: {message}")


blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", open(doc).read(), re.S)]
github = [b for b in blocks if isinstance(b, dict) and "jobs" in b]
gitlab = [b for b in blocks if isinstance(b, dict) and any(
    isinstance(v, dict) and "script" in v for v in b.values())]
if len(github) != 1 or len(gitlab) != 1:
    fail(f"expected one GitHub Actions and one GitLab CI job, found {len(github)} and {len(gitlab)}")

shells = {}
for name, job in github[0]["jobs"].items():
    steps = job.get("steps")
    if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
        fail(f"GitHub job {name}: steps is not a list of steps")
    for i, step in enumerate(steps):
        if "run" in step:
            shells[f"GitHub {name} step {step.get('name', i)}"] = step["run"]
        elif "uses" not in step:
            fail(f"GitHub job {name} step {i}: neither run nor uses")
for name, job in gitlab[0].items():
    if not isinstance(job.get("script"), list):
        fail(f"GitLab job {name}: script is not a list")
    shells[f"GitLab {name}"] = "\n".join(job["script"])

helps = {}
commands = 0
for where, shell in shells.items():
    check = subprocess.run(["bash", "-n"], input=shell, capture_output=True, text=True)
    if check.returncode != 0:
        fail(f"{where}: bash -n: {check.stderr.strip()}")
    for line in re.split(r"[\n;|&]", shell):
        match = re.search(r"(?:dlbench/build/dlbench|\$D)\s+([a-z]+)(.*)", line)
        if not match:
            continue
        command, rest = match.group(1), match.group(2)
        if command not in helps:
            run = subprocess.run([dlbench, command, "--help"], capture_output=True, text=True)
            if run.returncode != 0:
                fail(f"{where}: `dlbench {command}` is not a command ({run.stderr.strip()})")
            helps[command] = run.stdout
        for option in re.findall(r"(?<!\S)(--[a-z][a-z-]*|-[a-z])\b", rest):
            if not re.search(rf"(?<![\w-]){re.escape(option)}\b", helps[command]):
                fail(f"{where}: `dlbench {command}` has no option {option}")
        commands += 1
if commands == 0:
    fail("no dlbench command found in the jobs")
print(f"check_ci_snippets: OK ({len(shells)} shells, {commands} dlbench commands checked)")
