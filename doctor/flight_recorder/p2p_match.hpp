// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Point-to-point ops (send/recv) matched across the two ranks of each pair. Unlike a collective, a send has one
// partner, and p2p_seq_id does not line the two up: each rank counts its own p2p ops of a group, whatever their
// peer, so rank 1 that receives from rank 0 and sends to rank 2 numbers them 1 and 2 while rank 0's send is its
// 1. What does line them up is the order per pair: the k-th send from rank s to rank d is received by the k-th
// receive on rank d from rank s (NCCL and gloo deliver a pair's messages in order; PyTorch's fr_trace relies on
// the same rule). The peers come from the profiling name, "nccl:send 0->1" (source -> destination) and
// "nccl:recv 1<-0" (destination <- source), as ranks within the group; "?" is a receive from any source.
#pragma once

#include <string>
#include <vector>

#include "flight_recorder/analysis.hpp"

namespace pf::doctor::fr {

/// A send or receive as its profiling name describes it, with group ranks turned into global ranks.
struct P2pCall {
  bool send = false;
  int src = -1, dst = -1;  ///< global ranks; src -1 for a receive from any source
};

/// Parses `e`'s profiling name against the group's members (sorted global ranks; group rank i is members[i]).
/// False for an entry that is no send or receive, names no peers, or names a rank outside the group.
bool parseP2p(const Entry& e, const std::vector<int>& members, P2pCall& out);

/// The point-to-point finding of group `pg`: the first send its peer never received, receive its peer never
/// sent, or send and receive that disagree on sizes or data types. Its verdict has p2p set; completed-ok when
/// every pair's ops match. Pairs that cannot be matched (a dump not given, a ring buffer that dropped old
/// entries with nothing to realign on, receives from any source) are said in `notes`.
GroupFinding matchP2p(const std::string& pg, const std::string& desc, const std::vector<int>& members,
                      const std::vector<const Dump*>& dumps);

}  // namespace pf::doctor::fr
