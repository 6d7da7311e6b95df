// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libibverbs side of rdma_library.hpp: the devices and ports as user space (NCCL's IB transport) sees them.
#include <infiniband/verbs.h>

#include "efa_caps.hpp"
#include "rdma_library.hpp"

namespace pf::probes {
namespace {

std::string stateName(ibv_port_state s) {
  switch (s) {
    case IBV_PORT_DOWN: return "DOWN";
    case IBV_PORT_INIT: return "INIT";
    case IBV_PORT_ARMED: return "ARMED";
    case IBV_PORT_ACTIVE: return "ACTIVE";
    case IBV_PORT_ACTIVE_DEFER: return "ACTIVE_DEFER";
    default: return "NOP";
  }
}

std::string linkLayerName(uint8_t l) {
  switch (l) {
    case IBV_LINK_LAYER_INFINIBAND: return "InfiniBand";
    case IBV_LINK_LAYER_ETHERNET: return "Ethernet";
    default: return "Unspecified";
  }
}

}  // namespace

namespace {

VerbsQuery ask() {
  VerbsQuery q;
  int n = 0;
  ibv_device** list = ibv_get_device_list(&n);
  if (!list) {
    q.note = "ibv_get_device_list failed (is ib_uverbs loaded?)";
    return q;
  }
  q.available = true;
  q.deviceCount = n;
  for (int i = 0; i < n; ++i) {
    ibv_context* ctx = ibv_open_device(list[i]);
    const std::string name = ibv_get_device_name(list[i]);
    if (!ctx) {
      q.note += (q.note.empty() ? "" : "; ") + ("ibv_open_device(" + name + ") failed");
      continue;
    }
    if (auto read = efaRdmaRead(ctx)) q.efaRdmaRead[name] = *read;
    ibv_device_attr attr{};
    if (ibv_query_device(ctx, &attr) == 0)
      for (uint8_t p = 1; p <= attr.phys_port_cnt; ++p) {
        ibv_port_attr pa{};
        if (ibv_query_port(ctx, p, &pa) != 0) continue;
        q.ports.push_back({name, p, stateName(pa.state), 128 << pa.active_mtu, linkLayerName(pa.link_layer)});
      }
    ibv_close_device(ctx);
  }
  ibv_free_device_list(list);
  return q;
}

}  // namespace

const VerbsQuery& queryVerbs() {
  static const VerbsQuery q = ask();
  return q;
}

}  // namespace pf::probes
