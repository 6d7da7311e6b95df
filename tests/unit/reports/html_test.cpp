// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The HTML report: self-contained (nothing loaded from anywhere), every document string escaped, and SVG points
// where their values say.
#include <gtest/gtest.h>

#include <filesystem>

#include "charts/chart_model.hpp"
#include "html/svg.hpp"
#include "pf/report_io.hpp"
#include "reporter.hpp"

namespace pf::reports {
namespace {

TEST(HtmlReport, EscapesEveryStringFromTheDocument) {
  RunReport r;
  r.context.command = "check";
  r.context.hostname = "<script>alert(1)</script>";
  Result res;
  res.key = "check.odd";
  res.kind = Kind::kCheck;
  res.status = Status::kFail;
  res.host = "\"node\" & 'co'";
  res.message = "<img src=x onerror=alert(2)>";
  res.evidence.push_back({"log line", "</pre><script>x</script>", "", "job.log:1"});
  r.results.push_back(res);
  const std::string page = renderDocument("html", r);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(page.find("&quot;node&quot; &amp; &#39;co&#39;"), std::string::npos);
}

TEST(HtmlReport, LoadsNothingFromTheNetworkForAnyDocument) {
  for (const auto& e : std::filesystem::directory_iterator(std::string(PF_GOLDEN_DIR) + "/documents")) {
    const std::string page = renderDocument("html", readReport(e.path().string()));
    for (const char* loads : {"src=", "href=", "url(", "@import", "<script", "<link", "<iframe"})
      EXPECT_EQ(page.find(loads), std::string::npos) << e.path() << " contains " << loads;
    EXPECT_NE(page.find("<title>preflight "), std::string::npos) << e.path();
  }
}

TEST(HtmlReport, ChartsOfRealRunsAreDrawn) {
  const std::string page = renderDocument("html", readReport(std::string(PF_GOLDEN_DIR) + "/documents/pairs.json"));
  EXPECT_NE(page.find("id=\"pairs.matrix\""), std::string::npos);
  EXPECT_NE(page.find("node2"), std::string::npos);
  const std::string sweep = renderDocument("html", readReport(std::string(PF_GOLDEN_DIR) + "/documents/sweep.json"));
  EXPECT_NE(sweep.find("id=\"sweep.all_reduce.float.sum.bandwidth\""), std::string::npos);
  EXPECT_NE(sweep.find("# Collective test starting: all_reduce_perf"), std::string::npos);  // the terminal text
}

TEST(Svg, PointsLandWhereTheirValuesSay) {
  using charts::Scale;
  EXPECT_DOUBLE_EQ(html::project(4, 1, 16, Scale::kLog2, 100), 50);  // 2 of 4 octaves
  EXPECT_DOUBLE_EQ(html::project(1024, 8, 8192, Scale::kLog2, 100), 70);
  EXPECT_DOUBLE_EQ(html::project(5, 0, 10, Scale::kLinear, 300), 150);
  charts::Chart c{"t", "t", {"size", "bytes", Scale::kLog2, true}, {"bw", "GB/s", Scale::kLinear, false}, {}};
  c.series.push_back({"busbw", charts::Style::kLine, false, {{1, 0, {}, {}}, {4, 5, {}, {}}, {16, 10, {}, {}}}});
  const std::string svg = html::svgChart(c);
  // Plot area: x from 84 to 936, y from 34 to 334; 4 B is half way (1..16 B, padded alike on both sides), 5 GB/s
  // half way up (ticks 0, 2 ... 10).
  EXPECT_NE(svg.find("cx=\"510.0\" cy=\"184.0\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("width=\"100%\""), std::string::npos);                       // as wide as the page
  EXPECT_NE(svg.find(">4 B</text>"), std::string::npos);                          // binary-suffix tick label
  EXPECT_NE(svg.find("<title>busbw: 5 GB/s at 4 B</title>"), std::string::npos);  // value on hover
}

// Every text element's content in an SVG, in order.
std::vector<std::string> texts(const std::string& svg) {
  std::vector<std::string> out;
  for (size_t at = svg.find("<text"); at != std::string::npos; at = svg.find("<text", at + 1)) {
    const size_t open = svg.find('>', at), close = svg.find("</text>", open);
    out.push_back(svg.substr(open + 1, close - open - 1));
  }
  return out;
}

TEST(Svg, EveryReportKindReadsAtAGlance) {
  // sweep, imported sweep, scale with predictions, pairs, check and compare: the golden documents.
  for (const char* doc : {"sweep", "nccl_tests", "capacity", "pairs", "check", "compare"}) {
    const RunReport r = readReport(std::string(PF_GOLDEN_DIR) + "/documents/" + doc + ".json");
    const charts::ChartSet set = charts::chartsFor(r);
    for (const charts::Chart& c : set.charts) {
      const std::string svg = html::svgChart(c);
      const std::vector<std::string> all = texts(svg);
      for (const std::string& t : all) {
        EXPECT_EQ(t.find("e+"), std::string::npos) << doc << " " << c.id << ": " << t;
        EXPECT_EQ(t.find("e-0"), std::string::npos) << doc << " " << c.id << ": " << t;
        EXPECT_NE(t, "-0") << doc << " " << c.id;
        EXPECT_EQ(t.find("(predicted) (predicted)"), std::string::npos) << t;
      }
      for (const charts::Series& s : c.series)  // every legend entry whole, and once
        EXPECT_EQ(std::count(all.begin(), all.end(), html::escape(charts::legendName(s))), 1) << c.id << " " << s.name;
      EXPECT_GE(c.y.ticks.size(), 4u) << c.id;
    }
  }
}

TEST(Svg, PairMatrixShowsBothDirectionsAndAColourScale) {
  const RunReport r = readReport(std::string(PF_GOLDEN_DIR) + "/documents/pairs.json");
  const std::string svg = html::svgHeatmap(charts::chartsFor(r).heatmaps.at(0));
  const std::vector<std::string> all = texts(svg);
  // node0 -> node3 measured 0.867 GB/s and node3 -> node0 0.310 GB/s: two cells, each labelled.
  EXPECT_NE(std::find(all.begin(), all.end(), "0.867"), all.end()) << svg;
  EXPECT_NE(std::find(all.begin(), all.end(), "0.31"), all.end());
  EXPECT_NE(svg.find("node0 -&gt; node3: 0.8674 GB/s"), std::string::npos);
  EXPECT_NE(svg.find("class=\"scale\""), std::string::npos);             // the colour scale ...
  EXPECT_NE(std::find(all.begin(), all.end(), "0.35 GB/s"), all.end());  // ... up to the expected bandwidth
  EXPECT_NE(std::find(all.begin(), all.end(), "sender"), all.end());
}

TEST(Svg, RegressionsAreMarkedOnTheCompareChart) {
  charts::Chart c{"c", "c", {"size", "bytes", charts::Scale::kLog2, true}, {"change", "%"}, {}};
  c.series.push_back({"new", charts::Style::kMarkers, false, {{1024, 10, {}, {}}, {2048, -40, {}, {}}}});
  c.series.push_back({"regressed: new", charts::Style::kMarkers, false, {{2048, -40, {}, {}}}, true});
  const std::string svg = html::svgChart(c);
  const std::vector<std::string> all = texts(svg);
  EXPECT_EQ(std::count(all.begin(), all.end(), "-0"), 0);
  EXPECT_NE(svg.find("class=\"alarm\" fill=\"#d62728\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("class=\"zero\""), std::string::npos);  // the line between better and worse
}

// Issue 48: an nccl-tests output with algbw 1.8e308 made the tick loop run without end (a report of 4 GB).
// Ticks come from finite ranges only, at most 24 an axis, on every scale.
TEST(Svg, HugeAndTightRangesGiveABoundedChart) {
  using charts::Scale;
  for (Scale ys : {Scale::kLinear, Scale::kLog2, Scale::kLog10}) {
    charts::Chart c{"t", "t", {"size", "bytes", Scale::kLog2, true}, {"bw", "GB/s", ys, false}, {}};
    c.series.push_back({"a", charts::Style::kStacked, false, {{8, 1.7976931348623157e308, {}, {}}}});
    c.series.push_back({"b", charts::Style::kStacked, false, {{8, 1.7976931348623157e308, {}, {}}}});
    c.series.push_back({"c", charts::Style::kLine, false, {{16, 1e-300, {}, {}}, {32, 1e20, {}, {}}}});
    const std::string svg = html::svgChart(c);
    EXPECT_LT(svg.size(), 20000u) << static_cast<int>(ys);
  }
  // A range far narrower than its values: a step below their rounding must not loop either.
  charts::Chart tight{"t", "t", {"x", "", Scale::kLinear, false}, {"y", "", Scale::kLinear, false}, {}};
  tight.series.push_back({"a", charts::Style::kLine, false, {{1e20, 1, {}, {}}, {1e20 + 1e5, 2, {}, {}}}});
  EXPECT_LT(html::svgChart(tight).size(), 20000u);
}

}  // namespace
}  // namespace pf::reports
