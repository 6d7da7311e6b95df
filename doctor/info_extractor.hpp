// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What NCCL actually did, read from its INFO lines: versions per process, the net plugin and network chosen,
// bootstrap/socket interfaces, HCAs, GPU Direct RDMA, the transports between peers, channels, algorithms and
// the communicator init progress. From these it derives facts that rules can use (see docs/doctor-rules.md):
//   nccl_versions_differ        ranks report different "NCCL version" strings
//   virtual_interface_selected  a bootstrap/socket interface is lo, docker*, veth*, virbr*, cni*, flannel*
//   socket_fallback_with_rdma   "Using network Socket" on a host whose RDMA device NCCL saw but could not use
//   gdr_disabled                "GPU Direct RDMA Disabled" for some HCA
//   nccl_tests_*                from nccl-tests' own output (nccl_tests_output.hpp)
//   collective_args_differ      ranks logged one collective call with different arguments (collective_calls.hpp)
//   p2p_*                       from the CUDA sample p2pBandwidthLatencyTest (p2p_sample_output.hpp)
//   single_node_p2p             peers connected through P2P and never through a network transport, on one host:
//                               a single-node job whose GPUs talk directly (where ACS and the IOMMU bite)
//   ib_link_layer               "NET/IB : Using" lists HCA ports of the InfiniBand link layer ("mlx5_0:1/IB")
//                               and none of RoCE's anywhere in the log
//   network_transport_seen      a connection "via NET/..." (or CollNet) or a "NET/Socket : Using" list: NCCL's
//                               network transport in this log (a fact, not a literal: every rank prints such lines
//                               at every init, and a literal's hits on them cost the scan)
// Formats handled are those of nccl_info_startup_examples.txt (NCCL 2.4 "Ring" lines through 2.19+).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "collective_calls.hpp"
#include "evidence.hpp"
#include "line_normalizer.hpp"
#include "nccl_tests_output.hpp"
#include "p2p_sample_output.hpp"
#include "pf/result.hpp"
#include "process_table.hpp"
#include "text_ids.hpp"

namespace pf::doctor {

/// What InfoExtractor::feed makes of a line from its text alone: which of its branches reads the line, and the part
/// of the text that branch reads. Finding that is most of the cost of a line, and it needs none of the extractor's
/// state, so the doctor's workers classify the lines of later blocks while the extractor applies earlier ones
/// (block_pipeline.hpp).
struct InfoLine {
  enum Kind : std::uint8_t {
    kUnread,     ///< not classified yet
    kCall,       ///< a per-call " opCount " line (collective_calls.hpp)
    kNone,       ///< nothing past the bare-line and WARN checks (an empty version, a level that is not NCCL's)
    kVersion,    ///< "NCCL version X": part = X; flag: the line is an error that names the version
    kTransport,  ///< "... -> ... via T": part = T's name; flag: GDRDMA
    kProcess,    ///< an INFO/WARN tap line no branch reads further: it only names its process
    kDriver,     ///< part: after "cudaDriverVersion"
    kPluginInternal,
    kPluginLoaded,  ///< part: after "Loaded net plugin "
    kNetwork,       ///< part: after "Using network "
    kBootstrap,     ///< part: after "Using"
    kSocket,        ///< the same
    kIbUsing,       ///< part: after "NET/IB : Using"
    kIbNoDevice,
    kIbOpenFailed,
    kGdrDisabled,  ///< part: after "for HCA"
    kGdrEnabled,
    kInitStart,
    kInitComplete,
    kRing,  ///< value: the channel count after the first '/', or -1 without one
    kTree,
    kNvls,
    kCollNet,
  };
  Kind kind = kUnread;
  bool flag = false;
  bool libraryVersion = false;    ///< a bare line holds "nccl-library=" (nccl-tests' first line)
  std::uint32_t at = 0, len = 0;  ///< the part: text.substr(at, len)
  int value = -1;
  std::uint64_t hash = 0;      ///< TextIds::hashOf(part), for the kinds told by text id
  std::uint64_t hostHash = 0;  ///< ProcessTable::hashHost of the line's host
};

class InfoExtractor {
 public:
  /// Literals whose lines the extractor needs (fed to the Matcher as taps).
  static const std::vector<std::string>& taps();

  /// One line that holds a tap literal; `ev` is asked for the line's Evidence only when it is kept.
  /// `tapMask`: bit i clear when taps()[i] is certainly not in the line's text (ScanResult::tapMasks).
  void feed(const NormView& line, LineEvidence& ev, std::uint32_t tapMask = ~std::uint32_t{0});
  void feed(const NormLine& line, const Evidence& ev);
  /// feed() in two halves: classify() reads the line's text only (any thread); apply() does the rest, in line order.
  static InfoLine classify(const NormView& line, std::uint32_t tapMask = ~std::uint32_t{0});
  void apply(const NormView& line, const InfoLine& c, LineEvidence& ev);
  /// A hint, a few lines ahead of apply(): fetch what that line's process look-up will read.
  void prefetch(const NormView& line, const InfoLine& c) const {
    if (c.hostHash != 0) procs_.prefetch(c.hostHash, line.pid);
  }
  /// Whether the line after the last one fed is wanted although it holds no tap (a CUDA sample's matrix rows, the
  /// entries of an interface list broken one per line); the scanner then passes it, raw, to nextLine().
  bool wantsNextLine() const { return p2pSample_.wantsNextLine() || pendingIfs_.active; }
  void nextLine(std::string_view raw);
  /// The end of one input: a list gathered line by line ends with it.
  void endInput() {
    if (pendingIfs_.active) finishPendingInterfaces();
  }
  /// Derives facts and flags; call once after the last feed().
  void finish();

  const std::map<std::string, ProcessInfo>& processes() const { return procs_.all(); }
  /// The rank of the process `host`:`pid` in the largest communicator it initialised, when that communicator has
  /// `worldSize` ranks (so a rank of a smaller group is never given as the job's); -1 otherwise. NCCL's own lines
  /// name no rank, and a per-rank log file (NCCL_DEBUG_FILE) has no launcher prefix: its Init line says it.
  int worldRankOf(std::string_view host, long pid, int worldSize) const;
  /// Lines per transport ("P2P/IPC", "NET/IB", ...); complete after finish().
  const std::map<std::string, std::size_t, std::less<>>& transports() const { return transports_; }
  const Facts& facts() const { return facts_; }
  /// Per fact, its lines past the first kMaxFactLines: counted, their evidence not kept (memory stays bounded
  /// on a log where every rank prints the line at every init).
  const std::map<std::string, std::size_t, std::less<>>& factLinesNotKept() const { return factLinesPast_; }
  static constexpr std::size_t kMaxFactLines = 256;
  /// Processes past the table's cap (ProcessTable): counted, not listed.
  std::size_t processesNotListed() const { return procs_.unlisted(); }
  /// Times the Init progress of the oldest communicator was dropped to stay within kMaxInitBytes (a log of
  /// endless restarts or a crafted one; a communicator seen again after its drop starts again).
  std::size_t communicatorsNotKept() const { return commsDropped_; }
  /// The Init progress of every communicator is kept, two bits per rank, up to this many bytes in all; each
  /// communicator is charged kCommBytes (about what its map and hash nodes take) plus its id and its bits.
  static constexpr std::size_t kMaxInitBytes = std::size_t{32} << 20, kCommBytes = 256;
  /// Ranks from this one on are not kept (no communicator is that large; a crafted line's rank).
  static constexpr int kMaxInitRank = 1 << 20;
  /// doctor.info lists this many communicators (in id order) and counts the rest (`communicators_not_listed`).
  static constexpr std::size_t kMaxCommsListed = 256;
  /// Every "NCCL version X" the log names (X as printed -> the first line that named it), for version-range facts.
  const std::map<std::string, Evidence, std::less<>>& ncclVersionsSeen() const { return versionsSeen_; }
  const std::vector<Flag>& flags() const { return flags_; }
  int channels() const { return nchannels_; }
  const std::set<std::string>& algorithms() const { return algos_; }
  /// Per communicator: which ranks logged Init START / Init COMPLETE, two bits per rank, and nranks. No line's
  /// evidence is kept: the report names ranks and counts them, it shows none of these lines.
  struct Comm {
    int nranks = 0;
    std::uint32_t ranksStarted = 0, ranksCompleted = 0, ranksLogged = 0;  // ranksLogged: with either line
    bool started(int rank) const { return bitsOf(rank) & 1; }
    bool completed(int rank) const { return bitsOf(rank) & 2; }
    /// Ranks below this have their bits here (nranks when first seen, more for a rank past it).
    int rankSlots() const { return static_cast<int>(bits.size() * 4); }
    std::vector<std::uint8_t> bits;  // rank r: bits 2*(r%4) (started) and 2*(r%4)+1 (completed) of byte r/4
    unsigned bitsOf(int rank) const {
      return rank >= 0 && rank < rankSlots() ? (bits[static_cast<std::size_t>(rank) / 4] >> (rank % 4 * 2)) & 3u : 0u;
    }
  };
  const std::map<std::string, Comm, std::less<>>& comms() const { return comms_; }
  Json toJson() const;

 private:
  void feedInit(std::string_view t, bool start, std::uint32_t who);
  void noteVersionSeen(std::string_view version, LineEvidence& ev);
  /// Whether process `who` printed this same text of kind `kind` (a TextKind) last time; notes it as the last.
  bool sameTextAsBefore(int kind, std::uint32_t who, std::string_view text, std::uint64_t hash);
  // The lists parsed from a process's last texts (interfaces, HCAs) are copied into its ProcessInfo once, here,
  // rather than at every change of text (a process joins several communicators in turn).
  void fillProcessLists();
  // Per process (by index), what its lines that every rank repeats at every init said last, in an array small
  // enough to stay in the caches: its ProcessInfo, a map node of its own, is written only when one changes (on a
  // log of thousands of processes, reading it was a cache miss per line).
  struct Recent {
    int driver = -1;          // cudaDriverVersion
    std::uint8_t plugin = 0;  // 1: the internal network, 2: a plugin named
    bool gdrUsed = false;
    bool ibNoDevice = false;  // "NET/IB : No device found."
    // The process's rank in the largest communicator its Init lines name (the job's world, when it is one).
    int worldRank = -1, worldSize = 0;
  };
  std::vector<Recent> recent_;
  Recent& recentOf(std::uint32_t who) {
    if (recent_.size() <= who) recent_.resize(std::size_t{who} + 1);
    return recent_[who];
  }
  // apply()'s branches for "Bootstrap : Using" / "NET/Socket : Using" (kind 1 or 2) and "NET/IB : Using".
  void noteInterfaces(int kind, std::uint32_t who, std::string_view rest, std::uint64_t hash, LineEvidence& ev);
  void noteHcas(std::uint32_t who, std::string_view rest, std::uint64_t hash, LineEvidence& ev);
  void noteGdrUsed(std::uint32_t who);
  void addFact(const char* name, LineEvidence& ev);
  using CommNode = std::pair<const std::string, Comm>;
  // Drops the oldest communicators but `keep` until the Init progress fits kMaxInitBytes.
  void fitInitBudget(const CommNode* keep);
  CommNode* newComm(std::string_view key, int nranks);
  void deriveSingleNodeP2p();  // from transportCounts_, before finish() folds it into transports_

  ProcessTable procs_;
  // Each distinct text of a kind ("NET/IB : Using", "Bootstrap : Using", "NET/Socket : Using"...) gets an id, and
  // each process (by index) the id of its last one. NCCL prints these lines at every communicator init of every
  // rank; telling a repeat by the text kept in the process read two cold cache lines per line (its state and
  // the string's heap buffer), and parsing it again allocated a dozen strings.
  static constexpr int kTextKinds = 6;  // NET/IB, Bootstrap, NET/Socket, Using network, GDR disabled HCA, version
  static constexpr std::size_t kMaxIbTexts = 4096, kMaxIbText = 1024;  // bounds against a crafted log
  TextIds textIds_[kTextKinds] = {{kMaxIbTexts, kMaxIbText}, {kMaxIbTexts, kMaxIbText}, {kMaxIbTexts, kMaxIbText},
                                  {kMaxIbTexts, kMaxIbText}, {kMaxIbTexts, kMaxIbText}, {kMaxIbTexts, kMaxIbText}};
  std::vector<std::uint32_t> textOf_[kTextKinds];  // TextIds::kNone: none, or one without an id
  // Per kind and text id: what the text says, parsed once. A process prints several of these texts in turn
  // (one per communicator it joins), so "the same as its last" fails often; a text's own parse does not change,
  // and copying it into the process reuses the process's buffers instead of allocating a dozen strings.
  struct ParsedText {
    bool ready = false, virt = false, relaxedOrdering = false, hasOob = false;
    std::vector<std::string> list;  // interfaces (Bootstrap, NET/Socket), HCAs (NET/IB) or the HCA (GDR)
    std::string oob;
  };
  std::vector<ParsedText> parsed_[kTextKinds];
  // The slot of text `id` (ready or not yet), null for a text without an id.
  ParsedText* parsedOf(int kind, std::uint32_t id);
  std::uint8_t algosSeen_ = 0;  // bits of algos_ already inserted (Ring 1, Tree 2, ...)
  void noteAlgo(std::uint8_t bit, const char* name);
  std::map<std::string, std::size_t, std::less<>> factLinesPast_;
  std::deque<CommNode*> commOrder_;  // comms_ nodes in order of first sight, for fitInitBudget
  std::size_t commsDropped_ = 0, initBytes_ = 0;
  bool unlistedFlagged_ = false;
  Evidence firstUnlisted_;                           // the first line of a process past the table's cap
  std::map<std::string, Evidence> versionEvidence_;  // version -> first line that printed it
  static constexpr std::size_t kMaxVersionsSeen = 64;
  std::map<std::string, Evidence, std::less<>> versionsSeen_;   // the same, errors that name a version included
  std::string lastVersionSeen_;                                 // the last version noteVersionSeen was given
  std::map<std::string, std::size_t, std::less<>> transports_;  // filled by finish()
  struct TransportSeen {
    std::string name;
    std::size_t lines = 0;
    Evidence first;  // the first line of this transport (kept once per name, not per line)
  };
  std::vector<TransportSeen> transportCounts_;                 // while feeding
  std::string keyBuf_;                                         // feedInit's communicator key
  CommNode* lastComm_ = nullptr;                               // the last communicator fed (a comms_ node)
  std::unordered_map<std::string_view, CommNode*> commByKey_;  // comms_ nodes by their key (the node's own string)
  Facts facts_;
  std::vector<Flag> flags_;
  std::set<std::string> algos_;
  std::map<std::string, Comm, std::less<>> comms_;
  int nchannels_ = 0;
  // ib_link_layer: the first "NET/IB : Using" line with an /IB port, and whether any listed a /RoCE one.
  std::vector<Evidence> ibLinkEvidence_;
  bool sawRoce_ = false;
  std::optional<Evidence> socketList_;  // the first "NET/Socket : Using" line (network_transport_seen)
  NcclTestsOutput ncclTests_;
  CollectiveCalls calls_;
  P2pSampleOutput p2pSample_;
  // A "Bootstrap : Using" / "NET/Socket : Using" line with nothing after "Using": its entries follow one per line
  // (a paste or a log collector broke the line), gathered here until a line that is not one, then read as the list.
  struct PendingInterfaces {
    bool active = false;
    int kind = 0;
    std::uint32_t who = 0;
    Evidence ev;
    std::string list;
  } pendingIfs_;
  void finishPendingInterfaces();
};

}  // namespace pf::doctor
