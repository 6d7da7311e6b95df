// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The process table: one dense index per process, whatever the order in which thousands of processes'
// lines interleave, and the INFO extractor's memory of each process's last "NET/IB : Using" text (its text ids).
#include "process_table.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "test_util.hpp"
#include "text_ids.hpp"

namespace pf::doctor {
namespace {

NormView prefixed(std::string_view host, long pid) {
  NormView v;
  v.host = host;
  v.pid = pid;
  return v;
}

// 300 hosts (short, past the slot's inline 19 bytes, and one that is a prefix of another) with 7 pids each,
// pids past 32 bits and negative among them, seen in random order many times: each pair keeps the index it
// got at first sight, indices are 0, 1, 2... in that order, and the entry is named "host:pid".
TEST(DoctorProcessTable, OneDenseIndexPerHostAndPid) {
  std::vector<std::string> hosts;
  for (int h = 0; h < 300; ++h)
    hosts.push_back(h % 3 == 0   ? "node" + std::to_string(h)
                    : h % 3 == 1 ? "gpu-cluster-rack-" + std::to_string(h) + ".example.internal"
                                 : "node" + std::to_string(h - 2) + "x");
  const std::vector<long> pids = {1, 2, 12345, 4194304, (1L << 32) + 1, 1L << 40, -7};
  std::mt19937 rng(11);
  ProcessTable t;
  std::map<std::pair<std::string, long>, std::uint32_t> seen;
  const std::string file = "log";
  for (int round = 0; round < 20000; ++round) {
    const std::string& host = hosts[rng() % hosts.size()];
    const long pid = pids[rng() % pids.size()];
    const std::uint32_t index = t.indexOf(prefixed(host, pid), file);
    auto [it, first] = seen.try_emplace({host, pid}, index);
    if (first) {
      ASSERT_EQ(index, seen.size() - 1) << host << ":" << pid;
    } else {
      ASSERT_EQ(index, it->second) << host << ":" << pid;
    }
    ASSERT_EQ(t.at(index).host, host);
  }
  EXPECT_EQ(t.size(), seen.size());
  EXPECT_EQ(t.all().size(), seen.size());
  for (const auto& [key, index] : seen) EXPECT_EQ(t.all().count(key.first + ":" + std::to_string(key.second)), 1u);
}

// Lines without a host: a launcher's rank names the process; a bare line belongs to the last process named.
TEST(DoctorProcessTable, LinesWithoutAHostGoToTheRankOrTheLastNamed) {
  ProcessTable t;
  const std::string file = "job.log";
  NormView bare;
  EXPECT_EQ(t.all().count("job.log"), 0u);
  const std::uint32_t f = t.indexOf(bare, file);  // nothing named yet: the file
  EXPECT_EQ(t.all().begin()->first, "job.log");
  NormView ranked;
  ranked.launcherRank = 3;
  const std::uint32_t r3 = t.indexOf(ranked, file);
  EXPECT_NE(r3, f);
  EXPECT_EQ(t.indexOf(bare, file), r3);
  const std::uint32_t n = t.indexOf(prefixed("n1", 9), file);
  EXPECT_EQ(t.indexOf(bare, file), n);
  EXPECT_EQ(t.indexOf(prefixed("n1", 9), file), n);
}

std::string ibLine(const std::string& host, int pid, const std::string& hca) {
  return host + ":" + std::to_string(pid) + ":1 [0] NCCL INFO NET/IB : Using [0]" + hca +
         ":1/IB ; OOB ib0:10.0.0.1<0>\n";
}

// The extractor skips a "NET/IB : Using" text its process printed last time, by the text's id: a process that
// changes its text, and changes it back, ends with the last one; processes that share a text keep their own.
TEST(DoctorProcessTable, RepeatedIbTextsAreSkippedAndChangesAreNot) {
  const Analysis a = test::analyzeText(
      ibLine("n1", 1, "mlx5_0") + ibLine("n2", 2, "mlx5_0") + ibLine("n1", 1, "mlx5_4") + ibLine("n1", 1, "mlx5_4") +
      ibLine("n2", 2, "mlx5_0") + ibLine("n1", 1, "mlx5_0") + ibLine("n2", 2, "mlx5_7"));
  EXPECT_EQ(a.info.processes().at("n1:1").hcas, std::vector<std::string>{"mlx5_0:1/IB"});
  EXPECT_EQ(a.info.processes().at("n2:2").hcas, std::vector<std::string>{"mlx5_7:1/IB"});
}

std::string bootLine(const std::string& host, int pid, const std::string& ifs) {
  return host + ":" + std::to_string(pid) + ":1 [0] NCCL INFO Bootstrap : Using " + ifs + "\n";
}

// A process's interface and HCA lists are those of its last text, parsed once per text and given to the process
// when the log ends: one that goes back to a text another process parsed first gets that text's lists, and a
// virtual interface counts on every line that names it, repeats included.
TEST(DoctorProcessTable, ListsAreThoseOfTheLastTextWhicheverProcessParsedIt) {
  const Analysis a =
      test::analyzeText(bootLine("n1", 1, "eth0:10.0.0.1<0>") + bootLine("n2", 2, "veth12:10.9.0.2<0>") +
                        bootLine("n1", 1, "veth12:10.9.0.2<0>") + bootLine("n1", 1, "veth12:10.9.0.2<0>") +
                        bootLine("n2", 2, "eth0:10.0.0.1<0>") + ibLine("n1", 1, "mlx5_0") + ibLine("n2", 2, "mlx5_2") +
                        ibLine("n1", 1, "mlx5_2"));
  EXPECT_EQ(a.info.processes().at("n1:1").bootstrapIfs, std::vector<std::string>{"veth12"});
  EXPECT_EQ(a.info.processes().at("n2:2").bootstrapIfs, std::vector<std::string>{"eth0"});
  EXPECT_EQ(a.info.processes().at("n1:1").hcas, std::vector<std::string>{"mlx5_2:1/IB"});
  EXPECT_EQ(a.info.processes().at("n2:2").hcas, std::vector<std::string>{"mlx5_2:1/IB"});
  EXPECT_EQ(a.info.processes().at("n1:1").oobIf, "ib0");
  const auto& facts = a.info.facts();
  ASSERT_TRUE(facts.count("virtual_interface_selected"));
  EXPECT_EQ(facts.at("virtual_interface_selected").size(), 3u);  // the three veth12 lines
}

// Past the cap on distinct texts (4,096) a text gets no id and is compared in full: still right.
TEST(DoctorProcessTable, IbTextsPastTheCapAreComparedInFull) {
  std::string log;
  for (int i = 0; i < 4200; ++i) log += ibLine("n1", 1, "mlx5_" + std::to_string(i));
  log += ibLine("n1", 1, "mlx5_4199") + ibLine("n2", 2, "mlx5_4199") + ibLine("n1", 1, "mlx5_3");
  const Analysis a = test::analyzeText(log);
  EXPECT_EQ(a.info.processes().at("n1:1").hcas, std::vector<std::string>{"mlx5_3:1/IB"});
  EXPECT_EQ(a.info.processes().at("n2:2").hcas, std::vector<std::string>{"mlx5_4199:1/IB"});
}

// Init lines: the words after "rank", "nranks" and "commId", as whole words, the last of each.
TEST(DoctorProcessTable, InitLinesReadRankAndNranksAsWholeWords) {
  const Analysis a = test::analyzeText(
      "n1:1:1 [0] NCCL INFO comm 0x1 rank 3 nranks 8 cudaDev 0 commId 0xab - Init COMPLETE\n"
      "n1:2:1 [1] NCCL INFO comm 0x2 nranks 8 rank 4 commId 0xab - Init COMPLETE\n"         // order swapped
      "n1:3:1 [2] NCCL INFO comm 0x3 rank 9 rank 5 nranks 8 commId 0xab - Init COMPLETE\n"  // the last rank
      "n1:4:1 [3] NCCL INFO comm 0x4 ranks 6 nranks 8 commId 0xab - Init COMPLETE\n"        // no rank word
      "n1:5:1 [4] NCCL INFO comm 0x5 rank 7 nranks8 commId 0xcd - Init COMPLETE\n");        // no nranks word
  ASSERT_EQ(a.info.comms().size(), 1u);
  const auto& c = a.info.comms().at("0xab");
  EXPECT_EQ(c.nranks, 8);
  std::vector<int> ranks;
  for (int r = 0; r < c.rankSlots(); ++r)
    if (c.completed(r)) ranks.push_back(r);
  EXPECT_EQ(ranks, (std::vector<int>{3, 4, 5}));
}

// Ids in order of first sight, the same id for the same text whatever came between, and kNone for a new text
// past either cap while the texts that got ids keep them (3,000 texts against a 16-slot start would also show a
// table that does not hold more than it was sized for).
TEST(DoctorTextIds, IdsInOrderOfFirstSightUpToTheCaps) {
  TextIds ids(3000, 64);
  std::vector<std::string> texts;
  for (int i = 0; i < 3000; ++i) texts.push_back("[0]mlx5_" + std::to_string(i) + ":1/IB ; OOB ib0:10.1.1.1<0>");
  for (std::uint32_t i = 0; i < texts.size(); ++i) ASSERT_EQ(ids.idOf(texts[i]), i);
  std::mt19937 rng(7);
  for (int k = 0; k < 20000; ++k) {
    const auto i = static_cast<std::uint32_t>(rng() % texts.size());
    ASSERT_EQ(ids.idOf(texts[i]), i);
  }
  EXPECT_EQ(ids.idOf("one text too many"), TextIds::kNone);
  EXPECT_EQ(ids.size(), 3000u);
  EXPECT_EQ(ids.idOf(texts[0]), 0u);

  TextIds shortOnes(10, 8);
  EXPECT_EQ(shortOnes.idOf("12345678"), 0u);
  EXPECT_EQ(shortOnes.idOf("123456789"), TextIds::kNone) << "longer than the length cap";
  EXPECT_EQ(shortOnes.idOf(""), 1u);
  EXPECT_EQ(shortOnes.idOf("12345678"), 0u);
}

}  // namespace
}  // namespace pf::doctor
