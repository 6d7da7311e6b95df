// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What the user-space RDMA libraries report on a live node, for the ib and efa probes to set beside sysfs:
// libibverbs (ibv_get_device_list, ibv_query_port) and libfabric (fi_getinfo with the efa provider). Each is an
// optional backend: probes/verbs/ and probes/fabric/ compile the real calls when the library is installed, and a
// stand-in that says "not built with ..." otherwise. The probes call these only on a live node.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace pf::probes {

struct VerbsPort {
  std::string device;
  int port = 1;
  std::string state;      ///< "ACTIVE", "DOWN", ... (ibv_port_state_str spelling without the PORT_ prefix)
  int activeMtu = 0;      ///< bytes (256..4096)
  std::string linkLayer;  ///< "InfiniBand", "Ethernet", "Unspecified"
};

struct VerbsQuery {
  bool available = false;  ///< the library is built in and ibv_get_device_list answered
  std::string note;        ///< why not, or a problem opening a device
  int deviceCount = 0;
  std::vector<VerbsPort> ports;
  /// EFA devices only: efadv_query_device's EFADV_DEVICE_ATTR_CAPS_RDMA_READ (libefa), by device name.
  std::map<std::string, bool> efaRdmaRead;
};

/// ibv_get_device_list, then ibv_open_device + ibv_query_port for every port: once per process (the ib and efa
/// probes share the answer instead of opening every device twice).
const VerbsQuery& queryVerbs();

struct FabricQuery {
  bool available = false;            ///< the library is built in and fi_getinfo ran
  std::string version;               ///< fi_version(), "1.17"
  std::string result;                ///< "3 endpoints" or fi_strerror of the failure ("No data available")
  std::vector<std::string> domains;  ///< efa domain names ("rdmap16s27-rdm")
};

/// fi_getinfo for provider efa, reliable datagram endpoints (what aws-ofi-nccl asks for).
FabricQuery queryEfaFabric();

}  // namespace pf::probes
