// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/nccl_diag.hpp"

#include <algorithm>
#include <cctype>

namespace pf {
namespace {

constexpr std::string_view kDiagMark = "NCCL DIAG ";

bool diagContains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

std::string diagLower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string diagTrim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

// Problems, as opposed to notices and differences: the markers of NCCL's failed or incomplete checks
// (src/diagnostics/p2p.cc, src/ras/diagnostics_gpu.cc as their report lines word them).
bool ncclDiagIsProblem(const std::string& area, const std::string& text) {
  static const char* const markers[] = {
      "mismatch",   "failed",   "returned", "unavailable", "uncorrected", "inactive link", "at or above threshold",
      "incomplete", "could not"};
  const std::string t = diagLower(text);
  for (const char* m : markers)
    if (diagContains(t, m) && !diagContains(t, "mismatch across") && !diagContains(t, "differ across")) return true;
  // "p2p: 4/6 directed GPU P2P edges verified": some edge was not verified.
  if (area == "p2p" && diagContains(t, "edges verified") && !diagContains(t, "all ")) return true;
  return false;
}

std::optional<NcclDiagLine> parseNcclDiagLine(std::string_view line) {
  const std::size_t at = line.find(kDiagMark);
  if (at == std::string_view::npos) return std::nullopt;
  NcclDiagLine d;
  // "<host>:<pid> " before the mark (a launcher may put its own prefix before that): the last word's host.
  const std::string prefix = diagTrim(line.substr(0, at));
  const std::string word =
      prefix.substr(prefix.find_last_of(' ') == std::string::npos ? 0 : prefix.find_last_of(' ') + 1);
  // A launcher's tag glued to it ("[default0]:node01:15", torchrun) is not part of the host.
  const std::size_t tag = word.rfind("]:");
  const std::string who = tag == std::string::npos ? word : word.substr(tag + 2);
  if (const std::size_t colon = who.rfind(':'); colon != std::string::npos && colon > 0) d.host = who.substr(0, colon);
  std::string_view rest = line.substr(at + kDiagMark.size());
  if (rest.starts_with('[')) {
    const std::size_t close = rest.find(']');
    if (close != std::string_view::npos) {
      d.tag = std::string(rest.substr(1, close - 1));
      rest.remove_prefix(close + 1);
    }
  }
  d.text = diagTrim(rest);
  if (!d.tag.empty()) {
    const std::size_t colon = d.text.find(':');
    d.area = colon == std::string::npos ? d.text.substr(0, d.text.find(' ')) : d.text.substr(0, colon);
  }
  return d;
}

std::vector<NcclDiagLine> parseNcclDiag(const std::string& output) {
  std::vector<NcclDiagLine> out;
  std::size_t from = 0;
  while (from < output.size()) {
    std::size_t nl = output.find('\n', from);
    if (nl == std::string::npos) nl = output.size();
    if (auto d = parseNcclDiagLine(std::string_view(output.data() + from, nl - from))) out.push_back(std::move(*d));
    from = nl + 1;
  }
  return out;
}

std::string ncclDiagRemedy(const std::string& area, const std::string& text) {
  const std::string a = diagLower(area), t = diagLower(text);
  if (diagContains(t, "acs") || diagContains(t, "iommu"))
    return "PCIe ACS or the IOMMU redirects peer traffic: disable ACS on the PCIe switches (setpci, or the BIOS) or "
           "boot with iommu=pt, then rerun; see NCCL's troubleshooting guide on ACS";
  if (a == "p2p")
    return "GPU peer-to-peer between the GPUs NCCL names does not work: check the NVLinks (nvidia-smi nvlink -s), PCIe "
           "ACS/IOMMU (lspci -vvv | grep ACSCtl), the container's IPC and peer access, then reset the GPUs; drain "
           "the node if it persists";
  if (diagContains(a, "net"))
    return "the network check between nodes fell short: check the HCA ports NCCL uses (ibstat: state, rate), the "
           "cables and NCCL_IB_HCA; the pair phase names the slow pair";
  if (diagContains(a, "gpu inventory"))
    return "ranks see different GPU counts or models: check CUDA_VISIBLE_DEVICES and the gpu probe on each node";
  if (diagContains(a, "driver"))
    return "install the same NVIDIA driver on every node (the gpu probe shows each node's version)";
  if (diagContains(a, "ecc"))
    return "a GPU has uncorrected ECC errors: drain its jobs and reset it (nvidia-smi -r); the gpu_health and "
           "gpu_xid probes name the GPU";
  if (diagContains(a, "nvlink") || diagContains(a, "link"))
    return "a GPU has inactive NVLinks: reset the GPU and check the fabric manager (systemctl status "
           "nvidia-fabricmanager, nvidia-smi nvlink -s)";
  if (diagContains(a, "environment") || diagContains(t, "nccl_"))
    return "NCCL_* variables differ between ranks: set them the same for every rank (preflight env shows them)";
  if (diagContains(a, "xid")) return "the gpu_xid probe classes the Xid with NVIDIA's catalogue and names the action";
  return "read NCCL's Diagnostics troubleshooting page for this check, and rerun with NCCL_DEBUG=INFO "
         "NCCL_DEBUG_SUBSYS=DIAG for its detail";
}

}  // namespace pf
