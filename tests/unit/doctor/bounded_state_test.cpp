// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The doctor's state stays bounded on logs of many processes and many inits (issue 46): the process table
// lists the first ProcessTable::kMaxListed processes and counts the rest, a fact keeps the evidence of its first
// kMaxFactLines lines and counts the others (a diagnosis still counts each line once), and the Init progress of
// every communicator is kept.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "fact_names.hpp"
#include "process_table.hpp"
#include "test_util.hpp"

namespace pf::doctor {
namespace {

NormView hostPid(std::string_view host, long pid) {
  NormView v;
  v.host = host;
  v.pid = pid;
  return v;
}

// Past the cap a process gets the shared index, is counted once however often it prints, and owns the bare
// lines after its own; the listed ones keep their indexes.
TEST(DoctorBoundedState, ProcessesPastTheCapAreCountedNotListed) {
  ProcessTable t(2);
  const std::string file = "log";
  const std::uint32_t a = t.indexOf(hostPid("n1", 1), file), b = t.indexOf(hostPid("n1", 2), file);
  EXPECT_EQ(a, 0u);
  EXPECT_EQ(b, 1u);
  for (int round = 0; round < 3; ++round) {
    for (long pid = 3; pid < 10; ++pid) EXPECT_EQ(t.indexOf(hostPid("n2", pid), file), t.unlistedIndex());
    EXPECT_EQ(t.indexOf(hostPid("n1", 2), file), b);
  }
  EXPECT_EQ(t.indexOf(hostPid("n2", 5), file), t.unlistedIndex());
  EXPECT_EQ(t.indexOf(NormView{}, file), t.unlistedIndex());  // a bare line: the last process named
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t.all().size(), 2u);
  EXPECT_EQ(t.unlisted(), 7u);
  EXPECT_FALSE(t.unlistedUncounted());
  t.at(t.unlistedIndex()).network = "IB";  // the scratch entry: written, never listed
  EXPECT_EQ(t.all().count("n2:3"), 0u);
}

// Past the counting bound too, processes are neither listed nor counted, and the table says so.
TEST(DoctorBoundedState, ProcessesPastTheCountingBoundAreSaidToBeUncounted) {
  ProcessTable t(2, 4);
  for (long pid = 1; pid <= 6; ++pid) t.indexOf(hostPid("n1", pid), "log");
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t.unlisted(), 2u);
  EXPECT_TRUE(t.unlistedUncounted());
}

std::string startLine(int rank, long pid, const std::string& comm) {
  return "n" + std::to_string(rank / 8) + ":" + std::to_string(pid) + ":" + std::to_string(pid + 1) + " [" +
         std::to_string(rank % 8) + "] NCCL INFO comm 0x5500 rank " + std::to_string(rank) +
         " nranks 2 cudaDev 0 nvmlDev 0 busId 1000 commId " + comm + " - Init START\n";
}

// A log of more processes than the table lists: the report says how many were not listed, and the count of
// processes in doctor.info covers them all.
TEST(DoctorBoundedState, TheReportSaysHowManyProcessesWereNotListed) {
  std::string log;
  const int n = static_cast<int>(ProcessTable::kMaxListed) + 5;
  for (int p = 0; p < n; ++p) log += startLine(p % 2, 1000 + p, "0xabc");
  const Analysis a = test::analyzeText(log);
  EXPECT_EQ(a.info.processes().size(), ProcessTable::kMaxListed);
  EXPECT_EQ(a.info.processesNotListed(), 5u);
  const auto& flags = a.info.flags();
  auto it = std::find_if(flags.begin(), flags.end(), [](const Flag& f) { return f.id == "processes_not_listed"; });
  ASSERT_NE(it, flags.end());
  EXPECT_NE(it->message.find("5 more processes past the first 8192"), std::string::npos) << it->message;
  EXPECT_EQ(it->evidence.line, ProcessTable::kMaxListed + 1);
  EXPECT_EQ(a.info.toJson()["processes_not_listed"], 5);
}

std::string vethLine(int i) {
  const int pid = 100 + i % 8;
  return "n1:" + std::to_string(pid) + ":" + std::to_string(pid) + " [0] NCCL INFO Bootstrap : Using [0]veth" +
         std::to_string(i % 3) + ":10.0.0.1<0>\n";
}

// Every rank prints its interfaces at every init: the fact keeps the first lines' evidence, counts the rest, and
// the diagnosis that rests on it counts every line once (its own pattern matches the same lines).
TEST(DoctorBoundedState, FactLinesPastTheCapAreCountedOnce) {
  std::string log;
  const std::size_t n = InfoExtractor::kMaxFactLines + 40;
  for (std::size_t i = 0; i < n; ++i) log += vethLine(static_cast<int>(i));
  const Analysis a = test::analyzeText(log);
  EXPECT_EQ(a.info.facts().at(fact::kVirtualInterfaceSelected).size(), InfoExtractor::kMaxFactLines);
  EXPECT_EQ(a.info.factLinesNotKept().at(fact::kVirtualInterfaceSelected), 40u);
  auto d = std::find_if(a.diagnoses.begin(), a.diagnoses.end(), [](const Diagnosis& x) {
    return x.rule->id == "network-interface.virtual-interface-selected";
  });
  ASSERT_NE(d, a.diagnoses.end());
  EXPECT_EQ(d->hits, n);
}

// A job restarted again and again: the Init progress of every communicator is kept (within
// InfoExtractor::kMaxInitBytes, init_progress_test.cpp), none is dropped.
TEST(DoctorBoundedState, EveryCommunicatorIsKept) {
  std::string log;
  const std::size_t comms = 20;
  for (std::size_t c = 0; c < comms; ++c)
    for (int rank = 0; rank < 2; ++rank)
      log += startLine(rank, 1000 + 10 * static_cast<long>(c) + rank, "0xc" + std::to_string(c));
  const Analysis a = test::analyzeText(log);
  EXPECT_EQ(a.info.comms().size(), comms);
  EXPECT_EQ(a.info.communicatorsNotKept(), 0u);
  ASSERT_EQ(a.info.comms().count("0xc3"), 1u);
  EXPECT_EQ(a.info.comms().at("0xc3").ranksStarted, 2u);
}

}  // namespace
}  // namespace pf::doctor
