#include "report/insights_html.h"

#include "insights/insights.h"
#include "report/svg_charts.h"

namespace dlbench::report {
namespace {

std::string FindingsTable(const std::vector<insights::Finding>& findings) {
  std::string html =
      "<table class=\"insights\"><tr><th>severity</th><th>finding</th><th>evidence</th>"
      "<th>try</th></tr>\n";
  for (const insights::Finding& f : findings) {
    const char* severity = insights::SeverityName(f.severity);
    std::string evidence;
    for (const insights::Evidence& e : f.evidence) {
      evidence += (evidence.empty() ? "" : "<br>") + Escape(insights::EvidenceText(e));
    }
    html += std::string("<tr class=\"") + severity + "\"><td>" + severity + "</td><td><b>" +
            Escape(f.id) + "</b>: " + Escape(f.message) + "</td><td>" + evidence + "</td><td>" +
            Escape(f.suggestion) + "</td></tr>\n";
  }
  return html + "</table>\n";
}

}  // namespace

std::string InsightsSection(const std::vector<compare::Run>& runs,
                            const std::vector<std::string>& names) {
  std::string html = "<h2>Insights</h2>\n";
  std::vector<std::vector<insights::Finding>> all;
  for (const compare::Run& run : runs) all.push_back(insights::FindingsOf(run.summary));
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (runs.size() > 1) html += "<h3>" + Escape(names[i]) + "</h3>\n";
    if (all[i].empty()) {
      html += "<p class=\"note\">No finding: nothing the rules look for limited this run.</p>\n";
      continue;
    }
    html += FindingsTable(all[i]);
    if (i == 0) continue;
    const std::string changes = insights::DifferencesLine(all[0], all[i], names[0], names[i]);
    if (!changes.empty()) html += "<p class=\"note\">" + Escape(changes) + "</p>\n";
  }
  return html;
}

}  // namespace dlbench::report
