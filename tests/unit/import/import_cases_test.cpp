// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The text importer's cases one by one: warnings with line numbers, a file with no table, launcher prefixes,
// N/A halves and #wrong, the old error column, -I columns, failures, several runs, rccl-tests.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "fixture_path.hpp"
#include "pf/error.hpp"
#include "pf/import.hpp"
#include "pf/sweep_row.hpp"

namespace {

pf::RunReport load(const std::string& name) { return pf::loadDocument(fixture(name)); }

pf::SweepRow row(const pf::Result& r, size_t i) { return pf::sweepRowFromJson(r.rows.at(i)); }

const pf::Json& warnings(const pf::RunReport& r) { return r.context.extra["import"]["warnings"]; }

TEST(ImportCases, UnreadableLinesAreWarningsWithLineNumbers) {
  pf::RunReport r = load("dgx-spark-playbooks-103-version-line.txt");
  ASSERT_EQ(r.results.size(), 1u);
  EXPECT_EQ(r.results[0].status, pf::Status::kWarn);
  EXPECT_EQ(r.results[0].rows.size(), 8u);
  const pf::Json& w = warnings(r);
  ASSERT_GE(w.size(), 1u);
  EXPECT_EQ(w[0]["line"], 16);
  EXPECT_EQ(w[0]["text"], "131072");
  EXPECT_NE(w[0]["reason"].get<std::string>().find("cut short"), std::string::npos);
  bool asEvidence = false;
  for (const pf::Evidence& e : r.results[0].evidence)
    asEvidence |= e.source == fixture("dgx-spark-playbooks-103-version-line.txt") + ":16";
  EXPECT_TRUE(asEvidence);
  EXPECT_EQ(r.context.version, "2.20.0");
  EXPECT_EQ(r.exit_code, 0);  // a warning does not fail
}

TEST(ImportCases, SkippedLineInsideTableWarns) {
  pf::RunReport r = load("nccl-2441-version-line-4ranks.txt");
  ASSERT_EQ(warnings(r).size(), 1u);
  EXPECT_EQ(warnings(r)[0]["line"], 16);
  EXPECT_EQ(warnings(r)[0]["text"], "[...]");
  EXPECT_EQ(r.results[0].status, pf::Status::kWarn);
  EXPECT_EQ(r.context.extra["nccl-tests"]["nccl_library"], 23005);
  EXPECT_EQ(r.context.world_size, 4);
  EXPECT_EQ(r.context.node_count, 2);
}

TEST(ImportCases, NoTableIsUsageErrorNamingTheFile) {
  for (const char* name : {"synthetic-garbage.txt", "rccl-tests-50-no-table.txt", "nccl-tests-5-nccl1-failure.txt"}) {
    SCOPED_TRACE(name);
    try {
      load(name);
      FAIL() << "no exception";
    } catch (const pf::UsageError& e) {
      std::string msg = e.what();
      EXPECT_NE(msg.find(name), std::string::npos) << msg;
      EXPECT_NE(msg.find("expected rows of"), std::string::npos) << msg;
    }
  }
  // The failure that ended the run is named in the message.
  EXPECT_THROW(
      {
        try {
          load("rccl-tests-50-no-table.txt");
        } catch (const pf::UsageError& e) {
          EXPECT_NE(std::string(e.what()).find("Test NCCL failure common.cu:1285"), std::string::npos);
          throw;
        }
      },
      pf::UsageError);
  EXPECT_THROW(pf::importNcclTestsText("", "empty.txt"), pf::UsageError);
}

TEST(ImportCases, LauncherPrefixes) {
  pf::RunReport tag = load("aws-k8s-tester-503-tag-output.txt");  // [1,0]<stdout>:
  EXPECT_EQ(tag.results.at(0).rows.size(), 6u);
  EXPECT_EQ(warnings(tag)[0]["line"], 7);
  pf::RunReport srun = load("synthetic-srun-label.txt");  // 0: and 1:
  ASSERT_EQ(srun.results.size(), 1u);
  EXPECT_EQ(srun.results[0].rows.size(), 6u);
  EXPECT_EQ(srun.results[0].status, pf::Status::kPass);
  EXPECT_TRUE(warnings(srun).empty());
  EXPECT_EQ(srun.context.world_size, 2);
  pf::RunReport mpich = load("nccl-1453-rank-prefix-per-print.txt");  // "[0]" before every printf
  EXPECT_EQ(mpich.results.at(0).rows.size(), 20u);
  EXPECT_EQ(row(mpich.results[0], 0).size_bytes, 1048576u);
}

// Prefixes stacked in any order: Ray's "(head, rank=0, pid=3808)" before Open MPI's tag (a real posted output that
// used to read as no table), and every launcher/logger prefix shape stacked over real nccl-tests lines.
TEST(ImportCases, StackedLauncherPrefixes) {
  pf::RunReport ray = load("skypilot-ray-mpi-tag-output.txt");
  ASSERT_EQ(ray.results.size(), 1u);
  const pf::Result& r = ray.results[0];
  EXPECT_EQ(r.rows.size(), 48u);  // 24 sizes, out-of-place and in-place
  EXPECT_EQ(ray.context.world_size, 16);
  EXPECT_EQ(row(r, 0).size_bytes, 1024u);
  EXPECT_DOUBLE_EQ(row(r, 0).time_us, 28.39);
  EXPECT_EQ(row(r, 47).size_bytes, 8589934592u);
  EXPECT_DOUBLE_EQ(row(r, 47).busbw_gbps, 332.58);
  // No line unread: the one warning is that nothing names the collective (the post has no *_perf command).
  ASSERT_EQ(warnings(ray).size(), 1u);
  EXPECT_NE(warnings(ray)[0]["reason"].get<std::string>().find("names the collective"), std::string::npos);

  pf::RunReport stacked = load("synthetic-stacked-prefixes.txt");
  ASSERT_EQ(stacked.results.size(), 1u);
  const pf::Result& s = stacked.results[0];
  ASSERT_EQ(s.rows.size(), 12u);
  EXPECT_EQ(stacked.context.world_size, 16);
  ASSERT_EQ(warnings(stacked).size(), 1u);
  EXPECT_NE(warnings(stacked)[0]["reason"].get<std::string>().find("names the collective"), std::string::npos);
  const uint64_t sizes[] = {1024, 2048, 4096, 8192, 16384, 32768};
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(row(s, 2 * i).size_bytes, sizes[i]);
  EXPECT_DOUBLE_EQ(row(s, 0).time_us, 28.70);
  EXPECT_DOUBLE_EQ(row(s, 11).busbw_gbps, 0.94);
}

TEST(ImportCases, NotAvailableHalvesAndWrongCounts) {
  pf::RunReport r = load("synthetic-na-halves-cputime-timestamp.txt");
  const pf::Result& res = r.results.at(0);
  ASSERT_EQ(res.rows.size(), 4u);  // 6 halves, 2 printed as N/A
  EXPECT_EQ(row(res, 0).placement, "in");
  EXPECT_EQ(row(res, 0).root, 0);
  EXPECT_EQ(row(res, 1).placement, "out");
  EXPECT_EQ(row(res, 1).wrong, 3);
  EXPECT_EQ(row(res, 2).wrong, 1000000);  // %6g prints 1e+06
  EXPECT_FALSE(row(res, 3).wrong.has_value());
  EXPECT_EQ(res.status, pf::Status::kFail);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(res.key, "sweep.broadcast");
  pf::RunReport real = load("nccl-tests-287-alltoall-na.txt");  // real: #wrong N/A in the in-place half
  EXPECT_EQ(row(real.results.at(0), 0).wrong, 0);
  EXPECT_FALSE(row(real.results[0], 1).wrong.has_value());
  EXPECT_EQ(real.results[0].key, "sweep.alltoall");
}

TEST(ImportCases, OldLayouts) {
  pf::RunReport err = load("nccl-439-old-layout-info.txt");  // size count type redop time ... error
  EXPECT_FALSE(row(err.results.at(0), 0).wrong.has_value());
  EXPECT_EQ(row(err.results[0], 0).root, -1);
  pf::RunReport bc = load("nccl-tests-82-broadcast-old-root.txt");  // size count type root, no Group/redop
  const pf::Result& res = bc.results.at(0);
  EXPECT_EQ(res.key, "sweep.broadcast");
  EXPECT_EQ(row(res, 0).op, "none");
  EXPECT_EQ(row(res, 0).root, 0);
  EXPECT_EQ(bc.context.world_size, 2);
  EXPECT_EQ(bc.context.node_count, 2);
  EXPECT_EQ(pf::sweepParamsFromJson(res.params).check_iters, 0);
  pf::RunReport none = load("nccl-340-rows-without-header.txt");  // no header, no name, no redop column
  EXPECT_EQ(none.results.at(0).key, "sweep.unknown");
  EXPECT_EQ(none.results[0].rows.size(), 24u);
  EXPECT_DOUBLE_EQ(pf::sweepMetricsFromJson(none.results[0].metrics).avg_busbw_gbps, 6.6972);
}

TEST(ImportCases, PerIterationColumns) {
  pf::RunReport r = load("synthetic-per-iter-I.txt");
  const pf::Result& res = r.results.at(0);
  ASSERT_EQ(res.rows.size(), 4u);
  pf::SweepRow a = row(res, 0);
  EXPECT_DOUBLE_EQ(*a.iter_min_us, 14.10);
  EXPECT_DOUBLE_EQ(*a.iter_max_us, 19.80);
  EXPECT_DOUBLE_EQ(*a.iter_p99_us, 19.50);
  EXPECT_FALSE(a.iter_p50_us.has_value());
  EXPECT_DOUBLE_EQ(*row(res, 3).iter_max_us, 1200.0);  // %.1e form
  EXPECT_TRUE(pf::sweepParamsFromJson(res.params).per_iter_timing);
  EXPECT_EQ(res.key, "sweep.all_gather");
}

TEST(ImportCases, FailureInTheMiddle) {
  pf::RunReport r = load("nccl-tests-322-failure-mid-run.txt");
  const pf::Result& res = r.results.at(0);
  EXPECT_EQ(res.status, pf::Status::kError);
  EXPECT_EQ(res.rows.size(), 10u);
  EXPECT_NE(res.message.find("Test NCCL failure"), std::string::npos);
  int failures = 0;
  for (const pf::Evidence& e : res.evidence) failures += e.what == "failure line";
  EXPECT_EQ(failures, 9);
  EXPECT_EQ(r.exit_code, 3);
}

TEST(ImportCases, SeveralRunsInOneFile) {
  pf::RunReport two = load("synthetic-two-collectives.txt");
  ASSERT_EQ(two.results.size(), 2u);
  EXPECT_EQ(two.results[0].key, "sweep.all_reduce");
  EXPECT_EQ(two.results[1].key, "sweep.all_gather");
  EXPECT_EQ(row(two.results[1], 0).collective, "all_gather");
  pf::RunReport cycles = load("synthetic-cycles-N2.txt");
  ASSERT_EQ(cycles.results.size(), 2u);
  EXPECT_EQ(cycles.results[0].key, "sweep.all_reduce");
  EXPECT_EQ(cycles.results[1].key, "sweep.all_reduce.2");
  EXPECT_EQ(cycles.results[1].params["cycle"], 2);
  EXPECT_DOUBLE_EQ(row(cycles.results[1], 0).time_us, 20.01);
  pf::RunReport cut = load("synthetic-missing-footer.txt");
  EXPECT_EQ(cut.results.at(0).status, pf::Status::kWarn);
  EXPECT_DOUBLE_EQ(pf::sweepMetricsFromJson(cut.results[0].metrics).avg_busbw_gbps, 0.035);  // mean of rows
}

TEST(ImportCases, RcclTests) {
  pf::RunReport r = load("rccl-tests-hpc-ai-envs-30.txt");
  EXPECT_EQ(r.context.tool, "rccl-tests");
  EXPECT_EQ(r.context.world_size, 8);
  EXPECT_EQ(r.context.extra["devices"][0]["device_name"], "AMD Instinct MI300X");
  EXPECT_EQ(pf::sweepParamsFromJson(r.results.at(0).params).backend, "rccl");
}

TEST(ImportCases, PreflightDocumentsAreReadAsBefore) {
  pf::RunReport r = load("synthetic-two-collectives.txt");
  std::string path = testing::TempDir() + "/doc.json";
  std::ofstream(path) << pf::toJson(r).dump(2);
  pf::RunReport back = pf::loadDocument(path);
  EXPECT_EQ(pf::toJson(back), pf::toJson(r));
  std::ofstream(path) << R"({"hello": 1})";
  EXPECT_THROW(pf::loadDocument(path), pf::UsageError);
  std::ofstream(path) << R"({"version": 3, "results": [)";
  EXPECT_THROW(pf::loadDocument(path), pf::UsageError);
}

}  // namespace
