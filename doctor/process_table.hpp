// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The processes of a job as the INFO extractor learns them, named "host:pid" (from NCCL's line prefix),
// "rank N" (a launcher's tag) or, for lines with neither, after the last process named (nccl-tests prints its
// "NCCL version" line bare) or the input file. Most INFO lines of a large job need their process, and lines of
// thousands of processes interleave, so the "host:pid" ones are also kept in an open-addressing table keyed by
// a hash of host and pid, one cache line per process: a node-based map's look-up was a fifth of the whole run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "evidence.hpp"
#include "line_normalizer.hpp"
#include "line_search.hpp"

namespace pf::doctor {

struct ProcessInfo {
  std::string host;
  std::string ncclVersion, cudaVersion;  ///< "2.19.3", "12.3"
  int cudaDriver = -1;                   ///< cudaDriverVersion, e.g. 12000
  std::string netPlugin;                 ///< "internal" or the plugin named
  std::string network;                   ///< "IB", "Socket", "AWS Libfabric", "IBext"...
  std::vector<std::string> bootstrapIfs, socketIfs, hcas;
  std::string oobIf;
  bool ibNoDevice = false, ibOpenFailed = false, relaxedOrdering = false;
  std::set<std::string> gdrDisabledHcas;
  bool gdrUsed = false;
  Evidence networkEvidence;  ///< the "Using network" line
  std::string ibUsingText;   ///< the last "NET/IB : Using" text parsed (repeats at every init are skipped)
};

class ProcessTable {
 public:
  /// The process that printed `l` (created on first sight); `file` names it when nothing else does.
  ProcessInfo& of(const NormView& l, const std::string& file);
  /// Every process by name. std::map nodes never move, so the table's pointers into it stay valid.
  const std::map<std::string, ProcessInfo>& all() const { return procs_; }

 private:
  using Entry = std::pair<const std::string, ProcessInfo>;
  Entry* byHostPid(std::string_view host, long pid);

  // Hosts of up to kInlineHost bytes are compared in the slot, without a visit to the (cold) map node.
  static constexpr std::size_t kInlineHost = 39;
  struct alignas(64) Slot {
    std::size_t hash = 0;
    long pid = 0;
    Entry* entry = nullptr;    // null: an empty slot
    std::uint8_t hostLen = 0;  // 0: the host is longer than kInlineHost (compare the entry's)
    char host[kInlineHost];
    bool sameHost(std::string_view h) const {
      return hostLen ? h.size() == hostLen && sameBytes(host, h.data(), hostLen) : entry->second.host == h;
    }
  };

  std::map<std::string, ProcessInfo> procs_;
  std::vector<Slot> slots_ = std::vector<Slot>(64);  // a power of two, at most half full
  std::size_t used_ = 0;
  std::string nameBuf_;  // reused for the name of a new process
  // The previous prefixed line's process: consecutive lines usually come from the same one.
  ProcessInfo* last_ = nullptr;
  std::string lastHost_;
  long lastPid_ = -1;
  const std::string* lastNamed_ = nullptr;  // the last process named (a key of procs_): owner of bare lines
};

}  // namespace pf::doctor
