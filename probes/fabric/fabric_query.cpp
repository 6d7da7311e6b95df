// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libfabric side of rdma_library.hpp: fi_getinfo with provider "efa" and FI_EP_RDM, the query aws-ofi-nccl makes.
// "No data available" (-FI_ENODATA) here while sysfs lists EFA devices is the container-without-devices case.
//
// libfabric is opened when the probe runs, not linked: Debian's libfabric pulls in libpsm_infinipath, whose
// libinfinipath constructor polls for its hardware with usleep at load time, so a program merely linked against
// libfabric takes 0.21 s to start and exit on this machine (0.00 s without), and every preflight command paid
// it (docs/performance.md). A node without libfabric now gets "not loadable" from the probe instead of a binary
// that does not start.
#include <rdma/fabric.h>
#include <rdma/fi_errno.h>

#include <csignal>
#include <cstring>
#include <iterator>
#include <string>

#include "pf/shared_library.hpp"
#include "rdma_library.hpp"

namespace pf::probes {
namespace {

// The soname of libfabric 1.x: the ABI the headers describe (FI_MAJOR_VERSION 1).
constexpr const char* kLibfabric = "libfabric.so.1";

struct FabricApi {
  std::string error;  // why it cannot be used; empty when every function resolved
  decltype(&fi_version) version = nullptr;
  decltype(&fi_dupinfo) dupinfo = nullptr;
  decltype(&fi_getinfo) getinfo = nullptr;
  decltype(&fi_freeinfo) freeinfo = nullptr;
  decltype(&fi_strerror) strerror = nullptr;
};

// Opened leaving the signal dispositions as they were. libinfinipath's constructor (through libfabric's PSM
// provider) catches SIGINT, SIGTERM and the crash signals to write a backtrace file and exit(1): loaded after
// main set its own (cli/run_guards.cpp), it would turn a Slurm prolog's SIGTERM into "a check failed".
// The library stays open for the process (fi_freeinfo must outlive every fi_info).
FabricApi openLibfabric() {
  constexpr int kSignals[] = {SIGINT, SIGTERM, SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE};
  struct sigaction saved[std::size(kSignals)] = {};
  for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], nullptr, &saved[i]);
  SharedLibrary lib(kLibfabric);
  for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &saved[i], nullptr);
  FabricApi api;
  lib.bind("fi_version", api.version);
  lib.bind("fi_dupinfo", api.dupinfo);
  lib.bind("fi_getinfo", api.getinfo);
  lib.bind("fi_freeinfo", api.freeinfo);
  lib.bind("fi_strerror", api.strerror);
  api.error = lib.error();
  return api;
}

}  // namespace

FabricQuery queryEfaFabric() {
  FabricQuery q;
  static const FabricApi fi = openLibfabric();
  if (!fi.error.empty()) {
    q.result = fi.error;
    return q;
  }
  const uint32_t v = fi.version();
  q.version = std::to_string(FI_MAJOR(v)) + "." + std::to_string(FI_MINOR(v));
  fi_info* hints = fi.dupinfo(nullptr);  // what fi_allocinfo() expands to
  if (!hints) {
    q.result = "fi_allocinfo failed";
    return q;
  }
  hints->fabric_attr->prov_name = strdup("efa");
  hints->ep_attr->type = FI_EP_RDM;
  fi_info* info = nullptr;
  int rc = fi.getinfo(FI_VERSION(1, 14), nullptr, nullptr, 0, hints, &info);
  q.available = true;
  if (rc != 0) {
    q.result = std::string("fi_getinfo: ") + fi.strerror(-rc);
  } else {
    int n = 0;
    for (fi_info* i = info; i; i = i->next, ++n)
      if (i->domain_attr && i->domain_attr->name) q.domains.emplace_back(i->domain_attr->name);
    q.result = std::to_string(n) + " endpoint type(s)";
    fi.freeinfo(info);
  }
  fi.freeinfo(hints);
  return q;
}

}  // namespace pf::probes
