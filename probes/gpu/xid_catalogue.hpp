// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NVIDIA's Xid catalogue (gpu/xid_catalogue.tsv, embedded at build time): what each Xid means and the action
// NVIDIA's "Analyzing Xid Errors with the Xid Catalog" gives for it, folded into the gate's four classes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pf/result.hpp"

namespace pf::probes {

struct XidEntry {
  int code = 0;
  std::string mnemonic, description;
  std::string immediate, investigatory;  ///< the catalogue's resolution buckets: "RESET_GPU", "CONTACT_SUPPORT"...
};

/// What the gate does about an Xid, from the catalogue's immediate action:
///   reset_gpu     - RESET_GPU and the workflows that end in a reset (48, 74, 144-150): fail
///   drain_node    - RESTART_BM (79), CHECK_MECHANICALS, CONTACT_SUPPORT, UPDATE_SWFW, RESTART_VM: fail
///   application   - RESTART_APP: the application was stopped, the GPU needs no action: warn
///   informational - IGNORE, Xid 45's and 154's workflows (they follow another Xid): listed, no finding
///   unknown       - not in the catalogue (and every SXid, which the Fabric Manager guide lists): warn
enum class XidClass { kResetGpu, kDrainNode, kApplication, kInformational, kUnknown };

const char* toString(XidClass c);
/// The catalogue's entry for `code`; nullopt when it has none.
std::optional<XidEntry> findXid(int code);
XidClass classify(const std::optional<XidEntry>& e);
/// The status a class gives the probe (kPass for informational: listed only).
Status statusOf(XidClass c);
/// What to do, naming the GPU's PCI address `pci`.
std::string xidRemedy(XidClass c, const std::optional<XidEntry>& e, const std::string& pci);

/// gpu/xid_catalogue.tsv as (file name, text), embedded by probes/CMakeLists.txt (pf_embed_files).
const std::vector<std::pair<std::string_view, std::string_view>>& embeddedXidFiles();

}  // namespace pf::probes
