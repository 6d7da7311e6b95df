// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Events placed on a node and a rank where their own lines do not say: kernel logs whose lines name no host (`dmesg`,
// `dmesg -T`) are the node's their path names among the job's hosts (a log whose path names none is on no host, said
// so); an NCCL line whose process printed no Init line (NCCL_DEBUG=WARN) takes the rank RAS lists for its process.
#include <gtest/gtest.h>

#include "artefacts/placement.hpp"
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
  std::string notGiven, placementNotes;
  for (const Json& n : p["not_given"]) notGiven += n.get<std::string>() + "\n";
  for (const Json& n : p["placement_notes"]) placementNotes += n.get<std::string>() + "\n";
  EXPECT_NE(notGiven.find("kernel logs of node2 (none of those given names it)"), std::string::npos) << notGiven;
  EXPECT_NE(placementNotes.find("dmesg.txt names no host on its lines (dmesg prints none): taken as node3's"),
            std::string::npos)
      << placementNotes;
}

// The same log at a path that names no host of the job: on no host, and said so; no host's kernel log is counted as
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
  std::string notGiven, placementNotes;
  for (const Json& n : p["not_given"]) notGiven += n.get<std::string>() + "\n";
  for (const Json& n : p["placement_notes"]) placementNotes += n.get<std::string>() + "\n";
  EXPECT_EQ(notGiven.find("kernel logs of"), std::string::npos) << notGiven;
  EXPECT_NE(placementNotes.find("its path names none of the job's: its events are on no host"), std::string::npos)
      << placementNotes;
}

// Rank 3's per-process NCCL log at NCCL_DEBUG=WARN (no Init line) and RAS's JSON, which lists the process in a
// tensor-parallel pair (rank 1 of 2) and in the job's communicator (rank 3 of 4): the larger communicator's rank.
TEST(RasProcessRank, AnNcclLineWithoutInitTakesTheRankRasListsInTheLargestCommunicator) {
  const std::string log =
      "[2026-04-22 10:42:37] node3:2817:2901 [1] transport/net_ib.cc:2358 NCCL WARN NET/IB: Got completion from "
      "peer 10.0.0.2<47372> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.3 "
      "remoteGids::ffff:10.0.0.2 hca mlx5_3\n";
  const std::string rank = R"(, "cuda_dev": 1, "status": {"async_error": 0}, "collective_counts": {"AllReduce": 9}})";
  const std::string ras =
      R"({"nccl_version": "2.28.7", "communicators": [{"hash": "0x22", "size": 2, "ranks": [{"rank": 1, "host": )"
      R"("node3", "pid": 2817)" +
      rank + R"(]}, {"hash": "0x5c", "size": 4, "ranks": [{"rank": 2, "host": "node3", "pid": 2816)" + rank +
      R"(, {"rank": 3, "host": "node3", "pid": 2817)" + rank + "]}]}";
  auto run = [&](bool withRas) {
    test::TempDir in;
    in.file("nccl-node3-2817.log", log);
    if (withRas) in.file("ras.json", ras);
    const InputFiles files = collectInputs({in.path()});
    ArtefactSession s;
    Analysis a = analyzeFiles(test::catalog(), files.files, kDefaultBlockSize, s.planner(), s.rankLookup());
    Result r = s.result(a, files.skipped);
    return std::make_pair(std::move(r), std::move(a.ranks));
  };
  const auto [with, ranks] = run(true);
  ASSERT_TRUE(with.params["first_failure"].is_object()) << with.params.dump(2);
  EXPECT_EQ(with.params["first_failure"]["rank"], 3) << with.params["first_failure"].dump();
  EXPECT_EQ(with.rank, 3);
  std::string notes;
  for (const Json& n : with.params["placement_notes"]) notes += n.get<std::string>() + "\n";
  EXPECT_NE(notes.find("the rank of node3:2817 (no Init line in the logs given) as RAS lists the process"),
            std::string::npos)
      << notes;
  // The ranks' own section counts rank 3's log as given, and names its error as rank 3's.
  EXPECT_EQ(ranks.firstFailure.rank, 3);
  EXPECT_TRUE(std::find(ranks.ranksWithoutLogs.begin(), ranks.ranksWithoutLogs.end(), 3) ==
              ranks.ranksWithoutLogs.end());
  // Without RAS nothing names the rank: none is guessed.
  const auto [without, ranksWithout] = run(false);
  EXPECT_EQ(ranksWithout.firstFailure.rank, -1);
  ASSERT_TRUE(without.params["first_failure"].is_object());
  EXPECT_TRUE(without.params["first_failure"]["rank"].is_null()) << without.params["first_failure"].dump();
}

// The same from ncclras's text report: its Communicators table gives each group's ranks per communicator, and a
// warning block names the lagging rank with its process. The process lags in a tensor-parallel pair (group 0, rank
// 1 of 2, listed last) and in the job's communicator (group 1, rank 3 of 4): the larger one's rank.
TEST(RasProcessRank, TheTextReportsRankComesFromItsGroupsCommunicatorSize) {
  test::TempDir d;
  d.file("nccl-node3-2817.log",
         "[2026-04-22 10:42:37] node3:2817:2901 [1] transport/net_ib.cc:2358 NCCL WARN NET/IB: Got completion from "
         "peer 10.0.0.2<47372> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.3 "
         "remoteGids::ffff:10.0.0.2 hca mlx5_3\n");
  d.file("ncclras.txt",
         "NCCL version 2.26.2 compiled with CUDA 12.4\n\n"
         "Communicators... (0.00s)\n=============\n\n"
         "Group     Comms     Nodes     Ranks     Ranks     Ranks    Status  Errors\n"
         "    #  in group  per comm  per node  per comm  in group\n"
         "    0         2         1         2         2         4   RUNNING  MISMATCH\n"
         "    1         1         2         2         4         4   RUNNING  MISMATCH\n\n"
         "Warnings\n========\n\n"
         "#1-0 (5c0a8e1f53a6e2a3) MISMATCH\n"
         "  Communicator ranks have different AllReduce operation counts\n"
         "  3 ranks have launched up to operation 1843\n"
         "  Rank 3 has launched up to operation 1842 -- GPU 1 managed by process 2817 on node node3\n\n"
         "#0-1 (00000000000000aa) MISMATCH\n"
         "  Communicator ranks have different AllReduce operation counts\n"
         "  1 ranks have launched up to operation 20\n"
         "  Rank 1 has launched up to operation 19 -- GPU 1 managed by process 2817 on node node3\n");
  const InputFiles files = collectInputs({d.path()});
  ArtefactSession s;
  Analysis a = analyzeFiles(test::catalog(), files.files, kDefaultBlockSize, s.planner(), s.rankLookup());
  EXPECT_EQ(a.ranks.firstFailure.rank, 3) << a.ranks.firstFailure.where();
  const Result r = s.result(a, files.skipped);
  EXPECT_EQ(r.params["first_failure"]["rank"], 3) << r.params["first_failure"].dump();
}

// node3's `dmesg -T` (placed by its path) holds an Xid naming pid 2817, which the job's output shows is rank 3 of 4
// (its Init line): the Xid is rank 3's GPU. A pid the kernel could not name ("pid='<unknown>'") names no rank.
TEST(XidProcessRank, AnXidsPidOnAPlacedNodeIsTheRankWhoseProcessItIs) {
  test::TempDir d;
  d.file("slurm-7.out",
         "node3:2817:2817 [1] NCCL INFO comm 0x5611a0d0 rank 3 nranks 4 cudaDev 1 nvmlDev 1 busId 3b000 commId 0x5c - "
         "Init COMPLETE\n"
         "node3:2816:2816 [0] NCCL INFO comm 0x5611a0d0 rank 2 nranks 4 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x5c - "
         "Init COMPLETE\n");
  d.file("node3/dmesg.txt",
         "[Wed Apr 22 10:42:31 2026] NVRM: Xid (PCI:0000:3b:00): 79, pid=2817, name=python, GPU has fallen off the "
         "bus.\n"
         "[Wed Apr 22 10:42:35 2026] NVRM: Xid (PCI:0000:1b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen "
         "off the bus.\n");
  const InputFiles files = collectInputs({d.path()});
  ArtefactSession s;
  const Result r = s.result(analyzeFiles(test::catalog(), files.files, kDefaultBlockSize, s.planner()), files.skipped);
  const Json& p = r.params;
  ASSERT_TRUE(p["first_failure"].is_object()) << p.dump(2);
  EXPECT_EQ(p["first_failure"]["host"], "node3");
  EXPECT_EQ(p["first_failure"]["rank"], 3) << p["first_failure"].dump();
  EXPECT_EQ(p["first_failure"]["gpu"], "0000:3b:00");
  for (const Json& e : p["timeline"])
    if (e["gpu"] == "0000:1b:00") {
      EXPECT_TRUE(e["rank"].is_null()) << e.dump();
    }
  std::string notes;
  for (const Json& n : p["placement_notes"]) notes += n.get<std::string>() + "\n";
  EXPECT_NE(notes.find("names pid 2817 on node3: rank 3's process"), std::string::npos) << notes;
}

}  // namespace
}  // namespace pf::doctor
