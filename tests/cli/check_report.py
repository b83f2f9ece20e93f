#!/usr/bin/python3
"""Checks an HTML file written by `dlbench report` and renders it in headless Chromium.

usage: check_report.py REPORT.html MIN_CHARTS SCREENSHOT.png [--io RUN_DIR TRACE_SUMMARY.json|-]...

With --io, the I/O charts of the run in RUN_DIR (its section, "Run <folder name>") must show what
the run recorded: the access-size histograms every POSIX_SIZE_READ_* / POSIX_SIZE_WRITE_* of its
summary.json's posix_counters.totals, and the bandwidth lines every per-second value of
`dlbench trace summary RUN_DIR --json` (TRACE_SUMMARY.json), in total and per rank; a run given
with "-" (no trace) must carry the report's "No trace" note instead.

The file must be well formed (every non-void element closed in order), hold no external
reference (no src/href to a URL, no url(...), no @import), and render in Chromium (Debian's
`chromium`, installed by scripts/test.sh) without any console message, with at least MIN_CHARTS
charts each marked drawn by the page's own check (marks present, non-empty box after layout).
The screenshot is kept at SCREENSHOT.png.
"""
import html, html.parser, json, os, re, shutil, subprocess, sys

report, min_charts, screenshot = sys.argv[1], int(sys.argv[2]), sys.argv[3]
io_checks = sys.argv[4:]
VOID = {"meta", "br", "img", "input", "link", "hr", "area", "base", "col", "embed", "source",
        "track", "wbr", "param"}
SVG_SELF_CLOSING_OK = True  # <line/>, <rect/>... are closed by handle_startendtag


def fail(message):
    sys.exit(f"check_report: FAIL: {message}")


class Balance(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.errors = [], []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href") and value and re.match(r"^\s*(https?:|//|ftp:)", value):
                self.errors.append(f"external reference {name}={value}")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
        else:
            self.stack.pop()


text = open(report, encoding="utf-8").read()
if not text.startswith("<!DOCTYPE html>"):
    fail("no doctype")
parser = Balance()
parser.feed(text)
parser.close()
if parser.errors:
    fail("; ".join(parser.errors[:5]))
if parser.stack:
    fail(f"unclosed elements {parser.stack}")
for pattern in (r"url\(", r"@import", r"<link\b", r"<iframe\b", r"\bsrc="):
    if re.search(pattern, text):
        fail(f"external reference ({pattern})")
charts = text.count('<figure class="chart">')
if charts < min_charts:
    fail(f"{charts} charts, expected at least {min_charts}")



def section(run_dir):
    """The report's HTML about the run in run_dir: from its heading to the next run's."""
    heading = f"<h2>Run {html.escape(os.path.basename(os.path.normpath(run_dir)))}</h2>"
    start = text.find(heading)
    if start < 0:
        fail(f"no section {heading}")
    end = text.find("<h2>", start + len(heading))
    return text[start:end if end >= 0 else len(text)]


def marks(part, title):
    """{tooltip label: value} of the marks of the chart titled `title` in part, or None."""
    start = part.find(f"<title>{html.escape(title, quote=True)}</title>")
    if start < 0:
        return None
    figure = part[start:part.find("</figure>", start)]
    found = {}
    for label in re.findall(r'class="mark"[^>]*><title>([^<]*)</title>', figure):
        name, _, value = html.unescape(label).rpartition(": ")
        found[name] = float(value)
    return found


def same(shown, value):  # the report prints values with 4 significant digits (%.4g)
    return shown == float(f"{value:.4g}")


def check_io(run_dir, trace_json):
    part = section(run_dir)
    totals = json.load(open(os.path.join(run_dir, "summary.json")))["posix_counters"]["totals"]
    buckets = ["0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M", "1M_4M", "4M_10M", "10M_100M",
               "100M_1G", "1G_PLUS"]
    checked = 0
    for direction in ("READ", "WRITE"):
        counts = [totals[f"POSIX_SIZE_{direction}_{b}"] for b in buckets]
        shown = marks(part, f"{direction.title()} access sizes (POSIX_SIZE_{direction}_*), bytes")
        if shown is None:
            if sum(counts):
                fail(f"{run_dir}: no {direction.lower()} access-size chart, counters {counts}")
            continue
        expected = {f"all ranks, {b}": c for b, c in zip(buckets, counts)}
        if shown.keys() != expected.keys() or not all(same(shown[k], v) for k, v in expected.items()):
            fail(f"{run_dir}: {direction.lower()} access sizes {shown} != counters {expected}")
        checked += 1
    if trace_json == "-":
        if "No trace in this run folder" not in part:
            fail(f"{run_dir}: no trace, and no note saying so")
        return checked
    bandwidth = json.load(open(trace_json))["bandwidth"]
    for direction in ("read", "write"):
        key = f"{direction}_MiB_per_second"
        lines = {"all ranks": bandwidth["total"][key]}
        lines.update({f"rank {r}": v[key] for r, v in bandwidth["per_rank"].items()})
        shown = marks(part, f"{direction.title()} bandwidth over time (trace, 1-s bins)")
        if shown is None:
            if any(lines["all ranks"]):
                fail(f"{run_dir}: no {direction} bandwidth chart, trace {lines['all ranks']}")
            continue
        expected = {f"{name} at {t}": v for name, values in lines.items() for t, v in enumerate(values)}
        if shown.keys() != expected.keys() or not all(same(shown[k], v) for k, v in expected.items()):
            fail(f"{run_dir}: {direction} bandwidth {shown} != trace summary {expected}")
        checked += 1
    return checked


io_charts = 0
for i in range(0, len(io_checks), 3):
    if io_checks[i] != "--io" or i + 2 >= len(io_checks):
        fail("usage: ... [--io RUN_DIR TRACE_SUMMARY.json|-]...")
    io_charts += check_io(io_checks[i + 1], io_checks[i + 2])

chromium = shutil.which("chromium")
if not chromium:
    fail("Debian's chromium is not installed (scripts/test.sh installs it: DLBENCH_PACKAGES)")
common = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
          "--enable-logging=stderr", "--v=0", "--user-data-dir=" + os.path.dirname(os.path.abspath(screenshot)) + "/chromium-profile"]
url = "file://" + os.path.abspath(report)
dom = subprocess.run(common + ["--dump-dom", url], capture_output=True, text=True, timeout=60)
console = [line for line in dom.stderr.splitlines() if ":CONSOLE" in line]
if console:
    fail("console messages: " + " | ".join(console))
drawn = re.findall(r'<figure class="chart" data-drawn="(yes|no)">', dom.stdout)
if len(drawn) != charts or drawn.count("yes") != charts:
    fail(f"{drawn.count('yes')} of {charts} charts drawn in Chromium ({len(drawn)} checked)")
shot = subprocess.run(common + ["--window-size=1400,2800", "--screenshot=" + os.path.abspath(screenshot), url],
                      capture_output=True, text=True, timeout=60)
if shot.returncode != 0 or not os.path.getsize(screenshot) > 10000:
    fail(f"no screenshot ({shot.returncode})")
print(f"check_report: OK ({charts} charts drawn, {io_charts} I/O charts equal to the run's "
      f"counters and trace, screenshot {screenshot})")
