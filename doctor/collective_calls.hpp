// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NCCL's per-call INFO lines (NCCL_DEBUG_SUBSYS=COLL, which people turn on to chase a hang):
//
//   host:pid:tid [1] NCCL INFO Broadcast: opCount 0 sendbuff 0x7f.. recvbuff 0x7f.. count 53 datatype 4 op 0
//                                         root 0 comm 0x7f.. [nranks=8] stream 0x55..
//
// Every rank of a communicator must make the same collective calls in the same order with the same count,
// datatype, reduction and root; NCCL does not check it, so ranks that disagree hang (or corrupt data) without
// an error. The fact `collective_args_differ` is derived when two ranks log the same collective at the same
// opCount in a communicator of the same size with different arguments. Point-to-point calls (Send, Recv) are
// skipped: their counts differ legitimately. A process that logs two communicators of one size makes "same
// size" ambiguous, and the fact is then not derived. Memory: at most kMaxCalls calls are remembered.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "evidence.hpp"
#include "line_normalizer.hpp"

namespace pf::doctor {

class CollectiveCalls {
 public:
  /// A line holding " opCount ".
  void feed(const NormView& line, LineEvidence& ev);
  void finish(Facts& facts, std::vector<Flag>& flags) const;

 private:
  static constexpr std::size_t kMaxCalls = 4096;
  struct Call {
    std::string args;  // "count 53 datatype 4 op 0 root 0"
    Evidence evidence;
  };
  std::map<std::tuple<std::string, std::string, int>, Call> calls_;  // (collective, opCount, nranks)
  std::map<std::pair<std::string, int>, std::string> commOf_;        // (process, nranks) -> comm pointer
  std::set<int> ambiguous_;                                          // nranks with two comms in one process
  bool differ_ = false;
  int differNranks_ = 0;
  Evidence first_, second_;
  std::string firstArgs_, secondArgs_;
};

}  // namespace pf::doctor
