// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Every data row of every real fixture, checked against the text itself: the expected values come from a
// plain regular expression over the fixture's lines (not from the importer), and each imported row's size,
// time, algbw and busbw must equal them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <tuple>

#include "fixture_path.hpp"
#include "pf/error.hpp"
#include "pf/import.hpp"
#include "pf/sweep_row.hpp"

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

using Point = std::tuple<uint64_t, std::string, double, double, double>;  // size, placement, time, algbw, busbw

// The test's own reading of a row: a launcher tag, then size count type [op] [root] and two halves of
// time algbw busbw wrong. Only complete rows match; "[0]" tags (MPICH) and Ray's "(head, rank=0, pid=1)" are
// removed first.
std::vector<Point> rowsByRegex(const std::string& text) {
  static const std::regex tag(R"(\[\d+(,\d+)?\](<stdout>:)?|\([^()]*=[^()]*\))");
  static const std::regex row(
      R"(^\s*(\d+)\s+\d+\s+[a-z0-9]+\s+(?:(?:sum|prod|min|max|avg|mulsum|none)\s+)?(?:-?\d+\s+)?)"
      R"(([0-9.e+]+)\s+([0-9.e+]+)\s+([0-9.e+]+)\s+\S+\s+([0-9.e+]+)\s+([0-9.e+]+)\s+([0-9.e+]+)\s+\S+\s*$)");
  std::vector<Point> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    line = std::regex_replace(line, tag, " ");
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    uint64_t size = std::stoull(m[1]);
    out.emplace_back(size, "out", std::stod(m[2]), std::stod(m[3]), std::stod(m[4]));
    out.emplace_back(size, "in", std::stod(m[5]), std::stod(m[6]), std::stod(m[7]));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Point> importedRows(const pf::RunReport& report) {
  std::vector<Point> out;
  for (const pf::Result& r : report.results)
    for (const pf::Json& j : r.rows) {
      pf::SweepRow row = pf::sweepRowFromJson(j);
      out.emplace_back(row.size_bytes, row.placement, row.time_us, row.algbw_gbps, row.busbw_gbps);
    }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ImportRealOutputs, EveryRowEqualsTheText) {
  const char* real[] = {"ztan-a3mega-16ranks.txt",
                        "aws-ofi-nccl-65-old-layout-info.txt",
                        "nccl-2441-version-line-4ranks.txt",
                        "nccl-340-rows-without-header.txt",
                        "nccl-439-old-layout-info.txt",
                        "nccl-1453-rank-prefix-per-print.txt",
                        "nccl-tests-82-broadcast-old-root.txt",
                        "nccl-tests-182-two-processes-interleaved.txt",
                        "nccl-tests-280-failure-unindented.txt",
                        "nccl-tests-287-alltoall-na.txt",
                        "nccl-tests-322-failure-mid-run.txt",
                        "aws-k8s-tester-503-tag-output.txt",
                        "dgx-spark-playbooks-103-version-line.txt",
                        "rccl-tests-hpc-ai-envs-30.txt",
                        "skypilot-ray-mpi-tag-output.txt"};
  for (const char* name : real) {
    SCOPED_TRACE(name);
    const std::string text = slurp(fixture(name));
    std::vector<Point> expected = rowsByRegex(text);
    ASSERT_FALSE(expected.empty());
    std::vector<Point> got = importedRows(pf::importNcclTestsText(text, name));
    ASSERT_EQ(got.size(), expected.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], expected[i]) << "row " << i;
  }
}

// The issue's case: a real 16-rank output (2 nodes x 8 GPUs) with every row checked above, and its ranks,
// hosts and parameters read from the header and device block.
TEST(ImportRealOutputs, SixteenRanksTwoHosts) {
  pf::RunReport r = pf::loadDocument(fixture("ztan-a3mega-16ranks.txt"));
  EXPECT_EQ(r.context.tool, "nccl-tests");
  EXPECT_EQ(r.context.command, "sweep");
  EXPECT_EQ(r.context.world_size, 16);
  EXPECT_EQ(r.context.node_count, 2);
  EXPECT_EQ(r.context.hostname, "ztan-mig-235z");
  EXPECT_EQ(r.context.extra["hosts"], (pf::Json{"ztan-mig-235z", "ztan-mig-gq73"}));
  EXPECT_EQ(r.context.extra["devices"].size(), 16u);
  ASSERT_EQ(r.results.size(), 1u);
  const pf::Result& res = r.results[0];
  EXPECT_EQ(res.key, "sweep.all_reduce");  // from the pasted mpirun command
  EXPECT_EQ(res.kind, pf::Kind::kSweep);
  EXPECT_EQ(res.status, pf::Status::kPass);
  EXPECT_EQ(res.rows.size(), 62u);
  EXPECT_EQ(res.params["source"], "nccl-tests");
  pf::SweepParams p = pf::sweepParamsFromJson(res.params);
  EXPECT_EQ(p.ranks, 16);
  EXPECT_EQ(p.min_bytes, 8u);
  EXPECT_EQ(p.max_bytes, 8589934592u);
  EXPECT_EQ(p.step_factor, 2u);
  EXPECT_EQ(p.iters, 20);
  EXPECT_EQ(p.warmup_iters, 5);
  pf::SweepMetrics m = pf::sweepMetricsFromJson(res.metrics);
  EXPECT_DOUBLE_EQ(m.avg_busbw_gbps, 70.742);  // the footer, as printed
  EXPECT_DOUBLE_EQ(m.peak_busbw_gbps, 338.82);
  EXPECT_EQ(m.out_of_bounds, 0);
  EXPECT_EQ(m.wrong_total, 0);
  EXPECT_EQ(r.exit_code, 0);
}

// NCCL INFO lines inside the table (real, aws-ofi-nccl#65 and nccl#439) are neither rows nor warnings; the
// INFO line's host stands in for the missing device block.
TEST(ImportRealOutputs, InfoLinesBetweenRows) {
  pf::RunReport r = pf::importNcclTestsText(slurp(fixture("aws-ofi-nccl-65-old-layout-info.txt")), "f.txt");
  ASSERT_EQ(r.results.size(), 1u);
  EXPECT_EQ(r.results[0].rows.size(), 12u);
  EXPECT_TRUE(r.context.extra["import"]["warnings"].empty());
  EXPECT_EQ(r.context.hostname, "ip-172-31-13-103");
  EXPECT_EQ(r.results[0].key, "sweep.all_reduce");  // guessed: sum, no root, size == count x 4
  EXPECT_EQ(r.results[0].status, pf::Status::kPass);
  for (const pf::Json& j : r.results[0].rows) EXPECT_FALSE(pf::sweepRowFromJson(j).wrong.has_value());  // error column
  EXPECT_DOUBLE_EQ(pf::sweepMetricsFromJson(r.results[0].metrics).avg_busbw_gbps, 25.6327);
}

// Issue 48: a count of 2^63 float elements wrapped count * 4 to 0, then size % 0 (SIGFPE) while guessing the
// collective. The row is skipped, named by its line; the good row beside it imports.
TEST(ImportHostile, ACountWhoseBytesOverflowIsASkippedRow) {
  const std::string text =
      "#  size  count  type  redop  root  time  algbw  busbw #wrong  time  algbw  busbw #wrong\n"
      "   1024  9223372036854775808  float  sum  -1  10.0  0.10  0.10  0  10.0  0.10  0.10  0\n"
      "   1024  256  float  sum  -1  10.0  0.10  0.10  0  10.0  0.10  0.10  0\n";
  pf::RunReport r = pf::importNcclTestsText(text, "wrap.txt");
  ASSERT_EQ(r.results.size(), 1u);
  EXPECT_EQ(r.results[0].rows.size(), 2u);  // the good row's two halves
  const pf::Json& w = r.context.extra["import"]["warnings"];
  ASSERT_GE(w.size(), 1u);  // and a note: no footer
  EXPECT_EQ(w[0]["line"], 2);
  EXPECT_EQ(w[0]["reason"], "count 9223372036854775808 of float elements does not fit 64 bits of bytes");
  try {
    (void)pf::importNcclTestsText(text.substr(0, text.rfind("   1024  256")), "wrap.txt");
    FAIL() << "a file with only the overflowing row imports";
  } catch (const pf::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("wrap.txt"), std::string::npos) << e.what();
  }
}

}  // namespace
