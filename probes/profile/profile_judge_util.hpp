// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The judging helper the profile's judges share (profile_judge.cpp, profile_placement.cpp): each judged item is a
// row of probe.profile, and each one that fails a finding with evidence and a remedy.
#pragma once

#include <fmt/format.h>

#include "probe.hpp"
#include "probe_util.hpp"
#include "profile/node_profile.hpp"

namespace pf::probes::profile_detail {

class Judge {
 public:
  Judge(Result& r) : r_(r) {}

  /// One judged item. @param ok whether found meets expected
  void item(bool ok, const std::string& part, const std::string& what, const Json& expected, const Json& found,
            const std::string& wantText, const std::string& foundText, const std::string& source,
            const std::string& remedy, Status bad = Status::kFail) {
    const Status s = ok ? Status::kPass : bad;
    r_.rows.push_back({{"part", part},
                       {"item", what},
                       {"expected", expected},
                       {"found", found},
                       {"status", toString(s)},
                       {"source", source}});
    if (ok) return;
    const std::string msg = fmt::format("{}: {} {}, the profile wants {}", part, what, foundText, wantText);
    findings_.add(s, msg, remedy);
    addEvidence(r_, part + " " + what, Json{{"expected", expected}, {"found", found}}, source);
  }
  void apply(const std::string& pass) { findings_.apply(r_, pass); }

 private:
  Result& r_;
  Findings findings_;
};

inline std::string atLeast(long long v, const char* unit = "") { return fmt::format("at least {}{}", v, unit); }

/// Whether the GPU shares a bridge below the root port with the RDMA device (profile_placement.cpp).
bool sharesPcieSwitch(const GpuFacts& g, const HcaFacts& h);
/// Whether an RDMA device (EFA aside) sits on the GPU's NUMA node; false when the platform does not say.
bool nicOnNumaNode(const GpuFacts& g, const NodeFacts& f);
/// Whether an RDMA device (EFA aside) shares a PCIe switch with the GPU.
bool nicBelowSwitch(const GpuFacts& g, const NodeFacts& f);

/// GPU-NIC placement (profile_placement.cpp): [placement] gpu_nic_numa and gpu_nic_pcie_switch.
void judgePlacement(Judge& j, const NodeFacts& f, const NodeProfile& p);

}  // namespace pf::probes::profile_detail
