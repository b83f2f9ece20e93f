#!/usr/bin/python3
"""Checks an HTML file written by `dlbench report` and renders it in headless Chromium.

usage: check_report.py REPORT.html MIN_CHARTS SCREENSHOT.png

The file must be well formed (every non-void element closed in order), hold no external
reference (no src/href to a URL, no url(...), no @import), and render in Chromium (Debian's
`chromium`, installed by scripts/test.sh) without any console message, with at least MIN_CHARTS
charts each marked drawn by the page's own check (marks present, non-empty box after layout).
The screenshot is kept at SCREENSHOT.png.
"""
import html.parser, os, re, shutil, subprocess, sys

report, min_charts, screenshot = sys.argv[1], int(sys.argv[2]), sys.argv[3]
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
shot = subprocess.run(common + ["--window-size=1400,1800", "--screenshot=" + os.path.abspath(screenshot), url],
                      capture_output=True, text=True, timeout=60)
if shot.returncode != 0 or not os.path.getsize(screenshot) > 10000:
    fail(f"no screenshot ({shot.returncode})")
print(f"check_report: OK ({charts} charts drawn, screenshot {screenshot})")
