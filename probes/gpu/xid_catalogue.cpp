// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "gpu/xid_catalogue.hpp"

#include <fmt/format.h>

#include <map>

#include "probe_util.hpp"

namespace pf::probes {
namespace {

constexpr const char* kXidCatalogueUrl = "https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html";

std::map<int, XidEntry> loadXidCatalogue() {
  std::map<int, XidEntry> out;
  std::string_view text = embeddedXidFiles().front().second;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    for (std::size_t from = 0;;) {
      const std::size_t tab = line.find('\t', from);
      cols.emplace_back(line.substr(from, tab == std::string_view::npos ? std::string_view::npos : tab - from));
      if (tab == std::string_view::npos) break;
      from = tab + 1;
    }
    auto code = cols.size() == 5 ? parseInt(cols[0]) : std::nullopt;
    if (!code) continue;  // the file is ours and tested (xid_catalogue_test.cpp): a malformed row cannot ship
    out[static_cast<int>(*code)] = {static_cast<int>(*code), cols[1], cols[2], cols[3], cols[4]};
  }
  return out;
}

}  // namespace

const char* toString(XidClass c) {
  switch (c) {
    case XidClass::kResetGpu: return "reset_gpu";
    case XidClass::kDrainNode: return "drain_node";
    case XidClass::kApplication: return "application";
    case XidClass::kInformational: return "informational";
    case XidClass::kUnknown: break;
  }
  return "unknown";
}

std::optional<XidEntry> findXid(int code) {
  static const std::map<int, XidEntry> catalogue = loadXidCatalogue();
  auto it = catalogue.find(code);
  if (it == catalogue.end()) return std::nullopt;
  return it->second;
}

XidClass classify(const std::optional<XidEntry>& e) {
  if (!e) return XidClass::kUnknown;
  const std::string& a = e->immediate;
  if (a == "RESET_GPU" || a == "WORKFLOW_XID_48" || a == "WORKFLOW_NVLINK_ERR" || a == "WORKFLOW_NVLINK5_ERR")
    return XidClass::kResetGpu;
  if (a == "RESTART_BM" || a == "CHECK_MECHANICALS" || a == "CONTACT_SUPPORT" || a == "UPDATE_SWFW" ||
      a == "RESTART_VM")
    return XidClass::kDrainNode;
  if (a == "RESTART_APP") return XidClass::kApplication;
  if (a == "IGNORE" || a == "WORKFLOW_XID_45" || a == "XID_154") return XidClass::kInformational;
  return XidClass::kUnknown;
}

Status statusOf(XidClass c) {
  switch (c) {
    case XidClass::kResetGpu:
    case XidClass::kDrainNode: return Status::kFail;
    case XidClass::kApplication:
    case XidClass::kUnknown: return Status::kWarn;
    case XidClass::kInformational: break;
  }
  return Status::kPass;
}

std::string xidRemedy(XidClass c, const std::optional<XidEntry>& e, const std::string& pci) {
  const std::string a = e ? e->immediate : "";
  switch (c) {
    case XidClass::kResetGpu:
      return fmt::format(
          "drain the GPU's jobs and reset it (nvidia-smi -r -i {}) or reboot the node; if the Xid returns after the "
          "reset, {} (NVIDIA's catalogue: {})",
          pci,
          e && e->investigatory == "CONTACT_SUPPORT" ? "contact the vendor (RMA)" : "drain the node and investigate",
          a);
    case XidClass::kDrainNode:
      if (a == "RESTART_BM")
        return fmt::format(
            "drain the node and power-cycle it (a GPU reset cannot reach a GPU off the bus); reseat {} "
            "and its power if it recurs, then RMA (NVIDIA's catalogue: RESTART_BM)",
            pci);
      if (a == "CHECK_MECHANICALS")
        return fmt::format("drain the node and check GPU {}'s power cables and seating (CHECK_MECHANICALS)", pci);
      return fmt::format("drain the node and follow NVIDIA's catalogue for this Xid ({}; {})", a, kXidCatalogueUrl);
    case XidClass::kApplication:
      return fmt::format(
          "an application on GPU {} was stopped ({}): restart it; the GPU needs no action unless the "
          "Xid repeats without an application fault (then reset it)",
          pci, a);
    case XidClass::kInformational: return "";
    case XidClass::kUnknown: break;
  }
  return fmt::format("unknown: see NVIDIA's Xid catalogue ({}), or for an SXid the Fabric Manager User Guide",
                     kXidCatalogueUrl);
}

}  // namespace pf::probes
