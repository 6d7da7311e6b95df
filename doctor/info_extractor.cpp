// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "info_extractor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include "fact_names.hpp"
#include "interface_lists.hpp"
#include "line_search.hpp"
#include "line_words.hpp"
#include "nccl_versions.hpp"

namespace pf::doctor {
namespace {

bool isBlank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

// A transport between nodes: NET/IB/0, NET/Socket/1, NET/OFI, COLLNET (CollNet in some releases).
bool isNetworkTransport(std::string_view name) {
  return name.starts_with("NET") || name.starts_with("COLLNET") || name.starts_with("CollNet");
}

}  // namespace

// The order is relied upon: classify() names taps by index (hasTap), and normalizer_test checks those indexes.

const std::vector<std::string>& InfoExtractor::taps() {
  static const std::vector<std::string> t = {"NCCL version ",
                                             "cudaDriverVersion",
                                             "NET/Plugin",
                                             "Using network ",
                                             "Bootstrap : Using",
                                             "NET/Socket : Using",
                                             "NET/IB : Using",
                                             "NET/IB : No device",
                                             "Unable to open device",
                                             "ibv_open_device failed",
                                             "GPU Direct RDMA ",
                                             "Channel ",
                                             "NCCL INFO Ring ",
                                             "NCCL INFO Trees",
                                             "Init START",
                                             "Init COMPLETE",
                                             "# nThread ",
                                             "Using devices",
                                             " device ",
                                             "Avg bus bandwidth",
                                             "Out of bounds values",
                                             "Test CUDA failure",
                                             "Test NCCL failure",
                                             ": Test failure",
                                             "   float  ",  // nccl-tests' result rows: the type column, right-aligned
                                             "NCCL WARN ",
                                             "NVLS multicast",
                                             "CollNet ",
                                             "NET/OFI Selected provider",
                                             "minBytes ",
                                             " opCount ",
                                             "    half  ",
                                             "  double  ",
                                             "bfloat16  ",
                                             "P2P=Enabled",
                                             "P2P=Disabled",
                                             "nccl-library="};
  return t;
}

void InfoExtractor::noteVersionSeen(std::string_view v, LineEvidence& ev) {
  // Every rank prints its version at every init: the last one noted is the usual case, told without the map.
  if (lastVersionSeen_.size() == v.size() && sameBytes(lastVersionSeen_.data(), v.data(), v.size())) return;
  lastVersionSeen_.assign(v);
  // A few distinct strings in a real log; capped against a crafted one.
  if (versionsSeen_.size() < kMaxVersionsSeen && versionsSeen_.find(v) == versionsSeen_.end())
    versionsSeen_.emplace(std::string(v), ev.get());
}

void InfoExtractor::nextLine(std::string_view raw) {
  if (pendingIfs_.active) {
    // Bounded: a crafted log of a million entry lines keeps the first few hundred.
    constexpr std::size_t kMaxListBytes = 16 << 10;
    if (isInterfaceEntryLine(raw)) {
      if (pendingIfs_.list.size() < kMaxListBytes) pendingIfs_.list.append(" ").append(raw);
      return;
    }
    finishPendingInterfaces();
  }
  if (!p2pSample_.wantsNextLine()) return;
  // Rare (a sample's matrix rows): an owned normalisation is simpler than the view's ASCII-only contract.
  const NormLine l = normalizeLine(raw);
  p2pSample_.nextLine(l.text);
}

void InfoExtractor::finishPendingInterfaces() {
  pendingIfs_.active = false;
  if (pendingIfs_.list.empty()) return;
  // The evidence shows the entries too, within the 400 bytes an evidence text keeps.
  Evidence& e = pendingIfs_.ev;
  if (e.text.size() < 400) e.text.append(pendingIfs_.list, 0, 400 - e.text.size());
  LineEvidence ev(e);
  noteInterfaces(pendingIfs_.kind, pendingIfs_.who, pendingIfs_.list, TextIds::hashOf(pendingIfs_.list), ev);
  pendingIfs_.list.clear();
}

void InfoExtractor::feed(const NormLine& line, const Evidence& ev) {
  LineEvidence le(ev);
  feed(line.view(), le);
}

void InfoExtractor::feed(const NormView& l, LineEvidence& ev, std::uint32_t tapMask) {
  apply(l, classify(l, tapMask), ev);
}

void InfoExtractor::apply(const NormView& l, const InfoLine& c, LineEvidence& ev) {
  // Any line the extractor reads ends a list being gathered line by line.
  if (pendingIfs_.active) finishPendingInterfaces();
  const std::string_view t = l.text;
  const std::string_view part = t.substr(std::min<std::size_t>(c.at, t.size()), c.len);
  if (c.kind == InfoLine::kCall) {
    // A per-call line (NCCL_DEBUG_SUBSYS=COLL); read whatever prefix was left, since grep -r often adds one.
    calls_.feed(l, ev);
    return;
  }
  // nccl-tests prints its header, rows and failures without NCCL's prefix; an NCCL WARN also counts as output.
  if (l.level.empty()) {
    ncclTests_.feed(t, ev);
    p2pSample_.feed(t, ev);
    // nccl-tests' first line names the NCCL it ran, where NCCL_DEBUG is often unset:
    // "# nccl-tests version 2.18.3 nccl-headers=23005 nccl-library=23005".
    if (c.libraryVersion)
      if (auto v = ncclVersionFromCode(firstWord(after(t, "nccl-library=")))) noteVersionSeen(*v, ev);
  } else if (equals(l.level, "WARN")) {
    ncclTests_.sawNcclWarn();
  }
  switch (c.kind) {
    case InfoLine::kUnread:
    case InfoLine::kCall:
    case InfoLine::kNone: return;
    case InfoLine::kVersion: {
      // Every version named, torch's "..., NCCL version 2.18.6" errors included, for the rules that hold for some
      // releases only (nccl_versions.hpp).
      noteVersionSeen(part, ev);
      if (c.flag) return;
      // Printed at every init: the process's last version text again changes nothing.
      const std::uint32_t who = procs_.indexOf(l, ev.file(), c.hostHash);
      if (sameTextAsBefore(5, who, part, c.hash)) return;
      ProcessInfo& p = procs_.at(who);
      std::size_t plus = part.find("+cuda");
      if (plus != std::string_view::npos) p.cudaVersion.assign(part.substr(plus + 5));
      // Printed at every init: a process that already has this version was noted with it.
      if (p.ncclVersion == part.substr(0, plus)) return;
      p.ncclVersion.assign(part.substr(0, plus));
      if (!versionEvidence_.count(p.ncclVersion)) versionEvidence_.emplace(p.ncclVersion, ev.get());
      return;
    }
    case InfoLine::kTransport: {
      // The process is registered, but its state is read only for GDRDMA: most lines need nothing from it.
      const std::uint32_t who = procs_.indexOf(l, ev.file(), c.hostHash);
      // A handful of names for millions of lines: a short list searched in place beats the map's compares.
      auto it = std::find_if(transportCounts_.begin(), transportCounts_.end(), [&](const TransportSeen& tc) {
        return tc.name.size() == part.size() && sameBytes(tc.name.data(), part.data(), part.size());
      });
      if (it != transportCounts_.end())
        ++it->lines;
      else
        transportCounts_.push_back({std::string(part), 1, ev.get()});
      if (c.flag) noteGdrUsed(who);
      return;
    }
    default: break;
  }
  const std::uint32_t who = procs_.indexOf(l, ev.file(), c.hostHash);
  if (who == procs_.unlistedIndex() && !unlistedFlagged_) {
    unlistedFlagged_ = true;
    firstUnlisted_ = ev.get();
  }
  // Not read yet: most lines repeat what the process said before and leave it alone.
  auto p = [&]() -> ProcessInfo& { return procs_.at(who); };
  switch (c.kind) {
    case InfoLine::kDriver:
      if (const int v = atoiView(part); recentOf(who).driver != v) {
        recentOf(who).driver = v;
        p().cudaDriver = v;
      }
      break;
    case InfoLine::kPluginInternal:
      if (recentOf(who).plugin != 1) {
        recentOf(who).plugin = 1;
        p().netPlugin = "internal";
      }
      break;
    case InfoLine::kPluginLoaded:
      if (const std::string_view name = firstWord(part); !name.empty()) {
        recentOf(who).plugin = 2;
        p().netPlugin.assign(name);
      }
      break;
    case InfoLine::kNetwork:
      // Printed at every init: a repeat keeps the process's first line of this network as its evidence (building
      // an Evidence for each was most of this branch's cost). Only this branch sets the network, so the process's
      // last text again is the network it has.
      if (sameTextAsBefore(3, who, part, c.hash)) return;
      p().network.assign(part);
      ev.copyTo(p().networkEvidence);
      break;
    case InfoLine::kBootstrap:
    case InfoLine::kSocket:
      if (c.kind == InfoLine::kSocket && !socketList_) socketList_ = ev.get();
      if (isBlank(part)) {
        pendingIfs_ = {true, c.kind == InfoLine::kBootstrap ? 1 : 2, who, ev.get(), {}};
        break;
      }
      noteInterfaces(c.kind == InfoLine::kBootstrap ? 1 : 2, who, part, c.hash, ev);
      break;
    case InfoLine::kIbUsing: noteHcas(who, part, c.hash, ev); break;
    case InfoLine::kIbNoDevice:
      // A fact, not a rule literal: every process of a job without IB prints this at every init.
      if (!recentOf(who).ibNoDevice) {
        recentOf(who).ibNoDevice = true;
        p().ibNoDevice = true;
        addFact(fact::kIbNoDevice, ev);
      }
      break;
    case InfoLine::kIbOpenFailed:
      p().ibOpenFailed = true;
      addFact(fact::kRdmaDeviceUnusable, ev);
      break;
    case InfoLine::kGdrDisabled:
      if (!sameTextAsBefore(4, who, part, c.hash)) {  // the same HCA again adds nothing to the process's set
        ParsedText* slot = parsedOf(4, textOf_[4][who]);
        if (slot && !slot->ready) {
          auto w = words(part);
          *slot = {true, false, false, false, {w.size() > 1 ? w[1] : "?"}, {}};
        }
        if (slot) {
          p().gdrDisabledHcas.insert(slot->list.front());  // no allocation when the set holds it
        } else {
          auto w = words(part);
          p().gdrDisabledHcas.insert(w.size() > 1 ? w[1] : "?");
        }
      }
      addFact(fact::kGdrDisabled, ev);
      break;
    case InfoLine::kGdrEnabled: noteGdrUsed(who); break;
    case InfoLine::kInitStart:
    case InfoLine::kInitComplete: feedInit(t, c.kind == InfoLine::kInitStart, who); break;
    case InfoLine::kRing:
      nchannels_ = std::max(nchannels_, c.value);
      noteAlgo(1, "Ring");
      break;
    case InfoLine::kTree: noteAlgo(2, "Tree"); break;
    case InfoLine::kNvls: noteAlgo(4, "NVLS"); break;
    case InfoLine::kCollNet: noteAlgo(8, "CollNet"); break;
    default: break;
  }
}

void InfoExtractor::finish() {
  if (pendingIfs_.active) finishPendingInterfaces();
  fillProcessLists();
  deriveSingleNodeP2p();
  for (const auto& tc : transportCounts_)
    if (isNetworkTransport(tc.name)) facts_[fact::kNetworkTransportSeen].push_back(tc.first);
  if (socketList_) facts_[fact::kNetworkTransportSeen].push_back(*socketList_);
  if (!ibLinkEvidence_.empty() && !sawRoce_) facts_[fact::kIbLinkLayer] = ibLinkEvidence_;
  for (const auto& tc : transportCounts_) transports_[tc.name] += tc.lines;
  transportCounts_.clear();
  if (versionEvidence_.size() > 1) {
    std::string list;
    for (const auto& [v, e] : versionEvidence_) {
      facts_[fact::kNcclVersionsDiffer].push_back(e);
      list += (list.empty() ? "" : ", ") + v;
    }
    flags_.push_back(
        {fact::kNcclVersionsDiffer, "ranks report different NCCL versions: " + list, versionEvidence_.begin()->second});
  }
  for (const auto& [who, p] : procs_.all()) {
    std::vector<std::string> ifs = p.socketIfs;
    ifs.insert(ifs.end(), p.bootstrapIfs.begin(), p.bootstrapIfs.end());
    std::set<std::string> seen;
    for (const auto& i : ifs) {
      if (isVirtual(i) && seen.insert(i).second)
        flags_.push_back(
            {fact::kVirtualInterfaceSelected,
             fmt::format("{} uses interface {}, a container, bridge or tunnel device, not the node's own NIC", who, i),
             facts_[fact::kVirtualInterfaceSelected].front()});
    }
    if (p.network == "Socket" && p.ibOpenFailed) {
      facts_[fact::kSocketFallbackWithRdma].push_back(p.networkEvidence);
      flags_.push_back({fact::kSocketFallbackWithRdma,
                        who + " fell back to TCP sockets although it has an RDMA device NCCL could not open",
                        p.networkEvidence});
    }
    for (const auto& h : p.gdrDisabledHcas)
      flags_.push_back({fact::kGdrDisabled, fmt::format("{}: GPU Direct RDMA disabled for HCA {}", who, h),
                        facts_[fact::kGdrDisabled].front()});
  }
  if (unlistedFlagged_)
    flags_.push_back(
        {"processes_not_listed",
         fmt::format("{}{} more processes past the first {} are counted, not listed: their setup (versions, "
                     "interfaces, HCAs) is not kept one by one; the facts from their lines still count",
                     procs_.unlistedUncounted() ? "at least " : "", procs_.unlisted(), ProcessTable::kMaxListed),
         firstUnlisted_});
  ncclTests_.finish(facts_, flags_);
  p2pSample_.finish(facts_, flags_);
  calls_.finish(facts_, flags_);
}

// A job whose peers all connect through P2P (never NET/*) and whose NCCL lines come from one host is a
// single-node job: its collectives run over PCIe/NVLink peer access alone, so a hang or wrong data there points
// at that path (ACS, the IOMMU, a broken NVLink) before anything else. One host's log of a multi-node job still
// shows NET/* connections for its inter-node channels, so it does not qualify.
void InfoExtractor::deriveSingleNodeP2p() {
  const Evidence* p2p = nullptr;
  for (const auto& tc : transportCounts_) {
    const std::string_view name = tc.name;
    if (isNetworkTransport(name)) return;
    if (!p2p && name.starts_with("P2P")) p2p = &tc.first;
  }
  if (!p2p) return;
  std::set<std::string_view> hosts;
  for (const auto& [who, p] : procs_.all())
    if (!p.host.empty()) hosts.insert(p.host);
  if (hosts.size() <= 1) facts_[fact::kSingleNodeP2p].push_back(*p2p);
}

}  // namespace pf::doctor
