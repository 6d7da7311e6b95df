// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The cross-artefact timeline: stamps of every clock the artefacts print, their reconciliation (a year taken from
// another artefact, a zone given by the user, kernel boot offsets anchored in their own log), the order of a job's
// events across files and the first failure, the "doctor.artefacts" result, and a directory walked safely.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <tuple>

#include "artefacts/clock.hpp"
#include "artefacts/timeline.hpp"
#include "artefacts/walk.hpp"
#include "pf/error.hpp"
#include "test_util.hpp"

namespace pf::doctor {
namespace {

namespace fs = std::filesystem;

using ArtefactDir = test::TempDir;

TEST(ArtefactClock, EveryClockTheArtefactsPrint) {
  Stamp s = parseStamp("[2026-04-22 10:42:37] node3:2817:2901 [3] NCCL WARN x");
  EXPECT_EQ(s.clock, Clock::kWall);
  EXPECT_EQ(s.text, "[2026-04-22 10:42:37]");
  EXPECT_EQ(isoUtc(*toUtcUs(s, 0)), "2026-04-22T10:42:37.000000Z");
  EXPECT_EQ(isoUtc(*toUtcUs(s, 120)), "2026-04-22T08:42:37.000000Z");  // nodes at UTC+02:00
  s = parseStamp("2026-04-22T10:42:37.512345678Z stderr F hello");
  EXPECT_EQ(s.clock, Clock::kUtc);
  EXPECT_EQ(isoUtc(*toUtcUs(s, 600)), "2026-04-22T10:42:37.512345Z");
  s = parseStamp("2026-04-22T12:42:37+02:00 node kernel: x");
  EXPECT_EQ(isoUtc(*toUtcUs(s, 0)), "2026-04-22T10:42:37.000000Z");
  s = parseStamp("[E422 10:42:38.901234 1234 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog");
  EXPECT_EQ(s.clock, Clock::kWallNoYear);
  EXPECT_EQ(s.month, 4);
  EXPECT_EQ(s.day, 22);
  EXPECT_FALSE(toUtcUs(s, 0).has_value());
  EXPECT_EQ(isoUtc(*toUtcUs(s, 0, 2026)), "2026-04-22T10:42:38.901234Z");
  s = parseStamp("[E1215 23:59:59.000001 1 x.cpp:1] y");
  EXPECT_EQ(s.month, 12);
  EXPECT_EQ(s.day, 15);
  s = parseStamp("[Wed Dec  2 09:19:05 2026] NVRM: Xid");
  EXPECT_EQ(s.clock, Clock::kWall);
  EXPECT_EQ(isoUtc(*toUtcUs(s, 0)), "2026-12-02T09:19:05.000000Z");
  s = parseStamp("Dec  2 09:19:05 node7 kernel: x");
  EXPECT_EQ(s.clock, Clock::kWallNoYear);
  s = parseStamp("[ 1240.000001] NVRM");
  EXPECT_EQ(s.clock, Clock::kBoot);
  EXPECT_EQ(*toUtcUs(s, 0, 0, int64_t{1000000}), 1240000001 + 1000000);
  EXPECT_EQ(parseStamp("1240.000001 NVRM").clock, Clock::kNone);  // boot offsets only in brackets
  EXPECT_EQ(parseStamp("[rank3]: hello").clock, Clock::kNone);
  EXPECT_EQ(parseStamp("[2026-13-40 10:00:00] x").clock, Clock::kNone);
  EXPECT_EQ(parseEpochSeconds("1776854557").clock, Clock::kUtc);
  EXPECT_EQ(parseEpochSeconds("12").clock, Clock::kNone);
  EXPECT_EQ(parseEpochSeconds("17768545x7").clock, Clock::kNone);
}

TEST(ArtefactTimeline, YearFromAnotherArtefactAcrossNewYear) {
  std::vector<TimelineEvent> ev(2);
  ev[0].stamp = parseStamp("[2027-01-01 00:00:05] x");
  ev[1].stamp = parseStamp("[E1231 23:59:59.000000 1 a.cpp:1] y");
  std::vector<std::string> notes;
  const auto o = orderEvents(ev, {}, notes);
  ASSERT_EQ(o.size(), 2u);
  EXPECT_EQ(o[0].event, &ev[1]);  // December 31st of 2026, before the new year's line
  EXPECT_EQ(isoUtc(*o[0].utcUs), "2026-12-31T23:59:59.000000Z");
}

TEST(ArtefactTimeline, StampsWithoutAYearAreOrderedAmongThemselvesWhenNoneGivesOne) {
  std::vector<TimelineEvent> ev(4);
  ev[0].stamp = parseStamp("[E304 10:42:37.901245 1 a.cpp:1] rank 0");
  ev[1].stamp = parseStamp("Mar  4 10:42:36 node3 kernel: link down");
  ev[2].stamp = parseStamp("[E304 10:42:37.883906 1 a.cpp:1] rank 3");
  ev[3].stamp = parseStamp("[E304 10:42:37.883906 1 a.cpp:1] rank 3's earlier line, stamp taken from the next");
  ev[3].stampOfNextLine = true;
  std::vector<std::string> notes;
  const auto o = orderEvents(ev, {}, notes);
  ASSERT_EQ(o.size(), 4u);
  EXPECT_EQ(o[0].event, &ev[1]);
  EXPECT_EQ(o[1].event, &ev[3]);  // at one time, the line printed no later than its lender comes first
  EXPECT_EQ(o[2].event, &ev[2]);
  EXPECT_EQ(o[3].event, &ev[0]);
  for (const auto& x : o) {
    EXPECT_TRUE(x.orderUs.has_value());
    EXPECT_FALSE(x.utcUs.has_value());  // the date is not known: no UTC time
  }
  bool said = false;
  for (const auto& n : notes) said = said || n.find("ordered among themselves as if of one year") != std::string::npos;
  EXPECT_TRUE(said);
}

// torchrun's failure summary, as its agent on each node prints it (two nodes' summaries in one Slurm output): each
// failure is an event on its host and rank at its time, torch elastic's root cause not a consequence, the others
// are; the job's first failure is node3's rank 4, killed by SIGKILL.
TEST(ArtefactTimeline, TorchrunFailureSummariesPlaceEachRanksExit) {
  ArtefactDir d;
  const std::string summary3 =
      "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
      "============================================================\n"
      "train.py FAILED\n"
      "------------------------------------------------------------\n"
      "Failures:\n"
      "[1]:\n"
      "  time      : 2026-04-22_10:42:39\n"
      "  host      : node3\n"
      "  rank      : 5 (local_rank: 1)\n"
      "  exitcode  : 1 (pid: 2818)\n"
      "  error_file: <N/A>\n"
      "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
      "------------------------------------------------------------\n"
      "Root Cause (first observed failure):\n"
      "[0]:\n"
      "  time      : 2026-04-22_10:42:37\n"
      "  host      : node3\n"
      "  rank      : 4 (local_rank: 0)\n"
      "  exitcode  : -9 (pid: 2817) (SIGKILL)\n"
      "  error_file: <N/A>\n"
      "  traceback : Signal 9 (SIGKILL) received by PID 2817\n"
      "============================================================\n";
  const std::string summary4 =
      "Failures:\n"
      "  <NO_OTHER_FAILURES>\n"
      "Root Cause (first observed failure):\n"
      "[0]:\n"
      "  time      : 2026-04-22_10:42:40\n"
      "  host      : node4\n"
      "  rank      : 9 (local_rank: 1)\n"
      "  exitcode  : 1 (pid: 3001)\n"
      "  error_file: <N/A>\n"
      "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n";
  // A field-like line outside a summary is no event.
  const std::string file =
      d.file("slurm-77.out", "epoch 3  time      : 12.5 s\n  exitcode  : 0 (pid: 1)\n" + summary3 + summary4);
  ArtefactSession s;
  Analysis a = analyzeFiles(test::catalog(), {file}, kDefaultBlockSize, s.planner());
  const Result r = s.result(a, {});
  const Json& p = r.params;
  ASSERT_TRUE(p["first_failure"].is_object()) << p.dump(2);
  EXPECT_EQ(p["first_failure"]["rank"], 4);
  EXPECT_EQ(p["first_failure"]["host"], "node3");
  EXPECT_EQ(p["first_failure"]["time_utc"], "2026-04-22T10:42:37.000000Z");
  EXPECT_EQ(p["first_failure"]["line"], 21);  // the exitcode line, which the SIGKILL rule read too
  EXPECT_EQ(p["first_failure"]["kind"], "rule:resource-limits.killed-sigkill");
  std::vector<std::tuple<int, std::string, bool>> exits;  // rank, host, consequence
  for (const Json& e : p["timeline"])
    if (e["text"].get<std::string>().starts_with("torch elastic: rank "))
      exits.emplace_back(e["rank"].get<int>(), e["host"].get<std::string>(), e["consequence"].get<bool>());
  const std::vector<std::tuple<int, std::string, bool>> want = {
      {4, "node3", false}, {5, "node3", true}, {9, "node4", false}};
  EXPECT_EQ(exits, want);
  s.alignRanks(a);
  EXPECT_EQ(a.ranks.firstFailure.line, 21u);
  EXPECT_EQ(a.ranks.firstFailure.rank, 4);
  EXPECT_EQ(a.ranks.firstFailure.host, "node3");
}

TEST(ArtefactTimeline, RankRanges) {
  EXPECT_EQ(rankRanges({0, 1, 2, 5, 7, 8, 9}), "0-2, 5, 7-9");
  EXPECT_EQ(rankRanges({}), "");
}

// The issue's case in small: rank 3's IB completion error (NCCL's timestamp), then watchdog timeouts (PyTorch's
// stamps, no year), a kernel log whose boot offsets are anchored by a syslog line, a torchelastic error file
// (epoch seconds) and an ncclras report (no time at all).
TEST(ArtefactTimeline, OneJobAcrossClockSources) {
  ArtefactDir d;
  d.file("rank3.log",
         "[2026-04-22 10:42:37] node3:2817:2901 [3] transport/net_ib.cc:2358 NCCL WARN NET/IB: Got completion from "
         "peer 10.0.0.4<47372> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.3 "
         "remoteGids::ffff:10.0.0.4 hca mlx5_3\n");
  d.file("rank0.log",
         "[rank0]:[E422 10:42:38.901234 1234 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation "
         "timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600123 "
         "milliseconds before timing out.\n");
  d.file("node3/kern.log",
         "Apr 22 10:40:00 node3 kernel: [5000.000000] mlx5_core 0000:c1:00.0: firmware version 28.39.1002\n"
         "Apr 22 10:42:37 node3 kernel: [5156.500000] mlx5_core 0000:c1:00.0 ibp193s0: Link down\n"
         "[5300.000000] NVRM: Xid (PCI:0000:c1:00): 79, pid=1, GPU has fallen off the bus.\n");
  d.file(
      "attempt_0/3/error.json",
      R"({"message": {"message": "DistBackendError: [Rank 3] NCCL error", "extraInfo": {"py_callstack": "T", "timestamp": "1776854560"}}})");
  d.file("ras.out",
         "Errors\n======\n\nDEAD\n  1 job process is considered dead (unreachable via the RAS network)\n"
         "  Process 2817 on node node3 managing GPU 3\n\n");
  d.file("junk.bin", std::string("\x7f"
                                 "ELF\x00\x00\x00\x01",
                                 8));
  const InputFiles in = collectInputs({d.path()});
  ASSERT_EQ(in.files.size(), 6u);
  ArtefactSession s;
  Analysis a = analyzeFiles(test::catalog(), in.files, kDefaultBlockSize, s.planner());
  ASSERT_EQ(s.skipped().size(), 1u) << s.skipped()[0].file << ": " << s.skipped()[0].reason << "; "
                                    << s.skipped()[1].file << ": " << s.skipped()[1].reason;
  EXPECT_NE(s.skipped()[0].file.find("junk.bin"), std::string::npos);
  const Result r = s.result(a, in.skipped);
  const Json& p = r.params;
  ASSERT_TRUE(p["first_failure"].is_object()) << p.dump(2);
  // The link went down at 10:42:36.5 (boot 5156.5, anchored by the first line at boot 5000 = 10:40:00), before
  // NCCL's error at 10:42:37 on the same node. As with the Xid line below, a rule reads the line too (the mlx5
  // driver's "Link down"), and the two are one event.
  EXPECT_EQ(p["first_failure"]["kind"], "rule:ib-verbs.nic-link-lost-kernel");
  EXPECT_EQ(p["first_failure"]["time_utc"], "2026-04-22T10:42:36.500000Z");
  EXPECT_EQ(p["first_failure"]["host"], "node3");
  std::vector<std::string> order;
  for (const Json& e : p["timeline"]) order.push_back(e["kind"].get<std::string>());
  ASSERT_GE(order.size(), 6u) << p.dump(2);
  EXPECT_EQ(order[0], "rule:ib-verbs.nic-link-lost-kernel");
  EXPECT_EQ(p["timeline"][0]["nic"], "0000:c1:00.0");  // the kernel log reader names the NIC by its PCI address
  EXPECT_EQ(order[1], "rule:ib-verbs.completion-error-12-retry");
  EXPECT_EQ(p["timeline"][1]["nic"], "mlx5_3");
  EXPECT_EQ(p["timeline"][1]["peer"], "10.0.0.4<47372>");
  EXPECT_EQ(order[2], "rule:timeout-hang.watchdog-timeout");
  EXPECT_EQ(p["timeline"][2]["time_utc"], "2026-04-22T10:42:38.901234Z");
  EXPECT_EQ(order[3], "elastic-error");
  // The Xid line: a rule's failing line read by the kernel log's reader too, one event with both's fields.
  EXPECT_EQ(order[4], "rule:cuda.gpu-hardware-fault");  // boot 5300 = 10:40:00 + 300 s
  EXPECT_EQ(p["timeline"][4]["gpu"], "0000:c1:00");
  EXPECT_EQ(p["timeline"][4]["time_utc"], "2026-04-22T10:45:00.000000Z");
  EXPECT_EQ(order[5], "ras.dead_process");  // no time: after the ordered ones
  EXPECT_TRUE(p["timeline"][5]["time_utc"].is_null());
  EXPECT_EQ(r.status, Status::kFail);  // RAS's dead process
  bool notGivenFr = false;
  for (const Json& n : p["not_given"]) notGivenFr |= n.get<std::string>().starts_with("Flight Recorder dumps");
  EXPECT_TRUE(notGivenFr);
  // The ranks' section names the same first failure: the kernel's link-down line on node3, at its UTC time (the
  // ranks' own comparison cannot read syslog's stamp or the boot offset).
  s.alignRanks(a);
  EXPECT_TRUE(a.ranks.firstFailure.file.ends_with("node3/kern.log")) << a.ranks.firstFailure.where();
  EXPECT_EQ(a.ranks.firstFailure.line, 2u);
  EXPECT_EQ(a.ranks.firstFailure.host, "node3");
  EXPECT_EQ(a.ranks.firstFailure.timestamp, "2026-04-22T10:42:36.500000Z");
}

TEST(ArtefactTimeline, ErrorFilesOfRanksNotGiven) {
  ArtefactDir d;
  d.file("ras.json", R"({"nccl_version": "2.28.7", "communicators": [{"hash": "0x1", "size": 4, "ranks": [],
                         "missing_ranks": []}]})");
  d.file("e3.json",
         R"({"message": {"message": "RuntimeError: [Rank 3] x", "extraInfo": {"timestamp": "1776854560"}}})");
  const InputFiles in = collectInputs({d.path()});
  ArtefactSession s;
  const Result r = s.result(analyzeFiles(test::catalog(), in.files, kDefaultBlockSize, s.planner()), in.skipped);
  std::string said;
  for (const Json& n : r.params["not_given"]) said += n.get<std::string>() + "\n";
  EXPECT_NE(said.find("torchelastic error files of ranks 0-2 (3 of 4 ranks"), std::string::npos) << said;
  EXPECT_EQ(said.find("NCCL RAS output"), std::string::npos) << said;
}

// A kind whose files mean something only together (as Flight Recorder dumps, one per rank): its job state sees
// every file of the kind and reports once, after the last input. Registered here only, for this test binary; its
// content marker appears in no other test's input.
class JobStateTestState final : public ArtefactJobState {
 public:
  std::vector<std::string> files;
  void finish(ArtefactOut& out) override {
    ArtefactFinding f;
    f.id = "test.job";
    f.fail = false;
    f.message = std::to_string(files.size()) + " files read together";
    out.findings.push_back(f);
  }
};

class JobStateTestReader final : public ArtefactReader {
 public:
  JobStateTestReader(std::string file, JobStateTestState& s) : file_(std::move(file)), state_(s) {}
  void block(std::string_view) override {}
  void finish(ArtefactOut&) override { state_.files.push_back(file_); }

 private:
  std::string file_;
  JobStateTestState& state_;
};

class JobStateTestKind final : public ArtefactKind {
 public:
  std::string description() const override { return "test kind read as a job"; }
  int recognise(std::string_view head) const override { return head.starts_with("PF-JOB-STATE-TEST\n") ? 99 : 0; }
  std::unique_ptr<ArtefactReader> open(const std::string&) const override { return nullptr; }
  std::unique_ptr<ArtefactJobState> jobState() const override { return std::make_unique<JobStateTestState>(); }
  std::unique_ptr<ArtefactReader> openInJob(const std::string& file, ArtefactJobState& s) const override {
    return std::make_unique<JobStateTestReader>(file, static_cast<JobStateTestState&>(s));
  }
};
PF_REGISTER_ARTEFACT_KIND(JobStateTestKind, "test-job-state");

TEST(ArtefactTimeline, KindsReadAcrossFilesFinishOnce) {
  ArtefactDir d;
  d.file("rank0.dump", "PF-JOB-STATE-TEST\n0");
  d.file("rank1.dump", "PF-JOB-STATE-TEST\n1");
  d.file("rank.log", "hello\n");
  const InputFiles in = collectInputs({d.path()});
  ArtefactSession s;
  const Analysis a = analyzeFiles(test::catalog(), in.files, kDefaultBlockSize, s.planner());
  const Result r = s.result(a, in.skipped);
  ASSERT_EQ(r.params["findings"].size(), 1u);
  EXPECT_EQ(r.params["findings"][0]["message"], "2 files read together");
  EXPECT_EQ(s.result(a, in.skipped).params["findings"].size(), 1u);  // finished once, however often asked
}

// Found by the artefact fuzzer: bytes that are not UTF-8 in a line's host or text reached the JSON document.
TEST(ArtefactTimeline, ResultIsValidUtf8WhateverTheBytes) {
  ArtefactDir d;
  d.file("bad.log",
         "n\xff"
         "1:15 NCCL DIAG [WARN] ECC: uncorrected \xe2\x82=ECC\n"
         "srun: error: n\xc3: task 1: Exited with exit code 1\n");
  const InputFiles in = collectInputs({d.path()});
  ArtefactSession s;
  const Result r = s.result(analyzeFiles(test::catalog(), in.files, kDefaultBlockSize, s.planner()), in.skipped);
  ASSERT_EQ(r.params["findings"].size(), 1u);
  EXPECT_NO_THROW((void)toJson(r).dump());
}

TEST(ArtefactWalk, BoundedAndLoopSafe) {
  ArtefactDir d;
  d.file("a/b/c.log", "x\n");
  fs::create_directory_symlink(d.path() + "/a", d.path() + "/a/b/loop");
  ASSERT_EQ(::mkfifo((d.path() + "/a/fifo").c_str(), 0600), 0);
  const InputFiles in = collectInputs({d.path()});
  ASSERT_EQ(in.files.size(), 1u);
  EXPECT_NE(in.files[0].find("a/b/c.log"), std::string::npos);
  ASSERT_EQ(in.skipped.size(), 2u);
  std::string reasons = in.skipped[0].reason + "|" + in.skipped[1].reason;
  EXPECT_NE(reasons.find("symbolic link loops"), std::string::npos) << reasons;
  EXPECT_NE(reasons.find("not a regular file"), std::string::npos) << reasons;
  ArtefactDir empty;
  fs::create_directories(empty.path() + "/x/y");
  EXPECT_THROW(collectInputs({empty.path()}), UsageError);
}

}  // namespace
}  // namespace pf::doctor
