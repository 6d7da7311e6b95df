// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The chain of events across a job's files. A rule `explained_by` another: when the other's failure came first on
// the job's timeline, within the window, the diagnosis is ranked right after it as its consequence
// (ArtefactSession::alignDiagnoses); an older event, a later one or one with no comparable time changes nothing; the
// catalog refuses explanations that name no rule, the rule itself, or go round in a cycle. A cause whose log printed
// no time (NCCL before 2.26) still comes before the timed watchdog timeouts that follow it, and one line read by
// several rules of one category is one cause.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "artefacts/timeline.hpp"
#include "artefacts/walk.hpp"
#include "pf/error.hpp"
#include "test_util.hpp"

namespace pf::doctor {
namespace {

namespace fs = std::filesystem;

using test::TempDir;

// Rank 3's NCCL retry error at 10:42:37 and node3's kernel log with the NIC's link going down at `linkDownAt`.
struct Job {
  std::vector<std::string> ranked;  // rule ids, as the report lists them after the timeline's alignment
  std::vector<std::string> before;  // the same, before it
  std::map<std::string, std::string> consequenceOf;
};

Job diagnose(const std::string& linkDownAt) {
  TempDir d;
  d.file("rank3.log",
         "[2026-04-22 10:42:37] node3:2817:2901 [3] transport/net_ib.cc:2358 NCCL WARN NET/IB: Got completion from "
         "peer 10.0.0.4<47372> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.3 "
         "remoteGids::ffff:10.0.0.4 hca mlx5_3\n");
  d.file("node3/kern.log", "Apr 22 " + linkDownAt +
                               " node3 kernel: mlx5_core 0000:c1:00.0: mlx5_port_module_event:1146:(pid 0): Port "
                               "module event: module 0, Cable unplugged\n");
  const InputFiles in = collectInputs({d.path()});
  ArtefactSession s;
  Analysis a = analyzeFiles(test::catalog(), in.files, kDefaultBlockSize, s.planner());
  Job job;
  for (const auto& x : a.diagnoses) job.before.push_back(x.rule->id);
  (void)s.result(a, in.skipped);
  s.alignDiagnoses(a);
  for (const auto& x : a.diagnoses) {
    job.ranked.push_back(x.rule->id);
    if (x.consequenceOf) job.consequenceOf[x.rule->id] = x.consequenceOf->id;
  }
  return job;
}

constexpr const char* kKernel = "ib-verbs.nic-link-lost-kernel";
constexpr const char* kRetry = "ib-verbs.completion-error-12-retry";

TEST(ExplainedBy, TheKernelsLinkLossBeforeNcclsRetryErrorIsItsCause) {
  const Job job = diagnose("10:42:30");
  // By confidence alone NCCL's retry error (0.85) leads the kernel's event (0.70).
  ASSERT_GE(job.before.size(), 2u);
  EXPECT_EQ(job.before[0], kRetry);
  ASSERT_GE(job.ranked.size(), 2u);
  EXPECT_EQ(job.ranked[0], kKernel);
  EXPECT_EQ(job.ranked[1], kRetry);
  EXPECT_EQ(job.consequenceOf.at(kRetry), kKernel);
  EXPECT_FALSE(job.consequenceOf.count(kKernel));
}

TEST(ExplainedBy, StampsToTheSecondMayPutTheCauseUpToASecondAfter) {
  // syslog's stamp is cut to the second: a link lost at 10:42:37.9 prints as 10:42:37, NCCL's as it printed.
  EXPECT_EQ(diagnose("10:42:37").ranked[0], kKernel);
  EXPECT_EQ(diagnose("10:42:38").ranked[0], kKernel);
}

TEST(ExplainedBy, AnOlderOrALaterLinkEventExplainsNothing) {
  for (const char* at : {"10:30:00", "10:42:39", "10:50:00"}) {
    const Job job = diagnose(at);
    EXPECT_EQ(job.ranked, job.before) << at;
    EXPECT_FALSE(job.consequenceOf.count(kRetry)) << at;
  }
}

// Loads a copy of the built-in rules with `from` replaced by `to` in ib-verbs.json: a UsageError that says `message`.
void expectCatalogRefuses(const std::string& from, const std::string& to, const std::string& message) {
  TempDir d;
  for (const auto& e : fs::directory_iterator(PF_DOCTOR_RULES))
    fs::copy(e.path(), d.path() + "/" + e.path().filename().string());
  const std::string path = d.path() + "/ib-verbs.json";
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  const auto at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
  std::ofstream(path, std::ios::trunc) << text;
  try {
    (void)loadCatalogDir(d.path());
    ADD_FAILURE() << "loaded: " << to;
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
}

TEST(ExplainedBy, TheCatalogRefusesExplanationsThatNameNoRuleThemselvesOrACycle) {
  ASSERT_NO_THROW((void)loadCatalogDir(PF_DOCTOR_RULES));
  expectCatalogRefuses(R"("ib-verbs.nic-link-lost-kernel"
      ],)",
                       R"("ib-verbs.no-such-rule"
      ],)",
                       "names no rule 'ib-verbs.no-such-rule'");
  expectCatalogRefuses(R"("id": "ib-verbs.nic-link-lost-kernel",)",
                       R"("id": "ib-verbs.nic-link-lost-kernel", "explained_by": ["ib-verbs.nic-link-lost-kernel"],)",
                       "names the rule itself");
  expectCatalogRefuses(R"("id": "ib-verbs.nic-link-lost-kernel",)",
                       R"("id": "ib-verbs.nic-link-lost-kernel", "explained_by": ["ib-verbs.port-down"],)", "a cycle");
}

TEST(ExplainedBy, AGpuFallenOffTheBusExplainsTheCudaErrorAfterIt) {
  TempDir d;
  d.file("kern.log",
         "Apr 22 10:42:30 node3 kernel: [5150.000000] NVRM: Xid (PCI:0000:41:00): 79, pid=2817, name=python, GPU has "
         "fallen off the bus.\n");
  d.file("rank3.log",
         "[2026-04-22 10:42:31] node3:2817:2901 [1] enqueue.cc:1542 NCCL WARN Cuda failure 'unspecified launch "
         "failure'\n");
  const InputFiles in = collectInputs({d.path()});
  ArtefactSession s;
  Analysis a = analyzeFiles(test::catalog(), in.files, kDefaultBlockSize, s.planner());
  (void)s.result(a, in.skipped);
  s.alignDiagnoses(a);
  ASSERT_EQ(a.diagnoses.size(), 2u);
  EXPECT_EQ(a.diagnoses[0].rule->id, "cuda.gpu-hardware-fault");
  EXPECT_EQ(a.diagnoses[1].rule->id, "cuda.illegal-address");
  ASSERT_NE(a.diagnoses[1].consequenceOf, nullptr);
  EXPECT_EQ(a.diagnoses[1].consequenceOf->id, "cuda.gpu-hardware-fault");
}

// NCCL 2.18 prints no time on its lines; PyTorch's watchdog does (no year).
const std::string kUntimedRetryError =
    "node3:2817:2901 [3] NCCL INFO NCCL version 2.18.3+cuda12.2\n"
    "node3:2817:2901 [3] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.0.0.4<47372> with "
    "error 12, opcode 0, len 0, vendor err 129 (Recv)\n";
const std::string kTimedWatchdog =
    "[rank0]:[E422 10:42:38.901234 1234 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation "
    "timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600123 "
    "milliseconds before timing out.\n";

struct Placed {
  Json firstFailure, notes;
  Analysis analysis;
};

Placed place(const std::map<std::string, std::string>& files) {
  TempDir d;
  for (const auto& [name, text] : files) d.file(name, text);
  const InputFiles in = collectInputs({d.path()});
  ArtefactSession s;
  Placed p;
  p.analysis = analyzeFiles(test::catalog(), in.files, kDefaultBlockSize, s.planner());
  const Result r = s.result(p.analysis, in.skipped);
  p.firstFailure = r.params["first_failure"];
  p.notes = r.params["clock_notes"];
  s.alignRanks(p.analysis);
  return p;
}

TEST(UntimedCause, ComesBeforeTheTimedWatchdogTimeoutsThatFollowIt) {
  Placed p = place({{"rank3.log", kUntimedRetryError}, {"rank0.log", kTimedWatchdog}});
  ASSERT_TRUE(p.firstFailure.is_object());
  EXPECT_EQ(p.firstFailure["kind"], "rule:ib-verbs.completion-error-12-retry");
  EXPECT_TRUE(p.firstFailure["time_utc"].is_null());
  EXPECT_NE(p.notes.dump().find("the first failure carries no time"), std::string::npos) << p.notes.dump();
  // The ranks' section names the same line, and the watchdog is the retry error's consequence.
  EXPECT_TRUE(p.analysis.ranks.firstFailure.file.ends_with("rank3.log")) << p.analysis.ranks.firstFailure.where();
  const auto& ds = p.analysis.diagnoses;
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(ds[1].rule->id, "timeout-hang.watchdog-timeout");
  ASSERT_NE(ds[1].consequenceOf, nullptr);
  EXPECT_EQ(ds[1].consequenceOf->id, "ib-verbs.completion-error-12-retry");
}

TEST(UntimedCause, ATasksExitIsAConsequenceANodeFailureACause) {
  // srun's word that a task exited follows the task's own error: the timed watchdog stays first.
  Placed p = place({{"slurm-1.out", "srun: error: node3: task 3: Exited with exit code 1\n" + kTimedWatchdog}});
  EXPECT_EQ(p.firstFailure["kind"], "rule:timeout-hang.watchdog-timeout") << p.firstFailure.dump();
  p = place({{"slurm-1.out", "srun: error: Node failure on node3\n" + kTimedWatchdog}});
  EXPECT_EQ(p.firstFailure["kind"], "rule:other.slurm-node-failure") << p.firstFailure.dump();
}

TEST(UntimedCause, AKernelLineARuleReadTakesItsHostFromSyslog) {
  // No reader makes an event of the OOM killer's line; the rule's event still names the node.
  Placed p = place({{"kern.log",
                     "Apr 22 10:42:30 node3 kernel: [5150.000000] Out of memory: Killed process 2817 (python) "
                     "total-vm:123456789kB, anon-rss:98765432kB, file-rss:0kB, shmem-rss:0kB\n"}});
  EXPECT_EQ(p.firstFailure["kind"], "rule:resource-limits.killed-sigkill") << p.firstFailure.dump();
  EXPECT_EQ(p.firstFailure["host"], "node3") << p.firstFailure.dump();
}

TEST(OneLineOneCause, LessSpecificReadingsOfOneCategoryFoldIntoTheNamedCause) {
  // One completion error: a retry timeout (0.85), any completion error (0.65), a failed verbs call (0.55), a warning
  // of the IB transport's file (0.45).
  const auto& ds = test::analyzeText(kUntimedRetryError).diagnoses;
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].rule->id, "ib-verbs.completion-error-12-retry");
  EXPECT_EQ(ds[0].alsoMatched,
            (std::vector<std::string>{"ib-verbs.completion-error-other", "ib-verbs.verbs-call-failed",
                                      "ib-verbs.ib-transport-warning"}));
  // Low-confidence candidates of one generic line stay apart, each with the check that tells it from the others,
  // two of one category among them.
  const auto ids = test::rankedRuleIds("node1:1:1 [0] NCCL WARN unhandled system error\n");
  EXPECT_NE(std::find(ids.begin(), ids.end(), "other.unhandled-system-error"), ids.end());
  EXPECT_NE(std::find(ids.begin(), ids.end(), "other.nccl-warning"), ids.end());
}

}  // namespace
}  // namespace pf::doctor
