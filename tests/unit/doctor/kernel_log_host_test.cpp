// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Kernel logs whose lines name no host (`dmesg`, `dmesg -T`): the node is the one the file's path names among the
// job's hosts, so the first failure is still placed on it; a log whose path names none is said to be on no node.
#include <gtest/gtest.h>

#include "artefacts/path_host.hpp"
#include "artefacts/timeline.hpp"
#include "test_util.hpp"

namespace pf::doctor {
namespace {

TEST(KernelLogHost, ThePathsNearestPartThatNamesOneHostDecides) {
  const std::set<std::string> hosts = {"node1", "node3", "node3-ib", "gpu-a100-07"};
  EXPECT_EQ(hostNamedByPath("job/node3/dmesg.txt", hosts), "node3");
  EXPECT_EQ(hostNamedByPath("job/dmesg-node3.log", hosts), "node3");
  EXPECT_EQ(hostNamedByPath("node3.cluster.local_kern.log", hosts), "node3");
  EXPECT_EQ(hostNamedByPath("dmesg_gpu-a100-07.txt", hosts), "gpu-a100-07");
  // The file's name before its folders: node1's folder of gathered logs holds node3's.
  EXPECT_EQ(hostNamedByPath("/scratch/node1/gathered/dmesg-node3.txt", hosts), "node3");
  // The longer of two hosts one of which holds the other.
  EXPECT_EQ(hostNamedByPath("dmesg-node3-ib.txt", hosts), "node3-ib");
  // Not a whole word: node31 is not node3, "xnode1" not node1.
  EXPECT_EQ(hostNamedByPath("dmesg-node31.txt", hosts), "");
  EXPECT_EQ(hostNamedByPath("xnode1/dmesg.txt", hosts), "");
  // Two hosts in the nearest part that names any: whose it is, the path does not say.
  EXPECT_EQ(hostNamedByPath("dmesg-node1-node3.txt", hosts), "");
  EXPECT_EQ(hostNamedByPath("dmesg.txt", hosts), "");
  EXPECT_EQ(hostNamedByPath("", hosts), "");
  EXPECT_EQ(hostNamedByPath("node3/dmesg.txt", {}), "");
}

// node3's `dmesg -T` (no host on its lines) beside the job's Slurm output, which names node2 and node3: the cable
// error is placed on node3, node3's kernel log counts as given, node2's does not.
TEST(KernelLogHost, DmesgWithoutHostsIsPlacedOnTheNodeItsPathNames) {
  test::TempDir d;
  d.file("slurm-7.out",
         "node3:2817:2901 [1] NCCL INFO cudaDriverVersion 12040\n"
         "node2:1190:1201 [0] NCCL INFO cudaDriverVersion 12040\n"
         "srun: error: node3: task 3: Exited with exit code 1\n");
  d.file("node3/dmesg.txt",
         "[Wed Apr 22 10:42:36 2026] mlx5_core 0000:c1:00.0: mlx5_port_module_event:1146:(pid 0): Port module "
         "event[error]: module 0, Cable error, Bad or shorted cable/module\n");
  const InputFiles in = collectInputs({d.path()});
  ArtefactSession s;
  const Result r = s.result(analyzeFiles(test::catalog(), in.files, kDefaultBlockSize, s.planner()), in.skipped);
  const Json& p = r.params;
  ASSERT_TRUE(p["first_failure"].is_object()) << p.dump(2);
  EXPECT_EQ(p["first_failure"]["kind"], "rule:ib-verbs.nic-link-lost-kernel");
  EXPECT_EQ(p["first_failure"]["host"], "node3");
  EXPECT_EQ(r.host, "node3");
  std::string notGiven, hostNotes;
  for (const Json& n : p["not_given"]) notGiven += n.get<std::string>() + "\n";
  for (const Json& n : p["host_notes"]) hostNotes += n.get<std::string>() + "\n";
  EXPECT_NE(notGiven.find("kernel logs of node2 (none of those given names it)"), std::string::npos) << notGiven;
  EXPECT_NE(hostNotes.find("dmesg.txt names no host on its lines (dmesg prints none): taken as node3's"),
            std::string::npos)
      << hostNotes;
}

// The same log at a path that names no host of the job: on no node, and said so; no host's kernel log is counted as
// missing on the strength of a log that may be that host's.
TEST(KernelLogHost, ALogWhosePathNamesNoHostIsOnNoNode) {
  test::TempDir d;
  d.file("slurm-7.out", "node3:2817:2901 [1] NCCL INFO cudaDriverVersion 12040\n");
  d.file("kernel/dmesg.txt", "[Wed Apr 22 10:42:36 2026] mlx5_core 0000:c1:00.0 ibp193s0: Link down\n");
  const InputFiles in = collectInputs({d.path()});
  ArtefactSession s;
  const Result r = s.result(analyzeFiles(test::catalog(), in.files, kDefaultBlockSize, s.planner()), in.skipped);
  const Json& p = r.params;
  ASSERT_TRUE(p["first_failure"].is_object()) << p.dump(2);
  EXPECT_TRUE(p["first_failure"]["host"].is_null()) << p["first_failure"].dump();
  std::string notGiven, hostNotes;
  for (const Json& n : p["not_given"]) notGiven += n.get<std::string>() + "\n";
  for (const Json& n : p["host_notes"]) hostNotes += n.get<std::string>() + "\n";
  EXPECT_EQ(notGiven.find("kernel logs of"), std::string::npos) << notGiven;
  EXPECT_NE(hostNotes.find("its path names none of the job's: its events are on no node"), std::string::npos)
      << hostNotes;
}

}  // namespace
}  // namespace pf::doctor
