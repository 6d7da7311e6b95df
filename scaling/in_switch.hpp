// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NCCL's in-switch reductions, for the capacity model (fabric_model.hpp), where a probe document says a node
// has them:
//   NVLS (NVLink SHARP, NCCL 2.17+): the NVSwitches reduce and multicast. Needs GPUs whose driver reports
//        CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED (probe.gpu's `multicast_supported`, the test NCCL itself
//        makes), at least two of them on the node, and NCCL_NVLS_ENABLE not 0.
//   CollNet (SHARP in the InfiniBand switches): needs a net plugin that exports ncclCollNetPlugin_vN
//        (probe.nccl's `collnet_plugin`) and NCCL_COLLNET_ENABLE=1, which is off by default.
// The costs are modelled from the bytes each GPU and each NIC moves (fabric_model.cpp), at the bandwidths the
// ring sweeps measured; no sweep of this project has run either algorithm, so predictions that use one say so.
#pragma once

#include <string>

#include "pf/result.hpp"

namespace pf::scaling {

struct InSwitchReductions {
  bool nvls = false, collNet = false;
  std::string nvlsWhy, collNetWhy;  ///< the evidence when available, else what is missing and on which node
  std::string source;               ///< the probe document's path
};

/// What a probe document (`preflight probe --json`, one or several nodes) says about NVLS and CollNet. Each is
/// available only when every node in the document has it: a job's collectives run at its slowest node's pace.
InSwitchReductions inSwitchFromProbe(const RunReport& probe, const std::string& path);

}  // namespace pf::scaling
