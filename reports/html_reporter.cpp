// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// One self-contained HTML page per document: the verdict and the run's facts at the top, the command's own
// terminal text (the table format, so the page shows what the terminal showed), the charts of the chart
// model as inline SVG, then every result with its remedy and evidence. Nothing is loaded from anywhere: no
// script, font, stylesheet or image outside the file, so it opens offline and prints as it shows. Every string
// from the document is escaped (hosts, log lines and environment values are not ours).
#include <fmt/format.h>

#include "charts/chart_model.hpp"
#include "html/svg.hpp"
#include "reporter.hpp"
#include "tables/table_model.hpp"

namespace pf::reports {
namespace {

using html::escape;

constexpr const char* kStyle =
    "body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1100px;padding:0 1em;color:#222}"
    "h1{font-size:1.4em}.verdict{font-size:1.6em;font-weight:bold;padding:.2em .6em;border-radius:4px;color:#fff}"
    ".pass{background:#2a7}.warn{background:#d90}.fail,.error,.timeout{background:#c33}"
    ".skipped,.absent{background:#888}table{border-collapse:collapse;width:100%;margin:.5em 0}"
    "td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top;font-size:.9em}"
    ".facts td{overflow-wrap:anywhere}.scroll{overflow-x:auto}@media(max-width:600px){td,th{padding:.15em .25em}}"
    "pre{background:#f6f6f6;padding:.7em;overflow-x:auto;font-size:.8em}"
    "svg.chart,svg.heatmap{width:100%;height:auto;display:block;margin:1em 0}"
    "caption{text-align:left;font-weight:bold;padding:.3em 0}.note{font-size:.85em;color:#555}"
    "@media print{pre{white-space:pre-wrap}}";

std::string statusCell(Status s) { return fmt::format("<span class=\"verdict {0}\">{0}</span>", toString(s)); }

std::string htmlTable(const tables::Table& t) {
  // In a narrow window a wide table scrolls inside its own box instead of widening the page.
  std::string s =
      fmt::format("<div class=\"scroll\"><table id=\"{}\"><caption>{}</caption><tr>", escape(t.id), escape(t.title));
  for (const auto& h : t.header) s += "<th>" + escape(h) + "</th>";
  s += "</tr>\n";
  for (const auto& row : t.rows) {
    s += "<tr>";
    for (const auto& c : row) s += "<td>" + escape(c) + "</td>";
    s += "</tr>\n";
  }
  s += "</table></div>\n";
  for (const auto& n : t.notes) s += "<p class=\"note\">" + escape(n) + "</p>\n";
  return s;
}

class HtmlReporter final : public Reporter {
 public:
  void end(const RunReport& r, Output& out) override {
    const Context& c = r.context;
    std::string s = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
    s += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
    s += fmt::format("<title>preflight {}: {}</title><style>{}{}</style></head><body>\n", escape(c.command),
                     toString(r.verdict), kStyle, html::kChartCss);
    s += fmt::format("<h1>preflight {} {}</h1>\n<p>{} exit code {}</p>\n", escape(c.command), escape(c.version),
                     statusCell(r.verdict), r.exit_code);
    s += "<table class=\"facts\">";
    auto row = [&](const char* k, const std::string& v) {
      s += fmt::format("<tr><th>{}</th><td>{}</td></tr>", k, escape(v));
    };
    std::string argv;
    for (const auto& a : c.argv) argv += (argv.empty() ? "" : " ") + a;
    row("command line", argv);
    row("host", c.hostname);
    row("nodes, ranks", fmt::format("{}, {}", c.node_count, c.world_size));
    row("started, ended (UTC)", c.start_time + ", " + c.end_time);
    s += "</table>\n";
    // The answer first: a capacity plan's headline and tables come before the terminal text and charts.
    for (const tables::Section& sec : tables::sectionsFor(r)) {
      s += "<h2>" + escape(sec.title) + "</h2>\n";
      for (const auto& line : sec.headline) s += "<p>" + escape(line) + "</p>\n";
      for (const tables::Table& t : sec.tables) s += htmlTable(t);
    }
    s += "<h2>What the command printed</h2>\n<pre>" + escape(renderDocument("table", r, options())) + "</pre>\n";
    const charts::ChartSet set = charts::chartsFor(r);
    if (!set.charts.empty() || !set.heatmaps.empty()) s += "<h2>Charts</h2>\n";
    for (const auto& h : set.heatmaps) {
      s += html::svgHeatmap(h);
      if (!h.failing.empty()) {
        s += "<ul>";
        for (const auto& f : h.failing) s += "<li>" + escape(f) + "</li>";
        s += "</ul>\n";
      }
    }
    for (const auto& chart : set.charts) s += html::svgChart(chart);  // secondary ones follow their main ones
    s += "<h2>Results</h2>\n<table><tr><th>status</th><th>result</th><th>host</th><th>message, remedy and "
         "evidence</th></tr>\n";
    for (const Result& res : r.results) {
      s += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}", statusCell(res.status), escape(res.key),
                       escape(res.host), escape(res.message));
      if (!res.remedy.empty()) s += "<br><b>fix:</b> " + escape(res.remedy);
      if (!res.evidence.empty()) {
        s += fmt::format("<details><summary>evidence ({})</summary><ul>", res.evidence.size());
        for (const Evidence& e : res.evidence) {
          const std::string v = e.value.is_string() ? e.value.get<std::string>() : e.value.dump();
          s += fmt::format("<li>{}: {}{}{}</li>", escape(e.what), escape(v), e.unit.empty() ? "" : " " + escape(e.unit),
                           e.source.empty() ? "" : " <i>(" + escape(e.source) + ")</i>");
        }
        s += "</ul></details>";
      }
      s += "</td></tr>\n";
    }
    s += "</table>\n</body></html>\n";
    out.write(s);
  }
};

PF_REGISTER_REPORTER(HtmlReporter, "html");

}  // namespace
}  // namespace pf::reports
