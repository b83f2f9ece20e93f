#include "report/page.h"

#include "report/svg_charts.h"

namespace dlbench::report {
namespace {

constexpr const char* kStyle =
    R"(body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1400px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ddd}h3{font-size:15px}
.charts{display:flex;flex-wrap:wrap;gap:12px}figure.chart{margin:0;border:1px solid #eee}
svg text{font-size:11px;fill:#333}svg .title{font-size:13px;font-weight:600}
svg .grid{stroke:#e5e5e5}table{border-collapse:collapse;font-size:13px}
td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}td:first-child,th:first-child{text-align:left}
.note{color:#666;font-size:13px}.bad{color:#b00}.good{color:#070}
table.insights td{text-align:left;vertical-align:top}tr.high td:first-child{color:#b00;font-weight:600}
tr.warning td:first-child{color:#a60}
pre.compare{white-space:pre-wrap;overflow-wrap:anywhere})";

// Marks every chart drawn (it has marks and a non-empty box once laid out) for the Chromium test.
constexpr const char* kScript = R"(document.querySelectorAll('figure.chart').forEach(function(f){
var s=f.querySelector('svg');var b=s.getBBox();
f.setAttribute('data-drawn',(s.querySelectorAll('.mark').length>0&&b.width>0&&b.height>0)?'yes':'no');});
document.body.setAttribute('data-charts',String(document.querySelectorAll('figure.chart').length));)";

}  // namespace

std::string PageStart(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" +
         Escape(title) + "</title><style>" + kStyle + "</style></head><body>\n<h1>" +
         Escape(title) + "</h1>\n";
}

std::string PageEnd() { return std::string("<script>") + kScript + "</script>\n</body></html>\n"; }

}  // namespace dlbench::report
