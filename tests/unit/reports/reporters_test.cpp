// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <cstdio>

#include "outputs.hpp"
#include "pf/error.hpp"
#include "pf/report_io.hpp"
#include "pf/sweep_row.hpp"
#include "reporter.hpp"

namespace pf::reports {
namespace {

RunReport sweepReport() {
  RunReport r;
  Result res;
  res.key = "sweep.all_gather";
  res.kind = Kind::kSweep;
  res.params = {{"collective", "all_gather"}, {"backend", "mpi"}, {"min_bytes", 64},   {"max_bytes", 64},
                {"step_factor", 2},           {"iters", 5},       {"warmup_iters", 1}, {"check_iters", 1}};
  res.metrics = {{"out_of_bounds", 0}, {"avg_busbw_gbps", 1.5}};
  for (const char* p : {"out", "in"}) {
    SweepRow row;
    row.collective = "all_gather";
    row.size_bytes = 64;
    row.count = 8;
    row.dtype = "float";
    row.op = "none";
    row.placement = p;
    row.time_us = 10;
    row.wrong = 0;
    res.rows.push_back(toJson(row));
  }
  r.results.push_back(res);
  Result probe;
  probe.key = "probe.net";
  probe.kind = Kind::kProbe;
  probe.status = Status::kFail;
  probe.message = "NCCL_SOCKET_IFNAME=eth9 matches no interface";
  probe.remedy = "set NCCL_SOCKET_IFNAME=eth0";
  r.results.push_back(probe);
  return r;
}

TEST(Reporters, CsvHasOneLinePerRow) {
  std::string csv = renderDocument("csv", sweepReport());
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "key,collective,size_bytes,count,dtype,op,root,placement,time_us,algbw_gbps,busbw_gbps,wrong,iter_min_us,"
            "iter_p50_us,iter_p99_us,iter_max_us,rank_skew,slowest_rank");
  EXPECT_NE(csv.find("sweep.all_gather,all_gather,64,8,float,none,-1,in,10.0,0.0,0.0,0,,,,,,"), std::string::npos)
      << csv;
}

// -I 1 rows keep every iteration's time as lists: the CSV table leaves them out (the JSON document has them).
TEST(Reporters, CsvLeavesOutListFields) {
  RunReport r = sweepReport();
  for (Json& row : r.results[0].rows) {
    row["iter_times_us"] = {1.5, 2.5};
    row["iter_rank_times_us"] = {{1.5, 2.5}, {1.0, 2.0}};
  }
  std::string csv = renderDocument("csv", r);
  EXPECT_EQ(csv, renderDocument("csv", sweepReport()));
  EXPECT_EQ(csv.find("iter_times_us"), std::string::npos);
}

TEST(Reporters, TableRendersSweepsAndStatusLines) {
  std::string t = renderDocument("table", sweepReport());
  EXPECT_NE(t.find("# Collective test starting: all_gather_perf"), std::string::npos);
  EXPECT_NE(t.find("          64             8     float    none      -1"), std::string::npos) << t;
  EXPECT_NE(t.find("fail    probe.net"), std::string::npos);
  EXPECT_NE(t.find("fix: set NCCL_SOCKET_IFNAME=eth0"), std::string::npos);
}

TEST(Reporters, JsonRoundTripsAndUnknownFormatIsUsage) {
  RunReport r = sweepReport();
  EXPECT_EQ(toJson(reportFromJson(Json::parse(renderDocument("json", r)))), toJson(r));
  EXPECT_THROW(makeReporter("xml"), UsageError);
}

TEST(Reporters, TableStreamedRowByRowEqualsTheReplay) {
  // Live, a sweep's rows arrive a size (two rows) at a time; `preflight report` hands them over at once.
  RunReport r = sweepReport();
  r.context.command = "sweep";
  Result running = r.results[0];
  running.rows = Json::array();
  Outputs live({{"table", "-"}}, {});
  testing::internal::CaptureStdout();
  live.begin(r.context);
  for (const Json& row : r.results[0].rows) {
    running.rows.push_back(row);
    if (running.rows.size() % 2 == 0) live.rows(running, running.rows.size() - 2);
  }
  for (const Result& res : r.results) live.result(res);
  live.end(r);
  const std::string streamed = testing::internal::GetCapturedStdout();
  EXPECT_EQ(streamed, renderDocument("table", r));
  EXPECT_NE(streamed.find("# Out of bounds values : 0 OK"), std::string::npos) << streamed;
}

TEST(Reporters, JsonFileIsRewrittenPartialWhileRowsArrive) {
  const std::string path = ::testing::TempDir() + "pf_partial_test.json";
  std::remove(path.c_str());
  RunReport r = sweepReport();
  ReportOptions o;
  o.snapshotSeconds = 0;  // every call may write
  Outputs out({{"json", path}}, o);
  out.begin(r.context);
  Result running = r.results[0];
  running.rows.erase(1);  // one row measured so far
  out.rows(running, 0);
  RunReport partial = readReport(path);
  ASSERT_EQ(partial.results.size(), 1u);
  EXPECT_EQ(partial.results[0].rows.size(), 1u);
  EXPECT_EQ(partial.results[0].status, Status::kError);
  EXPECT_EQ(partial.exit_code, 3);
  EXPECT_EQ(partial.context.extra.value("partial", false), true);
  for (const Result& res : r.results) out.result(res);
  out.end(r);
  RunReport done = readReport(path);
  EXPECT_EQ(done.results[0].rows.size(), 2u);
  EXPECT_FALSE(done.context.extra.contains("partial"));
  std::remove(path.c_str());
}

TEST(Reporters, PartialWriterWritesTheRunningResultAtOnceAndNothingOnceGone) {
  const std::string path = ::testing::TempDir() + "pf_interrupted_test.json";
  std::remove(path.c_str());
  RunReport r = sweepReport();
  Outputs::PartialWriter write;
  {
    Outputs out({{"json", path}, {"table", "-"}}, ReportOptions{});  // 5 s between snapshots: none here
    testing::internal::CaptureStdout();
    out.begin(r.context);
    Result running = r.results[0];
    running.rows.erase(1);
    out.rows(running, 0);
    testing::internal::GetCapturedStdout();
    write = out.partialWriter();
    // The signal or --timeout thread: only the file output is written, and it has the row measured so far.
    // A signal's document carries the process's exit code, 128 + the signal, so `report` of it exits the same.
    EXPECT_EQ(write("terminated (SIGTERM)", static_cast<ExitCode>(143)), std::vector<std::string>{path});
    RunReport partial = readReport(path);
    ASSERT_EQ(partial.results.size(), 1u);
    EXPECT_EQ(partial.results[0].rows.size(), 1u);
    EXPECT_EQ(partial.results[0].message, "partial: terminated (SIGTERM)");
    EXPECT_EQ(partial.context.extra.value("partial_reason", ""), "partial: terminated (SIGTERM)");
    EXPECT_EQ(partial.exit_code, 143);
    EXPECT_EQ(partial.verdict, Status::kError);
    out.result(r.results[0]);
    EXPECT_EQ(write("timed out", ExitCode::kTimeout), std::vector<std::string>{path});
    partial = readReport(path);
    EXPECT_EQ(partial.exit_code, 4);
    EXPECT_EQ(partial.verdict, Status::kTimeout);  // a timeout reads as one, not as an error
    EXPECT_EQ(partial.results.size(), 1u);         // the finished result, no running one after it
    EXPECT_EQ(partial.results[0].rows.size(), 2u);
  }
  EXPECT_TRUE(write("late", ExitCode::kRuntime).empty());  // the Outputs has gone: nothing is written
  std::remove(path.c_str());
}

}  // namespace
}  // namespace pf::reports
