#include "report/request_table.h"

#include "compare/run_set.h"
#include "report/svg_charts.h"

namespace dlbench::report {
namespace {

using Json = metrics::Json;

// A table cell of the number at `path` under `node` scaled by `scale`; "-" when it has none.
std::string Cell(const Json& node, const std::string& path, double scale = 1) {
  const Json* value = compare::FindPath(node, path);
  return "<td>" +
         (value != nullptr && value->is_number() ? Num(value->get<double>() * scale) : "-") +
         "</td>";
}

// p50, p90, p99 and max of a histogram's summary in seconds, as milliseconds.
std::string Milliseconds(const Json& request, const std::string& histogram) {
  std::string cells;
  for (const char* p : {".p50", ".p90", ".p99", ".max"}) cells += Cell(request, histogram + p, 1e3);
  return cells;
}

}  // namespace

std::string RequestTable(const Json& summary) {
  const Json* requests = compare::FindPath(summary, "object_storage.requests");
  if (requests == nullptr || !requests->is_object() || requests->empty()) return "";
  std::string html =
      "<table class=\"requests\"><tr><th rowspan=\"2\">request</th><th rowspan=\"2\">count</th>"
      "<th rowspan=\"2\">retries</th><th rowspan=\"2\">failures</th><th rowspan=\"2\">MiB</th>"
      "<th colspan=\"4\">latency, ms</th><th colspan=\"4\">first byte, ms</th></tr>\n"
      "<tr><th>p50</th><th>p90</th><th>p99</th><th>max</th>"
      "<th>p50</th><th>p90</th><th>p99</th><th>max</th></tr>\n";
  for (const auto& [name, request] : requests->items()) {
    if (!request.is_object()) continue;
    html += "<tr><td>" + Escape(name) + "</td>" + Cell(request, "requests") +
            Cell(request, "retries") + Cell(request, "failures") +
            Cell(request, "bytes", 1.0 / 1048576) + Milliseconds(request, "latency_seconds") +
            Milliseconds(request, "first_byte_seconds") + "</tr>\n";
  }
  return html + "</table>\n";
}

}  // namespace dlbench::report
