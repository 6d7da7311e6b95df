// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "info_extractor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include "fact_names.hpp"
#include "line_search.hpp"
#include "line_words.hpp"
#include "nccl_versions.hpp"

namespace pf::doctor {
namespace {

// Whitespace-separated words (a hand loop: an istringstream costs a locale look-up per word, which showed
// up as the top cost on multi-GB logs).
std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// "[0]ens5:172.31.0.137<0>" or "ens7:10.128.0.31<0>" -> "ens5".
std::string ifName(std::string tok) {
  if (!tok.empty() && tok[0] == '[') {
    std::size_t c = tok.find(']');
    if (c != std::string::npos) tok = tok.substr(c + 1);
  }
  return tok.substr(0, tok.find(':'));
}

bool isVirtual(const std::string& ifn) {
  // Interfaces that are not a node's own NIC, by the names their software gives them: container and bridge devices
  // (veth, docker, podman, LXD, libvirt), Kubernetes network plugins (Calico cali*, Cilium lxc*/cilium_*, Weave,
  // Flannel, kube-router, VXLAN and Geneve tunnels) and VPN tunnels (tun/tap, WireGuard, Tailscale, ZeroTier). Not
  // "lo": a single-node job legitimately bootstraps over loopback.
  for (const char* p : {"veth",   "docker", "virbr", "cni",   "flannel", "br-", "podman", "lxdbr", "cali",      "lxc",
                        "cilium", "weave",  "kube-", "vxlan", "genev",   "tun", "tap",    "wg",    "tailscale", "zt"}) {
    if (ifn.rfind(p, 0) == 0) return true;
  }
  return false;
}

// Interfaces after "Using " up to ";" (NET/IB puts "; OOB ..." after its list).
std::vector<std::string> interfaceList(std::string_view rest, bool hca) {
  std::vector<std::string> out;
  for (const auto& w : words(rest.substr(0, rest.find(';')))) {
    if (w == "[RO]") continue;
    std::string name = hca ? w.substr(w[0] == '[' ? w.find(']') + 1 : 0) : ifName(w);
    if (!name.empty()) out.push_back(name);
  }
  return out;
}

// "P2P/IPC/read" -> "P2P/IPC"; "NET/IB/0/GDRDMA" -> "NET/IB"; "SHM/direct/direct" -> "SHM". Always a prefix of
// `via`, so a view (the count's map is searched without building a string per line).
// Hand loops over the few bytes: three memchr calls per transport line showed in profiles.
std::string_view transportName(std::string_view via) {
  std::size_t a = 0;
  while (a < via.size() && via[a] != '/') ++a;
  const std::string_view first = via.substr(0, a);
  if (a == via.size() || equals(first, "SHM")) return first;
  const bool p2p = equals(first, "P2P");
  std::size_t end = a + 1;
  while (end < via.size() && via[end] != '/' && !(p2p && via[end] == ' ')) ++end;
  return via.substr(0, end);
}

}  // namespace

// The order is relied upon: feed() names taps by index (hasTap), and normalizer_test checks those indexes.
constexpr std::string_view kIbUsing = "NET/IB : Using";

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
  // Rare (a sample's matrix rows): an owned normalisation is simpler than the view's ASCII-only contract.
  const NormLine l = normalizeLine(raw);
  p2pSample_.nextLine(l.text);
}

void InfoExtractor::feed(const NormLine& line, const Evidence& ev) {
  LineEvidence le(ev);
  feed(line.view(), le);
}

void InfoExtractor::feed(const NormView& l, LineEvidence& ev, std::uint32_t tapMask) {
  const std::string_view t = l.text;
  // lineHolds(t, lit) for a literal that contains taps()[i]: when that tap is not in the line, neither is `lit`.
  auto hasTap = [&](int i, std::string_view lit) { return ((tapMask >> i) & 1u) != 0 && lineHolds(t, lit); };
  // nccl-tests prints its header, rows and failures without NCCL's prefix; an NCCL WARN also counts as output.
  if (hasTap(30, " opCount ")) {
    // A per-call line (NCCL_DEBUG_SUBSYS=COLL); read whatever prefix was left, since grep -r often adds one.
    calls_.feed(l, ev);
    return;
  }
  if (l.level.empty()) {
    ncclTests_.feed(t, ev);
    p2pSample_.feed(t, ev);
    // nccl-tests' first line names the NCCL it ran, where NCCL_DEBUG is often unset:
    // "# nccl-tests version 2.18.3 nccl-headers=23005 nccl-library=23005".
    if (lineHolds(t, "nccl-library="))
      if (auto v = ncclVersionFromCode(firstWord(after(t, "nccl-library=")))) noteVersionSeen(*v, ev);
  } else if (equals(l.level, "WARN")) {
    ncclTests_.sawNcclWarn();
  }
  if (hasTap(0, "NCCL version ")) {
    std::string_view v = firstWord(after(t, "NCCL version "));
    if (v.empty()) return;
    // Every version named, torch's "..., NCCL version 2.18.6" errors included, for the rules that hold for some
    // releases only (nccl_versions.hpp).
    noteVersionSeen(v, ev);
    // "NCCL version 2.19.3+cuda12.3": the process's own version comes from NCCL's INFO line only.
    if (lineHolds(t, "error") || lineHolds(t, "Error")) return;
    ProcessInfo& p = procs_.of(l, ev.file());
    std::size_t plus = v.find("+cuda");
    if (plus != std::string_view::npos) p.cudaVersion.assign(v.substr(plus + 5));
    // Printed at every init: a process that already has this version was noted with it.
    if (p.ncclVersion == v.substr(0, plus)) return;
    p.ncclVersion.assign(v.substr(0, plus));
    if (!versionEvidence_.count(p.ncclVersion)) versionEvidence_.emplace(p.ncclVersion, ev.get());
    return;
  }
  if (!equals(l.level, "INFO") && !equals(l.level, "WARN")) return;
  // Transport lines are most of an INFO log. Every format prints them as "Channel ..." or (NCCL 2.4-2.6)
  // "NCCL INFO Ring ...", so the other lines skip the search for " via ".
  const bool channelOrRing = ((tapMask >> 11) & 1u) != 0 || ((tapMask >> 12) & 1u) != 0;
  if (const std::size_t at = channelOrRing ? findInLine(t, " via ") : std::string_view::npos;
      at != std::string_view::npos && lineHolds(t, "->")) {
    // The process is registered, but its state is read only for GDRDMA: most lines need nothing from it.
    const std::uint32_t who = procs_.indexOf(l, ev.file());
    const std::string_view via = t.substr(at + 5);
    const std::string_view name = transportName(via);
    // A handful of names for millions of lines: a short list searched in place beats the map's compares.
    auto it = std::find_if(transportCounts_.begin(), transportCounts_.end(), [&](const TransportSeen& tc) {
      return tc.name.size() == name.size() && sameBytes(tc.name.data(), name.data(), name.size());
    });
    if (it != transportCounts_.end())
      ++it->lines;
    else
      transportCounts_.push_back({std::string(name), 1, ev.get()});
    if (lineHolds(via, "GDRDMA")) procs_.at(who).gdrUsed = true;
    return;
  }
  const std::uint32_t who = procs_.indexOf(l, ev.file());
  if (who == procs_.unlistedIndex() && !unlistedFlagged_) {
    unlistedFlagged_ = true;
    firstUnlisted_ = ev.get();
  }
  ProcessInfo& p = procs_.at(who);
  if (hasTap(1, "cudaDriverVersion")) {
    p.cudaDriver = atoiView(after(t, "cudaDriverVersion"));
  } else if (hasTap(2, "NET/Plugin")) {
    if (lineHolds(t, "No plugin found") || lineHolds(t, "using internal"))
      p.netPlugin = "internal";
    else if (lineHolds(t, "Loaded net plugin "))
      p.netPlugin = words(after(t, "Loaded net plugin ")).front();
  } else if (hasTap(3, "Using network ")) {
    // Printed at every init: a repeat keeps the process's first line of this network as its evidence (building
    // an Evidence for each was most of this branch's cost).
    const std::string_view network = after(t, "Using network ");
    if (sameTextAsBefore(3, who, network) && p.network == network) return;
    p.network.assign(network);
    ev.copyTo(p.networkEvidence);
  } else if (hasTap(4, "Bootstrap : Using") || hasTap(5, "NET/Socket : Using")) {
    const bool boot = lineHolds(t, "Bootstrap");
    const int kind = boot ? 1 : 2;
    const std::string_view rest = after(t, "Using");
    // The same list as this process's last one changes nothing but the fact's count.
    const bool same = sameTextAsBefore(kind, who, rest);
    ParsedText* slot = parsedOf(kind, textOf_[kind][who]);
    bool virt = slot && slot->ready && slot->virt;
    if (!same) {
      auto& ifs = boot ? p.bootstrapIfs : p.socketIfs;
      if (slot && slot->ready) {
        ifs = slot->list;
      } else {
        ifs = interfaceList(rest, false);
        virt = std::any_of(ifs.begin(), ifs.end(), [](const std::string& i) { return isVirtual(i); });
        if (slot) *slot = {true, virt, false, false, ifs, {}};
      }
    }
    if (virt) addFact(fact::kVirtualInterfaceSelected, ev);
  } else if (const std::size_t ib = (tapMask >> 6) & 1u ? findInLine(t, kIbUsing) : std::string_view::npos;
             ib != std::string_view::npos) {
    // hasTap(6, ...) and after() in one search.
    const std::string_view rest = t.substr(ib + kIbUsing.size());
    // Printed again at every communicator init; only this branch sets these fields, so the same text for
    // the same process changes nothing (and parsing it allocates a dozen strings).
    if (sameTextAsBefore(0, who, rest)) return;
    if (p.ibUsingText.size() == rest.size() && sameBytes(p.ibUsingText.data(), rest.data(), rest.size())) return;
    p.ibUsingText.assign(rest);
    // A text parsed before (for any process) already noted its link layers: only the process's fields change.
    ParsedText* slot = parsedOf(0, textOf_[0][who]);
    if (slot && slot->ready) {
      p.hcas = slot->list;
      p.relaxedOrdering = slot->relaxedOrdering;
      if (slot->hasOob) p.oobIf.assign(slot->oob);
      return;
    }
    p.hcas = interfaceList(rest, true);
    for (const auto& h : p.hcas) {
      if (h.ends_with("/RoCE")) sawRoce_ = true;
      if (h.ends_with("/IB") && ibLinkEvidence_.empty()) ibLinkEvidence_.push_back(ev.get());
    }
    p.relaxedOrdering = lineHolds(rest, "[RO]");
    const bool oob = lineHolds(rest, "OOB ");
    if (oob) p.oobIf = ifName(words(after(rest, "OOB ")).front());
    if (slot) *slot = {true, false, p.relaxedOrdering, oob, p.hcas, oob ? p.oobIf : std::string()};
  } else if (hasTap(7, "NET/IB : No device")) {
    p.ibNoDevice = true;
  } else if (hasTap(8, "Unable to open device") || hasTap(9, "ibv_open_device failed")) {
    p.ibOpenFailed = true;
    addFact(fact::kRdmaDeviceUnusable, ev);
  } else if (hasTap(10, "GPU Direct RDMA Disabled for HCA")) {
    const std::string_view hca = after(t, "for HCA");
    if (!sameTextAsBefore(4, who, hca)) {  // the same HCA again adds nothing to the process's set
      ParsedText* slot = parsedOf(4, textOf_[4][who]);
      if (slot && !slot->ready) {
        auto w = words(hca);
        *slot = {true, false, false, false, {w.size() > 1 ? w[1] : "?"}, {}};
      }
      if (slot) {
        p.gdrDisabledHcas.insert(slot->list.front());  // no allocation when the set holds it
      } else {
        auto w = words(hca);
        p.gdrDisabledHcas.insert(w.size() > 1 ? w[1] : "?");
      }
    }
    addFact(fact::kGdrDisabled, ev);
  } else if (hasTap(10, "GPU Direct RDMA Enabled")) {
    p.gdrUsed = true;
  } else if (const bool start = hasTap(14, "Init START"); start || hasTap(15, "Init COMPLETE")) {
    // Before the ring/tree checks, whose searches are not narrowed by a tap: one such line per rank and init.
    feedInit(t, start);
  } else if ((hasTap(11, "Channel ") || lineHolds(t, "Ring ")) && !lineHolds(t, "->")) {
    // "Channel 00/32 :    0" lists a ring; the number after '/' is the channel count.
    std::size_t slash = t.find('/');
    if (slash != std::string_view::npos) nchannels_ = std::max(nchannels_, atoiView(t.substr(slash + 1)));
    noteAlgo(1, "Ring");
  } else if (lineHolds(t, "Trees")) {
    noteAlgo(2, "Tree");
  } else if (hasTap(26, "NVLS multicast")) {
    noteAlgo(4, "NVLS");
  } else if (hasTap(27, "CollNet ")) {
    noteAlgo(8, "CollNet");
  }
}

void InfoExtractor::finish() {
  deriveSingleNodeP2p();
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
    if (name.starts_with("NET") || name.starts_with("COLLNET") || name.starts_with("CollNet")) return;
    if (!p2p && name.starts_with("P2P")) p2p = &tc.first;
  }
  if (!p2p) return;
  std::set<std::string_view> hosts;
  for (const auto& [who, p] : procs_.all())
    if (!p.host.empty()) hosts.insert(p.host);
  if (hosts.size() <= 1) facts_[fact::kSingleNodeP2p].push_back(*p2p);
}

}  // namespace pf::doctor
