// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Gathering probe results from in-process ranks, grouping identical nodes, and naming the odd one out.
#include "gather.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "consistency.hpp"
#include "pf/bootstrap.hpp"
#include "probe.hpp"
#include "reporter.hpp"

namespace pf::probes {
namespace {

/// Runs the net and nccl probes on this machine's tree on `n` thread ranks; rank `odd` gets `oddEnv`.
std::vector<RankResults> gatherFromRanks(int n, int odd, std::map<std::string, std::string> oddEnv) {
  auto boots = makeThreadBootstraps(n);
  std::vector<RankResults> atRoot;
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r)
    threads.emplace_back([&, r] {
      SystemView sys(PF_FIXTURES "/host-thismachine",
                     Environment(r == odd ? oddEnv : std::map<std::string, std::string>{}));
      auto local = runProbes(sys, {}, {"net", "nccl"});
      auto got = gatherResults(*boots[r], "node" + std::to_string(r), local);
      if (r == 0)
        atRoot = std::move(got);
      else
        EXPECT_TRUE(got.empty());
    });
  for (auto& t : threads) t.join();
  return atRoot;
}

TEST(ProbeGather, RankZeroHoldsEveryRankInOrder) {
  auto ranks = gatherFromRanks(4, -1, {});
  ASSERT_EQ(ranks.size(), 4u);
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(ranks[r].rank, r);
    ASSERT_EQ(ranks[r].results.size(), 2u);
    EXPECT_EQ(ranks[r].results[0].rank, r);
    EXPECT_EQ(ranks[r].results[0].key, "probe.nccl");
  }
  EXPECT_EQ(flatten(ranks).size(), 8u);
  EXPECT_EQ(groupIdentical(ranks).size(), 1u);
  EXPECT_TRUE(checkConsistency(ranks).empty());
}

TEST(ProbeGather, OddRankIsGroupedNamedAndExplained) {
  auto ranks = gatherFromRanks(4, 2, {{"NCCL_SOCKET_IFNAME", "bogus0"}});
  auto groups = groupIdentical(ranks);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0], (std::vector<size_t>{0, 1, 3}));
  EXPECT_EQ(groups[1], (std::vector<size_t>{2}));
  // What a person reads: the probe command's document through the table format.
  RunReport report;
  report.context.command = "probe";
  report.results = flatten(ranks);
  // In a real run each result's host is the rank's node; here the ranks pretend to be node0..node3.
  for (Result& r : report.results) r.host = ranks[static_cast<size_t>(r.rank)].host;
  report.context.extra["probe_groups"] = Json::array();
  for (const auto& g : groups) {
    Json members = Json::array();
    for (size_t i : g) members.push_back(ranks[i].rank);
    report.context.extra["probe_groups"].push_back(members);
  }
  std::string text = reports::renderDocument("table", report);
  EXPECT_NE(text.find("node0, node1, node3 (3 ranks), the majority"), std::string::npos) << text;
  EXPECT_NE(text.find("node2 (1 rank) differ"), std::string::npos) << text;
  EXPECT_NE(text.find("NCCL_SOCKET_IFNAME==eth0"), std::string::npos) << text;

  auto diffs = checkConsistency(ranks);
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_EQ(diffs[0].host, "node2");
  EXPECT_EQ(diffs[0].key, "consistency.env.nccl_socket_ifname");
  EXPECT_NE(diffs[0].message.find("NCCL_SOCKET_IFNAME is bogus0 here but (unset) on 3 of 4 ranks"), std::string::npos)
      << diffs[0].message;
  EXPECT_FALSE(diffs[0].remedy.empty());
}

TEST(ProbeGather, SameHostDuplicatesTravelOnceAndComeBackWithTheirRank) {
  auto boots = makeThreadBootstraps(4);
  std::vector<RankResults> atRoot;
  std::vector<std::thread> threads;
  for (int r = 0; r < 4; ++r)
    threads.emplace_back([&, r] {
      Result x;
      x.key = "probe.x";
      x.message = r == 3 ? "other" : "same";
      auto got = gatherResults(*boots[r], r < 2 ? "a" : "b", {x});
      if (r == 0) atRoot = std::move(got);
    });
  for (auto& t : threads) t.join();
  ASSERT_EQ(atRoot.size(), 4u);
  EXPECT_EQ(atRoot[1].results.at(0).rank, 1);
  EXPECT_EQ(atRoot[1].results.at(0).host, "a");
  EXPECT_EQ(atRoot[1].results.at(0).message, "same");
  EXPECT_EQ(atRoot[2].results.at(0).host, "b");
  EXPECT_EQ(atRoot[3].results.at(0).message, "other");
}

TEST(ProbeGather, PerNodeAddressesDoNotSplitGroups) {
  std::vector<RankResults> ranks(3);
  for (int i = 0; i < 3; ++i) {
    Result net;
    net.key = "probe.net";
    net.message = "NCCL sockets would use eth0 (10.0.0." + std::to_string(i + 1) + "/24)";
    ranks[i] = {i, "node" + std::to_string(i), {net}};
  }
  EXPECT_EQ(groupIdentical(ranks).size(), 1u);
  ranks[2].results[0].status = Status::kWarn;
  EXPECT_EQ(groupIdentical(ranks).size(), 2u);
}

TEST(ProbeGather, SameHostRanksAreLabelledWithTheirRank) {
  std::vector<RankResults> ranks(3);
  ranks[0].host = ranks[1].host = "a";
  ranks[2].host = "b";
  for (int i = 0; i < 3; ++i) ranks[i].rank = i;
  EXPECT_EQ(memberLabel(ranks, 1), "a (rank 1)");
  EXPECT_EQ(memberLabel(ranks, 2), "b");
}

TEST(ProbeConsistency, ActivePortsFromIbRows) {
  Result ib;
  ib.key = "probe.ib";
  ib.rows = Json::array({{{"device", "mlx5_0"}, {"port", 1}, {"state", "ACTIVE"}, {"rate_gbit", 400}},
                         {{"device", "mlx5_1"}, {"port", 1}, {"state", "4: ACTIVE"}, {"rate_gbit", 200}},
                         {{"device", "mlx5_2"}, {"port", 1}, {"state", "DOWN"}, {"rate_gbit", 400}},
                         {{"device", "mlx5_3"}, {"port", 1}, {"state", "ACTIVE"}}});
  EXPECT_EQ(activePortRatesGbit(ib), (std::vector<double>{400, 200}));
  auto facts = extractFacts({ib});
  ASSERT_EQ(facts.size(), 2u);
  EXPECT_EQ(facts[0].value, "3");  // active ports, with or without a rate
  EXPECT_EQ(facts[1].value, "200,400");
}

TEST(ProbeConsistency, VersionAndGpuDifferencesFailOthersWarn) {
  auto node = [](int rank, int nccl, int gpus, int mtu) {
    Result n, g, net;
    n.key = "probe.nccl";
    g.key = "probe.gpu";
    net.key = "probe.net";
    n.metrics["version_code"] = nccl;
    g.metrics["gpu_count"] = gpus;
    net.metrics["selected_mtu"] = mtu;
    return RankResults{rank, "n" + std::to_string(rank), {n, g, net}};
  };
  std::vector<RankResults> ranks = {node(0, 22105, 8, 9000), node(1, 22105, 8, 9000), node(2, 21805, 7, 9000),
                                    node(3, 22105, 8, 1500)};
  auto diffs = checkConsistency(ranks);
  ASSERT_EQ(diffs.size(), 3u);
  std::map<std::string, Result> byFact;
  for (const auto& d : diffs) byFact[d.params["fact"]] = d;
  EXPECT_EQ(byFact["nccl.version"].status, Status::kFail);
  EXPECT_EQ(byFact["nccl.version"].host, "n2");
  EXPECT_NE(byFact["nccl.version"].message.find("2.18.5 here but 2.21.5 on 3 of 4"), std::string::npos)
      << byFact["nccl.version"].message;
  EXPECT_EQ(byFact["gpu.count"].status, Status::kFail);
  EXPECT_EQ(byFact["net.mtu"].status, Status::kWarn);
  EXPECT_EQ(byFact["net.mtu"].host, "n3");
}

TEST(ProbeConsistency, ADifferentHugePageModeWarnsAndAnUnknownOneIsNotADifference) {
  auto node = [](int rank, Json mode) {
    Result h;
    h.key = "probe.host";
    h.params["transparent_hugepages"] = std::move(mode);
    return RankResults{rank, "n" + std::to_string(rank), {h}};
  };
  auto diffs = checkConsistency({node(0, "madvise"), node(1, "madvise"), node(2, "always"), node(3, Json())});
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_EQ(diffs[0].params["fact"], "host.transparent_hugepages");
  EXPECT_EQ(diffs[0].status, Status::kWarn);
  EXPECT_EQ(diffs[0].host, "n2");
}

}  // namespace
}  // namespace pf::probes
