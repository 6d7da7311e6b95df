// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pair_driver.hpp"

#include <algorithm>

#include "pair_protocol.hpp"
#include "pf/timer.hpp"
#include "tournament.hpp"

namespace pf::check {

PairRun runPairs(PairEngine& engine, Bootstrap& boot, const std::vector<std::string>& hostOfRank,
                 const PairOptions& opts, const std::function<void(int, int)>& onRound) {
  NodeMap nodes = groupByHost(hostOfRank);
  const auto rounds = tournamentRounds(nodes.nodeCount());
  return runRounds(engine, boot, nodes, rounds, opts, onRound);
}

PairRun runRounds(PairEngine& engine, Bootstrap& boot, const NodeMap& nodes, const std::vector<Round>& rounds,
                  const PairOptions& opts, const std::function<void(int, int)>& onRound) {
  PairRun run;
  run.nodes = nodes;
  const NodeMap& m = run.nodes;
  const int me = boot.rank();
  const int myNode = m.nodeOfRank.at(static_cast<size_t>(me));
  const bool leader = m.leader[static_cast<size_t>(myNode)] == me;
  Timer total;
  Json mine = Json::array();
  for (size_t r = 0; r < rounds.size(); ++r) {
    // Every rank starts a round together, so one round's pairs never overlap the next round's. Ranks wait
    // sleeping: a spinning waiter would take a core from the pair being measured (Bootstrap::idleBarrier).
    boot.idleBarrier();
    Timer roundClock;
    const int partner = partnerIn(rounds[r], myNode);
    // With several rails the pair measures each in turn, NIC i against NIC i, within the same round.
    for (int rail = 0; leader && partner >= 0 && rail < std::max(1, engine.railCount()); ++rail) {
      const bool initiator = myNode < partner;
      const int peerRank = m.leader[static_cast<size_t>(partner)];
      if (engine.railCount() > 0) engine.selectRail(rail);
      Timer pairClock;
      PairSample s = measurePair(engine, peerRank, initiator, opts);
      if (initiator) {
        PairRow row;
        row.round = static_cast<int>(r);
        row.node_a = myNode;
        row.node_b = partner;
        row.host_a = m.hosts[static_cast<size_t>(myNode)];
        row.host_b = m.hosts[static_cast<size_t>(partner)];
        row.rank_a = me;
        row.rank_b = peerRank;
        row.engine = engine.key();
        row.size_bytes = opts.bwBytes;
        row.lat_size_bytes = opts.latBytes;
        row.bw_a_to_b_gbps = s.bwOutGbps;
        row.bw_b_to_a_gbps = s.bwInGbps;
        row.lat_us = s.latUs;
        row.seconds = pairClock.seconds();
        if (engine.railCount() > 0) {
          row.rail = rail;
          row.nic_a = engine.railNic(me, rail);
          row.nic_b = engine.railNic(peerRank, rail);
        }
        mine.push_back(toJson(row));
      }
    }
    boot.idleBarrier();
    run.roundSeconds.push_back(roundClock.seconds());
    if (onRound && me == 0) onRound(static_cast<int>(r) + 1, static_cast<int>(rounds.size()));
  }
  // One gather at the end: rows are small, and no rank has to wait on rank 0 between rounds.
  for (const std::string& part : boot.allGather(mine.dump()))
    for (const Json& j : Json::parse(part)) run.rows.push_back(pairRowFromJson(j));
  std::sort(run.rows.begin(), run.rows.end(), [](const PairRow& x, const PairRow& y) {
    return x.round != y.round ? x.round < y.round : x.node_a != y.node_a ? x.node_a < y.node_a : x.rail < y.rail;
  });
  run.seconds = total.seconds();
  return run;
}

}  // namespace pf::check
