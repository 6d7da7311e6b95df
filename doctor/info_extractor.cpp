// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "info_extractor.hpp"

#include <fmt/format.h>

#include <cstdlib>

namespace pf::doctor {
namespace {

bool has(std::string_view s, std::string_view lit) { return s.find(lit) != std::string_view::npos; }

std::string after(std::string_view s, std::string_view lit) {
  std::size_t p = s.find(lit);
  return p == std::string_view::npos ? std::string() : std::string(s.substr(p + lit.size()));
}

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
  // Not "lo": a single-node job legitimately bootstraps over loopback.
  for (const char* p : {"veth", "docker", "virbr", "cni", "flannel", "br-"}) {
    if (ifn.rfind(p, 0) == 0) return true;
  }
  return false;
}

// Interfaces after "Using " up to ";" (NET/IB puts "; OOB ..." after its list).
std::vector<std::string> interfaceList(const std::string& rest, bool hca) {
  std::vector<std::string> out;
  for (const auto& w : words(rest.substr(0, rest.find(';')))) {
    if (w == "[RO]") continue;
    std::string name = hca ? w.substr(w[0] == '[' ? w.find(']') + 1 : 0) : ifName(w);
    if (!name.empty()) out.push_back(name);
  }
  return out;
}

// "P2P/IPC/read" -> "P2P/IPC"; "NET/IB/0/GDRDMA" -> "NET/IB"; "SHM/direct/direct" -> "SHM".
std::string transportName(const std::string& via) {
  std::string first = via.substr(0, via.find('/'));
  if (first == "SHM") return "SHM";
  std::size_t a = via.find('/');
  if (a == std::string::npos) return first;
  std::size_t b = via.find('/', a + 1);
  std::string second = via.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
  if (first == "P2P") second = second.substr(0, second.find(' '));
  return first + "/" + second;
}

}  // namespace

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
                                             "# Using devices",
                                             " device ",
                                             "Avg bus bandwidth",
                                             "Out of bounds values",
                                             "Test CUDA failure",
                                             "Test NCCL failure",
                                             ": Test failure",
                                             "   float     sum",
                                             "NCCL WARN ",
                                             "NVLS multicast",
                                             "CollNet ",
                                             "NET/OFI Selected provider"};
  return t;
}

ProcessInfo& InfoExtractor::proc(const NormLine& l, const Evidence& ev) {
  // Consecutive lines usually come from the same process: skip the formatting and the map look-up then.
  if (lastProc_ && !l.host.empty() && l.pid == lastPid_ && l.host == lastHost_) return *lastProc_;
  std::string who = l.who();
  if (who.empty())
    who = lastWho_.empty() ? ev.file : lastWho_;
  else
    lastWho_ = who;
  ProcessInfo& p = procs_[who];
  if (p.host.empty()) p.host = l.host;
  lastProc_ = l.host.empty() ? nullptr : &p;  // std::map nodes do not move, so the pointer stays valid
  lastHost_ = l.host;
  lastPid_ = l.pid;
  return p;
}

void InfoExtractor::feedNcclTests(const std::string& t, const Evidence& ev) {
  if (has(t, "# nThread ")) {
    testHeader_ = true;
    if (++testHeaders_ == 2) secondHeader_ = ev;
    testEvidence_ = ev;
  } else if (has(t, "Rank ") && has(t, " on ") && has(t, " device ") && t.rfind("#", 0) == 0) {
    // "#  Rank  0 Group  0 Pid 516704 on   gpu-0001 device  0 [...]": the host is the word after " on ".
    auto w = words(after(t, " on "));
    if (!w.empty()) ++testDevicesPerHost_[w[0]];
  } else if (has(t, "Avg bus bandwidth") || has(t, "Out of bounds") || has(t, "Test CUDA failure") ||
             has(t, "Test NCCL failure") || has(t, ": Test failure") || has(t, "   float     sum") ||
             has(t, "NCCL WARN ") || has(t, "Watchdog caught")) {
    testProgress_ = true;
  }
}

void InfoExtractor::feed(const NormLine& l, const Evidence& ev) {
  const std::string& t = l.text;
  // nccl-tests prints its header, rows and failures without NCCL's prefix; an NCCL WARN also counts as output.
  if (l.level.empty())
    feedNcclTests(t, ev);
  else if (l.level == "WARN")
    testProgress_ = true;
  if (has(t, "NCCL version ")) {
    // "NCCL version 2.19.3+cuda12.3" (also inside torch's "..., NCCL version 2.18.6" errors: skip those).
    if (has(t, "error") || has(t, "Error")) return;
    auto w = words(after(t, "NCCL version "));
    if (w.empty()) return;
    ProcessInfo& p = proc(l, ev);
    std::string v = w[0];
    std::size_t plus = v.find("+cuda");
    p.ncclVersion = v.substr(0, plus);
    if (plus != std::string::npos) p.cudaVersion = v.substr(plus + 5);
    versionEvidence_.emplace(p.ncclVersion, ev);
    return;
  }
  if (l.level != "INFO" && l.level != "WARN") return;
  // Transport lines are most of an INFO log: count them without resolving the process unless GDR shows.
  if (has(t, " via ") && has(t, "->")) {
    ProcessInfo& p = proc(l, ev);
    std::string via = after(t, " via ");
    ++transports_[transportName(via)];
    if (has(via, "GDRDMA")) p.gdrUsed = true;
    return;
  }
  ProcessInfo& p = proc(l, ev);
  if (has(t, "cudaDriverVersion")) {
    p.cudaDriver = std::atoi(after(t, "cudaDriverVersion").c_str());
  } else if (has(t, "NET/Plugin")) {
    if (has(t, "No plugin found") || has(t, "using internal"))
      p.netPlugin = "internal";
    else if (has(t, "Loaded net plugin "))
      p.netPlugin = words(after(t, "Loaded net plugin ")).front();
  } else if (has(t, "Using network ")) {
    p.network = after(t, "Using network ");
    p.networkEvidence = ev;
  } else if (has(t, "Bootstrap : Using") || has(t, "NET/Socket : Using")) {
    auto ifs = interfaceList(after(t, "Using"), false);
    (has(t, "Bootstrap") ? p.bootstrapIfs : p.socketIfs) = ifs;
    for (const auto& i : ifs)
      if (isVirtual(i)) {
        facts_["virtual_interface_selected"].push_back(ev);
        break;
      }
  } else if (has(t, "NET/IB : Using")) {
    std::string rest = after(t, "NET/IB : Using");
    p.hcas = interfaceList(rest, true);
    p.relaxedOrdering = has(rest, "[RO]");
    if (has(rest, "OOB ")) p.oobIf = ifName(words(after(rest, "OOB ")).front());
  } else if (has(t, "NET/IB : No device")) {
    p.ibNoDevice = true;
  } else if (has(t, "Unable to open device") || has(t, "ibv_open_device failed")) {
    p.ibOpenFailed = true;
    facts_["rdma_device_unusable"].push_back(ev);
  } else if (has(t, "GPU Direct RDMA Disabled for HCA")) {
    auto w = words(after(t, "for HCA"));
    p.gdrDisabledHcas.insert(w.size() > 1 ? w[1] : "?");
    facts_["gdr_disabled"].push_back(ev);
  } else if (has(t, "GPU Direct RDMA Enabled")) {
    p.gdrUsed = true;
  } else if ((has(t, "Channel ") || has(t, "Ring ")) && !has(t, "->")) {
    // "Channel 00/32 :    0" lists a ring; the number after '/' is the channel count.
    std::size_t slash = t.find('/');
    if (slash != std::string::npos) nchannels_ = std::max(nchannels_, std::atoi(t.c_str() + slash + 1));
    algos_.insert("Ring");
  } else if (has(t, "Trees")) {
    algos_.insert("Tree");
  } else if (has(t, "NVLS multicast")) {
    algos_.insert("NVLS");
  } else if (has(t, "CollNet ")) {
    algos_.insert("CollNet");
  } else if (has(t, "Init START") || has(t, "Init COMPLETE")) {
    auto w = words(t);
    int rank = -1, nranks = 0;
    std::string comm;
    for (std::size_t i = 0; i + 1 < w.size(); ++i) {
      if (w[i] == "rank") rank = std::atoi(w[i + 1].c_str());
      if (w[i] == "nranks") nranks = std::atoi(w[i + 1].c_str());
      if (w[i] == "commId") comm = w[i + 1];
    }
    if (rank < 0 || nranks <= 0) return;
    if (comm.empty()) comm = fmt::format("nranks={}", nranks);
    Comm& c = comms_[comm];
    c.nranks = nranks;
    Evidence e = ev;
    e.rank = rank;
    (has(t, "Init START") ? c.started : c.completed).emplace(rank, e);
  }
}

void InfoExtractor::finish() {
  if (versionEvidence_.size() > 1) {
    std::string list;
    for (const auto& [v, e] : versionEvidence_) {
      facts_["nccl_versions_differ"].push_back(e);
      list += (list.empty() ? "" : ", ") + v;
    }
    flags_.push_back(
        {"nccl_versions_differ", "ranks report different NCCL versions: " + list, versionEvidence_.begin()->second});
  }
  for (const auto& [who, p] : procs_) {
    std::vector<std::string> ifs = p.socketIfs;
    ifs.insert(ifs.end(), p.bootstrapIfs.begin(), p.bootstrapIfs.end());
    std::set<std::string> seen;
    for (const auto& i : ifs) {
      if (isVirtual(i) && seen.insert(i).second)
        flags_.push_back(
            {"virtual_interface_selected",
             fmt::format("{} uses interface {}, a container/virtual device (not routable between nodes)", who, i),
             facts_["virtual_interface_selected"].front()});
    }
    if (p.network == "Socket" && p.ibOpenFailed) {
      facts_["socket_fallback_with_rdma"].push_back(p.networkEvidence);
      flags_.push_back({"socket_fallback_with_rdma",
                        who + " fell back to TCP sockets although it has an RDMA device NCCL could not open",
                        p.networkEvidence});
    }
    for (const auto& h : p.gdrDisabledHcas)
      flags_.push_back({"gdr_disabled", fmt::format("{}: GPU Direct RDMA disabled for HCA {}", who, h),
                        facts_["gdr_disabled"].front()});
  }
  if (testHeaders_ > 1) {
    facts_["nccl_tests_separate_worlds"].push_back(secondHeader_);
    flags_.push_back(
        {"nccl_tests_separate_worlds",
         fmt::format("nccl-tests printed its header {} times: each process ran as its own world", testHeaders_),
         secondHeader_});
  }
  for (const auto& [host, n] : testDevicesPerHost_) {
    if (testHeader_ && testHeaders_ == 1 && !testProgress_ && n > 1 && testDevicesPerHost_.size() == 1) {
      facts_["nccl_tests_stalled"].push_back(testEvidence_);
      flags_.push_back({"nccl_tests_stalled",
                        fmt::format("nccl-tests listed {} GPUs on {} and then printed no result and no error", n, host),
                        testEvidence_});
    }
  }
}

}  // namespace pf::doctor
