// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// GitHub-flavoured Markdown: the verdict and the run's facts, the command's own terminal text in a code
// block, the charts, then every result as a table row with its fix. Charts are SVG files written beside the
// report (`--output DIR/report.md` gives DIR/report-<chart>.svg), each with its styles inside, so the folder
// can be committed to a wiki or attached to a ticket as it is. Written to stdout there is no folder, and the
// report says where the charts would go. Document strings are escaped: a host name or log line must not
// become a table column, a link or raw HTML.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "charts/chart_model.hpp"
#include "html/svg.hpp"
#include "pf/report_io.hpp"
#include "reporter.hpp"
#include "tables/table_model.hpp"

namespace pf::reports {
namespace {

/// Inline text safe in a GFM table cell: no column breaks, line breaks, raw HTML or emphasis characters.
std::string cell(const std::string& text) {
  std::string s;
  for (char c : text) {
    switch (c) {
      case '|': s += "\\|"; break;
      case '\n': s += "<br>"; break;
      case '\r': break;
      case '<': s += "&lt;"; break;
      case '>': s += "&gt;"; break;
      case '&': s += "&amp;"; break;
      case '*':
      case '_':
      case '`':
      case '[':
      case ']':
      case '\\':
        s += '\\';
        s += c;
        break;
      default: s += c;
    }
  }
  return s;
}

/// A chart id as a file name part: letters, digits, '.', '-' and '_' only.
std::string fileSafe(const std::string& id) {
  std::string s;
  for (char c : id) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_') ? c : '_';
  return s;
}

/// A fence longer than any backtick run in `text`, so the text cannot close it.
std::string fenceFor(const std::string& text) {
  std::size_t longest = 0, run = 0;
  for (char c : text) longest = std::max(longest, run = c == '`' ? run + 1 : 0);
  return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

std::string markdownTable(const tables::Table& t) {
  std::string s = "**" + cell(t.title) + "**\n\n|";
  for (const auto& h : t.header) s += " " + cell(h) + " |";
  s += "\n|";
  for (std::size_t i = 0; i < t.header.size(); ++i) s += "---|";
  s += "\n";
  for (const auto& row : t.rows) {
    s += "|";
    for (const auto& c : row) s += " " + cell(c) + " |";
    s += "\n";
  }
  s += "\n";
  for (const auto& n : t.notes) s += cell(n) + "\n\n";
  return s;
}

class MarkdownReporter final : public Reporter {
 public:
  void end(const RunReport& r, Output& out) override {
    const Context& c = r.context;
    std::string s = fmt::format("# preflight {} {}\n\n**{}** (exit code {})\n\n", cell(c.command), cell(c.version),
                                toString(r.verdict), r.exit_code);
    std::string argv;
    for (const auto& a : c.argv) argv += (argv.empty() ? "" : " ") + a;
    s += "| | |\n|---|---|\n";
    s += fmt::format("| command line | {} |\n| host | {} |\n| nodes, ranks | {}, {} |\n", cell(argv), cell(c.hostname),
                     c.node_count, c.world_size);
    s += fmt::format("| started, ended (UTC) | {}, {} |\n\n", cell(c.start_time), cell(c.end_time));
    for (const tables::Section& sec : tables::sectionsFor(r)) {
      s += "## " + cell(sec.title) + "\n\n";
      for (const auto& line : sec.headline) s += cell(line) + "\n\n";
      for (const tables::Table& t : sec.tables) s += markdownTable(t);
    }
    const std::string text = renderDocument("table", r, options());
    const std::string fence = fenceFor(text);
    s += "## What the command printed\n\n" + fence + "text\n" + text + (text.ends_with('\n') ? "" : "\n") + fence +
         "\n\n";
    s += charts(r, out);
    s += "## Results\n\n| status | result | host | message | fix |\n|---|---|---|---|---|\n";
    for (const Result& res : r.results)
      s += fmt::format("| {} | {} | {} | {} | {} |\n", toString(res.status), cell(res.key), cell(res.host),
                       cell(res.message), cell(res.remedy));
    out.write(s);
  }

 private:
  /// The charts section; the SVG files are written beside a report that goes to a file.
  static std::string charts(const RunReport& r, const Output& out) {
    const charts::ChartSet set = charts::chartsFor(r);
    if (set.charts.empty() && set.heatmaps.empty()) return "";
    std::string s = "## Charts\n\n";
    if (!out.toFile()) {
      return s + "Charts are written as SVG files beside the report when it goes to a file: " +
             "`--format md --output DIR/report.md`.\n\n";
    }
    const std::filesystem::path md(out.path());
    const std::string stem = md.stem().string();
    auto emit = [&](const std::string& id, const std::string& title, const std::string& svg) {
      const std::string name = stem + "-" + fileSafe(id) + ".svg";
      writeFileAtomic((md.parent_path() / name).string(), html::standaloneSvg(svg));
      s += fmt::format("![{}]({})\n\n", cell(title), name);
    };
    for (const auto& h : set.heatmaps) {
      emit(h.id, h.title, html::svgHeatmap(h));
      for (const auto& f : h.failing) s += "- " + cell(f) + "\n";
      if (!h.failing.empty()) s += "\n";
    }
    for (const auto& chart : set.charts) emit(chart.id, chart.title, html::svgChart(chart));
    return s;
  }
};

PF_REGISTER_REPORTER(MarkdownReporter, "md");

}  // namespace
}  // namespace pf::reports
