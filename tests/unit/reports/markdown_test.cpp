// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The Markdown report: document strings cannot break its tables or fences or become HTML, and a report
// written to DIR/report.md has its charts beside it as standalone SVG files that it links.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "outputs.hpp"
#include "pf/report_io.hpp"
#include "reporter.hpp"

namespace pf::reports {
namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(MarkdownReport, HostileStringsStayInTheirCell) {
  RunReport r;
  r.context.command = "check";
  r.context.hostname = "<script>alert(1)</script>";
  Result res;
  res.key = "check.odd";
  res.kind = Kind::kCheck;
  res.status = Status::kFail;
  res.host = "a|b";
  res.message = "line one\nline two with ``` and *stars*";
  r.results.push_back(res);
  const std::string md = renderDocument("md", r);
  EXPECT_EQ(md.find("<script"), std::string::npos);
  EXPECT_NE(md.find("&lt;script&gt;"), std::string::npos);
  EXPECT_NE(md.find("| a\\|b |"), std::string::npos);
  EXPECT_NE(md.find("line one<br>line two with \\`\\`\\` and \\*stars\\*"), std::string::npos);
  // The terminal text goes in a fence longer than any backtick run inside it.
  EXPECT_NE(md.find("````text\n"), std::string::npos);
}

TEST(MarkdownReport, ChartsAreWrittenBesideTheFile) {
  const auto dir = std::filesystem::temp_directory_path() / ("pf_md_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const RunReport sweep = readReport(std::string(PF_GOLDEN_DIR) + "/documents/sweep.json");
  {
    Outputs out({{"md", (dir / "report.md").string()}}, {});
    out.replay(sweep);
  }
  const std::string md = slurp(dir / "report.md");
  const auto svg = dir / "report-sweep.all_reduce.float.sum.bandwidth.svg";
  ASSERT_TRUE(std::filesystem::exists(svg)) << md;
  EXPECT_NE(md.find("(report-sweep.all_reduce.float.sum.bandwidth.svg)"), std::string::npos);
  const std::string chart = slurp(svg);
  EXPECT_EQ(chart.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(chart.find("<style>"), std::string::npos);  // standalone: its styles inside
  std::filesystem::remove_all(dir);
  // To stdout there is no folder: the report says how to get the charts instead.
  EXPECT_NE(renderDocument("md", sweep).find("--output DIR/report.md"), std::string::npos);
}

}  // namespace
}  // namespace pf::reports
