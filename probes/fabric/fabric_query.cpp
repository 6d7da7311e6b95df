// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libfabric side of rdma_library.hpp: fi_getinfo with provider "efa" and FI_EP_RDM, the query aws-ofi-nccl makes.
// "No data available" (-FI_ENODATA) here while sysfs lists EFA devices is the container-without-devices case.
#include <rdma/fabric.h>
#include <rdma/fi_errno.h>

#include <cstring>

#include "rdma_library.hpp"

namespace pf::probes {

FabricQuery queryEfaFabric() {
  FabricQuery q;
  const uint32_t v = fi_version();
  q.version = std::to_string(FI_MAJOR(v)) + "." + std::to_string(FI_MINOR(v));
  fi_info* hints = fi_allocinfo();
  if (!hints) {
    q.result = "fi_allocinfo failed";
    return q;
  }
  hints->fabric_attr->prov_name = strdup("efa");
  hints->ep_attr->type = FI_EP_RDM;
  fi_info* info = nullptr;
  int rc = fi_getinfo(FI_VERSION(1, 14), nullptr, nullptr, 0, hints, &info);
  q.available = true;
  if (rc != 0) {
    q.result = std::string("fi_getinfo: ") + fi_strerror(-rc);
  } else {
    int n = 0;
    for (fi_info* i = info; i; i = i->next, ++n)
      if (i->domain_attr && i->domain_attr->name) q.domains.emplace_back(i->domain_attr->name);
    q.result = std::to_string(n) + " endpoint type(s)";
    fi_freeinfo(info);
  }
  fi_freeinfo(hints);
  return q;
}

}  // namespace pf::probes
