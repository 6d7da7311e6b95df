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
  // Plot area: x from 70 to 470 (640 - 70 - 170), y from 30 to 310; 4 B is half way, 5 GB/s half way up.
  EXPECT_NE(svg.find("cx=\"270.0\" cy=\"170.0\""), std::string::npos) << svg;
  EXPECT_NE(svg.find(">4 B</text>"), std::string::npos);                          // binary-suffix tick label
  EXPECT_NE(svg.find("<title>busbw: 5 GB/s at 4 B</title>"), std::string::npos);  // value on hover
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
