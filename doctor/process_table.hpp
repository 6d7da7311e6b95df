// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The processes of a job as the INFO extractor learns them, named "host:pid" (from NCCL's line prefix),
// "rank N" (a launcher's tag) or, for lines with neither, after the last process named (nccl-tests prints its
// "NCCL version" line bare) or the input file. Most INFO lines of a large job need their process, and lines of
// thousands of processes interleave, so the "host:pid" ones are also kept in open-addressing tables small enough
// to stay in the caches: a node-based map's look-up was a fifth of the whole run.
//
// The table is bounded: the first kMaxListed processes are kept whole; later ones (a job restarted many times,
// an elastic job) are only counted, up to kMaxCounted distinct host:pid, and share one scratch entry, so that
// memory stops growing with the number of processes. The facts read from their lines still count; the report
// says how many processes were not listed (InfoExtractor).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "evidence.hpp"
#include "line_normalizer.hpp"

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
  static constexpr std::size_t kMaxListed = 8192;
  static constexpr std::size_t kMaxCounted = std::size_t{1} << 20;
  explicit ProcessTable(std::size_t maxListed = kMaxListed, std::size_t maxCounted = kMaxCounted)
      : maxListed_(maxListed), maxCounted_(maxCounted) {}

  /// The process that printed `l` as a dense index, 0, 1, 2... in order of first sight (created then); `file`
  /// names it when nothing else does. Finding a process does not touch its ProcessInfo: on a large job's log
  /// that is a cache miss per line, which callers that only need to know the process exists avoid.
  std::uint32_t indexOf(const NormView& l, const std::string& file) { return indexOf(l, file, hashHost(l.host)); }
  /// The same with `hostHash` = hashHost(l.host), computed ahead (InfoExtractor::classify, on another thread).
  std::uint32_t indexOf(const NormView& l, const std::string& file, std::uint64_t hostHash);
  static std::uint64_t hashHost(std::string_view host);
  /// Asks the CPU for the table slot of (host, pid) ahead of its look-up: on a log of many thousands of
  /// interleaved processes that slot is a cache miss per line, which fetching it a few lines early hides.
  void prefetch(std::uint64_t hostHash, long pid) const {
    const auto upid = static_cast<unsigned long>(pid);
    const std::size_t i = slotHash(hostHash, static_cast<std::uint32_t>(upid), static_cast<std::uint32_t>(upid >> 32));
    __builtin_prefetch(&procSlots_[i & (procSlots_.size() - 1)]);
  }
  /// Where (host, pid) goes in the table: by the host's hash, not its id, so that a line's slot is known before
  /// its host is looked up (prefetch).
  static std::size_t slotHash(std::uint64_t hostHash, std::uint32_t pidLow, std::uint32_t pidHigh) {
    const std::uint64_t k = hostHash ^ pidLow ^ (std::uint64_t{pidHigh} << 7);
    return static_cast<std::size_t>((k * 0x9E3779B97F4A7C15ull) >> 20);
  }
  /// A process past the cap has index unlistedIndex() and shares one scratch entry with all the others.
  ProcessInfo& at(std::uint32_t index) { return index < entries_.size() ? entries_[index]->second : scratch_; }
  std::uint32_t unlistedIndex() const { return static_cast<std::uint32_t>(maxListed_); }
  /// Distinct host:pid processes seen past the cap (counted up to maxCounted in all).
  std::size_t unlisted() const { return unlisted_; }
  /// Whether processes past the cap went uncounted (named ones, or past maxCounted): unlisted() is a lower bound.
  bool unlistedUncounted() const { return uncounted_; }
  /// indexOf, then at.
  ProcessInfo& of(const NormView& l, const std::string& file) { return at(indexOf(l, file)); }
  std::size_t size() const { return entries_.size(); }
  /// The index of the listed process `host`:`pid`, without creating it; nullopt when it was never seen or not listed.
  std::optional<std::uint32_t> find(std::string_view host, long pid) const;
  /// Every process by name. std::map nodes never move, so the table's pointers into it stay valid.
  const std::map<std::string, ProcessInfo>& all() const { return procs_; }

 private:
  using Entry = std::pair<const std::string, ProcessInfo>;
  std::uint32_t byHostPid(std::string_view host, long pid, std::uint32_t hostId);
  std::uint32_t byName(const std::string& name);
  std::uint32_t listedOrUnlisted(const std::string& name);
  std::uint32_t hostId(std::string_view host, std::uint64_t hash);

  // Two small open-addressing tables in front of the map, so that a look-up stays in the caches on a log of
  // thousands of interleaved processes (the map's nodes did not): hosts by name, few and compared in full, then
  // processes by (host id, pid) in 16-byte slots. (One table of 64-byte slots keyed by host and pid, the host
  // inline, was 2% slower on a 4,096-rank log.)
  static constexpr std::size_t kInlineHost = 19;
  struct HostSlot {
    std::uint64_t hash = 0;
    std::uint32_t id = UINT32_MAX;  // UINT32_MAX: an empty slot
    std::uint8_t len = 0;           // 0: longer than kInlineHost, compared with hosts_[id]
    char host[kInlineHost];
  };
  struct ProcSlot {
    std::uint32_t host = UINT32_MAX;  // UINT32_MAX: an empty slot
    std::uint32_t pidLow = 0, pidHigh = 0;
    std::uint32_t index = 0;
  };

  std::size_t maxListed_, maxCounted_;
  std::size_t unlisted_ = 0;
  bool uncounted_ = false;
  ProcessInfo scratch_;  // the state of every process past the cap, overwritten by each
  std::map<std::string, ProcessInfo> procs_;
  std::vector<Entry*> entries_;                                  // by index
  std::unordered_map<const Entry*, std::uint32_t> index_;        // the reverse, for processes found by name
  std::vector<std::string> hosts_;                               // by host id
  std::vector<std::uint64_t> hostHashes_;                        // the same: hashHost of each
  std::vector<HostSlot> hostSlots_ = std::vector<HostSlot>(64);  // a power of two, at most half full
  std::vector<ProcSlot> procSlots_ = std::vector<ProcSlot>(64);  // the same
  std::size_t procsUsed_ = 0;
  std::string nameBuf_;  // reused for the name of a new process
  // The previous prefixed line's process: consecutive lines usually come from the same one.
  std::uint32_t last_ = UINT32_MAX, lastHost_ = 0;  // its index and host id
  long lastPid_ = -1;
  std::uint32_t lastNamed_ = UINT32_MAX;  // the last process named: owner of bare lines
};

}  // namespace pf::doctor
