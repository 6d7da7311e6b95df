// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// CPU contention against a network verdict: the procfs parsers on captured text, the load between two
// snapshots, a real busy process seen on this machine's procfs, and the verdicts on synthetic matrices.
#include "contention.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cpu_load.hpp"
#include "pair_fixtures.hpp"
#include "pf/error.hpp"

namespace pf::check {
namespace {

using ::testing::HasSubstr;
using testing::makeMatrix;
using ::testing::Not;

// Lines of a real /proc/stat (Debian 12, 2 CPUs), the counters shortened.
constexpr const char* kProcStat =
    "cpu  4705 356 584 3699 23 0 14 25 0 0\n"
    "cpu0 1393 29 307 1800 13 0 5 12 0 0\n"
    "cpu1 3312 327 277 1899 10 0 9 13 0 0\n"
    "intr 114930548 113199788 3 0 0\n"
    "ctxt 1990473\n"
    "procs_running 3\n"
    "procs_blocked 0\n";

CpuLoad quietNode() {
  CpuLoad c;
  c.host = "node0";
  c.cpus = 2;
  return c;
}

TEST(CpuLoad, ParsesProcStat) {
  CpuSnapshot s;
  parseProcStat(kProcStat, s);
  EXPECT_EQ(s.cpus, 2);
  EXPECT_EQ(s.totalTicks, 4705u + 356 + 584 + 3699 + 23 + 0 + 14 + 25);
  EXPECT_EQ(s.stealTicks, 25u);
  EXPECT_EQ(s.idleTicks, 3699u + 23);
  EXPECT_EQ(s.procsRunning, 3);
}

TEST(CpuLoad, ParsesPidStatWithAnyName) {
  auto p = parsePidStat("4242 (yes) R 1 4242 1 34816 4242 4194304 96 0 0 0 1500 20 0 0 20 0 1 0 100 5 1 0");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->first, "yes");
  EXPECT_EQ(p->second, 1520u);
  // A name with spaces and parentheses ends at the last ')'; bytes that are not printable ASCII become '?'.
  p = parsePidStat("7 (a) b\xff) S 1 7 1 0 -1 4194560 1 0 0 0 3 4 0 0 20 0 1 0 9 1 1 0");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->first, "a) b?");
  EXPECT_EQ(p->second, 7u);
  EXPECT_FALSE(parsePidStat("7 (truncated) S 1 7"));
  EXPECT_FALSE(parsePidStat("no parentheses at all"));
  EXPECT_FALSE(parsePidStat("7 (x) S 1 7 1 0 -1 0 1 0 0 0 -3 4 0"));
}

TEST(CpuLoad, OthersAreEveryTickButTheJobs) {
  // One second on two CPUs at 100 ticks/s: 200 ticks. Steal 20; the job's rank 40; `yes` 99, a `stress` born
  // in the window 20, a kernel thread that renamed itself 2; idle the rest (19).
  CpuSnapshot a, b;
  a.seconds = 10;
  b.seconds = 11;
  a.cpus = b.cpus = 2;
  a.totalTicks = 1000;
  b.totalTicks = 1200;
  a.stealTicks = 0;
  b.stealTicks = 20;
  a.idleTicks = 500;
  b.idleTicks = 519;
  a.processes = {{7, {"preflight", 100}}, {42, {"yes", 500}}, {43, {"kworker/0:1-ev", 1}}, {44, {"sleep", 1}}};
  b.processes = {{7, {"preflight", 140}},
                 {42, {"yes", 599}},
                 {43, {"kworker/0:1-mm", 3}},
                 {44, {"sleep", 1}},
                 {45, {"stress", 20}}};
  CpuLoad c = cpuLoadBetween(a, b, {7}, 100);
  EXPECT_DOUBLE_EQ(c.stealPct, 10);
  EXPECT_DOUBLE_EQ(c.othersPct, 100.0 * (99 + 20 + 2) / 200);  // % of the node: both CPUs
  ASSERT_EQ(c.top.size(), 3u);                                 // the sleeper used nothing; the job is not listed
  EXPECT_EQ(c.top[0].comm, "yes");
  EXPECT_DOUBLE_EQ(c.top[0].cpuPct, 99);
  EXPECT_EQ(c.top[1].pid, 45);           // born in the window: counted from zero
  EXPECT_DOUBLE_EQ(c.top[2].cpuPct, 2);  // renamed, not new: counted from its first value
  EXPECT_TRUE(c.contended());
  EXPECT_THAT(c.describe(), HasSubstr("yes(42) 99%"));
  EXPECT_EQ(cpuLoadFromJson(toJson(c)).describe(), c.describe());
}

TEST(CpuLoad, SeesARealBusyProcessOnThisMachine) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    for (;;) {
    }  // spin until killed
  }
  const CpuSnapshot a = takeCpuSnapshot();
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  const CpuSnapshot b = takeCpuSnapshot();
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  EXPECT_GE(b.cpus, 1);
  EXPECT_GT(b.totalTicks, a.totalTicks);
  ASSERT_TRUE(a.processes.count(child) && b.processes.count(child));
  EXPECT_GT(b.processes.at(child).second, a.processes.at(child).second) << "a spinning child used no CPU time";
  const CpuLoad c = cpuLoadBetween(a, b, {getpid()}, static_cast<double>(sysconf(_SC_CLK_TCK)));
  EXPECT_GT(c.othersPct, 0);
}

TEST(CpuLoad, OtherProcessesOnTheGpusAreNamedMostMemoryFirst) {
  // A captured /proc with the names of three of the processes NVML reports; 999 is not visible here (another pid
  // namespace), 555 is one of this job's ranks.
  const std::filesystem::path root = std::filesystem::path(::testing::TempDir()) / "pf-gpu-procs";
  std::filesystem::remove_all(root);
  for (const auto& [pid, comm] : {std::pair{777, "python"}, std::pair{888, "trainer"}, std::pair{666, "x\xff"}}) {
    std::filesystem::create_directories(root / "proc" / std::to_string(pid));
    std::ofstream(root / "proc" / std::to_string(pid) / "comm") << comm << "\n";
  }
  const long long gib = 1LL << 30;
  CpuLoad c = quietNode();
  addGpuProcesses(c, {{0, 555, 10 * gib}, {1, 999, -1}, {1, 888, 2 * gib}, {0, 777, 30 * gib}, {1, 666, gib}}, {555},
                  root);
  ASSERT_EQ(c.gpu.size(), 3u);  // the three holding most memory; the job's own rank left out
  EXPECT_EQ(c.gpu[0].pid, 777);
  EXPECT_EQ(c.gpu[0].comm, "python");
  EXPECT_EQ(c.gpu[1].comm, "trainer");
  EXPECT_EQ(c.gpu[2].comm, "x?");  // a name that is not UTF-8 would make the document unwritable
  EXPECT_THAT(c.describe(), HasSubstr("; on its GPUs: python(777) 30.0 GiB on GPU 0, trainer(888) 2.0 GiB on GPU 1, "
                                      "x?(666) 1.0 GiB on GPU 1"));
  EXPECT_NO_THROW(toJson(c).dump());
  CpuLoad hidden = quietNode();
  addGpuProcesses(hidden, {{1, 999, gib}}, {}, root);
  ASSERT_EQ(hidden.gpu.size(), 1u);
  EXPECT_EQ(hidden.gpu[0].comm, "?");  // its /proc entry is not visible here
  const CpuLoad back = cpuLoadFromJson(toJson(c));
  ASSERT_EQ(back.gpu.size(), 3u);
  EXPECT_EQ(back.gpu[0].usedBytes, 30 * gib);
  EXPECT_EQ(back.describe(), c.describe());
  std::filesystem::remove_all(root);
}

TEST(CpuLoad, ANodeWithoutNvmlSaysWhyAndOlderRecordsStillRead) {
  CpuLoad c = quietNode();
  c.gpuQuery = "not asked: dlopen(libnvidia-ml.so.1): cannot open shared object file";
  Json j = toJson(c);
  EXPECT_EQ(j.at("gpu_query"), c.gpuQuery);
  EXPECT_EQ(cpuLoadFromJson(j).gpuQuery, c.gpuQuery);
  EXPECT_THAT(c.describe(), Not(HasSubstr("GPU")));
  j.erase("gpu");  // a document written before GPU processes were listed
  j.erase("gpu_query");
  EXPECT_TRUE(cpuLoadFromJson(j).gpu.empty());
  j["gpu"] = 3;
  EXPECT_THROW(cpuLoadFromJson(j), UsageError);
}

CpuLoad quiet(const std::string& host) {
  CpuLoad c;
  c.host = host;
  c.cpus = 2;
  c.windowSeconds = 3;
  return c;
}

CpuLoad busy(const std::string& host) {
  CpuLoad c = quiet(host);
  c.othersPct = 99;
  c.load1 = 4.2;
  c.top = {{4242, "stress-ng", 198}};
  return c;
}

std::vector<CpuLoad> loads(int n, const std::set<int>& busyNodes) {
  std::vector<CpuLoad> out;
  for (int i = 0; i < n; ++i)
    out.push_back(busyNodes.count(i) ? busy("node" + std::to_string(i)) : quiet("node" + std::to_string(i)));
  return out;
}

TEST(Contention, ABusyNodeSlowByHalfIsContentionNotTheNetwork) {
  auto m = makeMatrix(4, 1.0, {1}, {}, 0.3);  // node1's pairs at 30%
  PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{});
  ASSERT_EQ(a.findings.size(), 1u);
  ASSERT_EQ(a.findings[0].check, "pairs.node_bandwidth");
  attributeContention(a, m.rows, loads(4, {1}));
  ASSERT_EQ(a.findings.size(), 1u);
  const Finding& f = a.findings[0];
  EXPECT_EQ(f.check, "pairs.cpu_contention");
  EXPECT_EQ(f.status, Status::kFail);  // one busy node is not ready for a job: clear it
  EXPECT_THAT(f.message, HasSubstr("stress-ng(4242)"));
  EXPECT_THAT(f.remedy, HasSubstr("clear node1"));
  EXPECT_THAT(f.remedy, HasSubstr("do not drain it for the network"));
  EXPECT_THAT(f.remedy, Not(HasSubstr("scontrol update")));
}

TEST(Contention, ALinkFarTooSlowForContentionKeepsTheNetworkVerdict) {
  auto m = makeMatrix(4, 1.0, {1}, {}, 0.025);  // 2.5%: a shaped link, not a busy CPU
  PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{});
  attributeContention(a, m.rows, loads(4, {1}));
  ASSERT_EQ(a.findings.size(), 1u);
  EXPECT_EQ(a.findings[0].check, "pairs.node_bandwidth");
  EXPECT_EQ(a.findings[0].status, Status::kFail);
  bool cpuEvidence = false;
  for (const Evidence& e : a.findings[0].evidence) cpuEvidence |= e.what == "CPU load during the pair test";
  EXPECT_TRUE(cpuEvidence) << "the CPU load belongs in the evidence even when it does not explain the failure";
}

TEST(Contention, AQuietSlowNodeIsStillTheNetwork) {
  auto m = makeMatrix(4, 1.0, {1}, {}, 0.3);
  PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{});
  attributeContention(a, m.rows, loads(4, {2}));  // another node is busy, node1 is not
  ASSERT_EQ(a.findings.size(), 1u);
  EXPECT_EQ(a.findings[0].check, "pairs.node_bandwidth");
  EXPECT_EQ(a.status, Status::kFail);
}

TEST(Contention, AWhollyBusyRunIsUnreliableNotFailed) {
  auto m = makeMatrix(4, 1.0, {1}, {}, 0.3);
  PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{});
  attributeContention(a, m.rows, loads(4, {0, 1, 2, 3}));
  EXPECT_EQ(a.status, Status::kWarn);
  for (const PairRow& r : m.rows) EXPECT_NE(r.status, Status::kFail) << r.reason;
  ASSERT_EQ(a.findings.size(), 2u);
  EXPECT_EQ(a.findings[0].check, "pairs.cpu_contention");
  EXPECT_EQ(a.findings[0].status, Status::kWarn);
  EXPECT_TRUE(a.findings[1].hosts.empty());
  EXPECT_THAT(a.findings[1].message, HasSubstr("4 of 4 nodes had their CPUs busy"));
  EXPECT_THAT(a.findings[1].message, HasSubstr("unreliable"));
}

// Run 19 of 20 on 8 simulated nodes: node5 shaped to 200 Mbit/s, every node busy, node4's small messages slow.
// node4's pair with node5 is node5's doing; the rest of node4's slowness is contention.
TEST(Contention, APairWithTheSlowNodeDoesNotKeepAnotherNodesNetworkVerdict) {
  auto m = makeMatrix(8, 1.0, {5}, {}, 0.025);
  for (PairRow& r : m.rows)
    if ((r.host_a == "node4" || r.host_b == "node4") && r.host_a != "node5" && r.host_b != "node5") r.lat_us = 1900;
  PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{});
  std::set<std::string> named;  // node4's own finding may say bandwidth: its pair with node5 is among its failures
  for (const Finding& f : a.findings) named.insert(f.hosts.at(0));
  ASSERT_EQ(named, (std::set<std::string>{"node4", "node5"}));
  attributeContention(a, m.rows, loads(8, {0, 1, 2, 3, 4, 5, 6, 7}));
  std::set<std::string> after;
  for (const Finding& f : a.findings)
    if (!f.hosts.empty()) after.insert(f.check + " " + f.hosts.at(0));
  EXPECT_EQ(after, (std::set<std::string>{"pairs.node_bandwidth node5", "pairs.cpu_contention node4"}));
  EXPECT_EQ(a.status, Status::kFail);  // node5's network verdict stands
}

TEST(Contention, NoSamplesChangeNothing) {
  auto m = makeMatrix(4, 1.0, {1}, {}, 0.3);
  PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{});
  const std::string before = a.findings.at(0).message;
  attributeContention(a, m.rows, {});
  EXPECT_EQ(a.findings.at(0).message, before);
  EXPECT_EQ(a.status, Status::kFail);
}

}  // namespace
}  // namespace pf::check
