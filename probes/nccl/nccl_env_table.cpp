// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Source of the table: NCCL User Guide, "Environment Variables" (docs.nvidia.com/deeplearning/nccl/user-guide/
// docs/env.html) and "Troubleshooting" (docs/troubleshooting.html beside it). Names only NCCL's
// own variables plus the NCCL_-prefixed ones PyTorch reads (renamed TORCH_NCCL_* in PyTorch 2.2).
#include "nccl/nccl_env_table.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "probe_util.hpp"

namespace pf::probes {
namespace {

using C = NcclVarClass;
constexpr const char* kLevels = "level:LOC|NVL|PIX|PXB|PHB|SYS";

// clang-format off
const NcclVarInfo kVars[] = {
  // System configuration
  {"NCCL_SOCKET_IFNAME", C::kSystem, "", "checked by the net probe"},
  {"NCCL_SOCKET_FAMILY", C::kSystem, "enumcs:AF_INET|AF_INET6", ""},
  {"NCCL_SOCKET_MAGIC", C::kSystem, "", ""},
  {"NCCL_SOCKET_RETRY_CNT", C::kSystem, "uint", ""},
  {"NCCL_SOCKET_RETRY_SLEEP_MSEC", C::kSystem, "uint", ""},
  {"NCCL_SOCKET_NTHREADS", C::kSystem, "range:1:16", ""},
  {"NCCL_NSOCKS_PERTHREAD", C::kSystem, "range:1:64", ""},
  {"NCCL_CROSS_NIC", C::kSystem, "enum:0|1|2", ""},
  {"NCCL_IB_HCA", C::kSystem, "", "checked by the ib probe"},
  {"NCCL_IB_TIMEOUT", C::kSystem, "ibtimeout", ""},
  {"NCCL_IB_RETRY_CNT", C::kSystem, "range:0:7", ""},
  {"NCCL_IB_GID_INDEX", C::kSystem, "int", ""},
  {"NCCL_IB_ADDR_FAMILY", C::kSystem, "enumcs:AF_INET|AF_INET6", ""},
  {"NCCL_IB_ADDR_RANGE", C::kSystem, "", ""},
  {"NCCL_IB_ROCE_VERSION_NUM", C::kSystem, "enum:1|2", ""},
  {"NCCL_IB_SL", C::kSystem, "range:0:15", ""},
  {"NCCL_IB_TC", C::kSystem, "range:0:255", ""},
  {"NCCL_IB_FIFO_TC", C::kSystem, "range:0:255", ""},
  {"NCCL_IB_RETURN_ASYNC_EVENTS", C::kSystem, "bool", ""},
  {"NCCL_OOB_NET_ENABLE", C::kSystem, "bool", ""},
  {"NCCL_OOB_NET_IFNAME", C::kSystem, "", "checked by the net probe"},
  {"NCCL_UID_STAGGER_THRESHOLD", C::kSystem, "uint", ""},
  {"NCCL_UID_STAGGER_RATE", C::kSystem, "uint", ""},
  {"NCCL_NET", C::kSystem, "", ""},
  {"NCCL_NET_PLUGIN", C::kSystem, "", ""},
  {"NCCL_TUNER_PLUGIN", C::kSystem, "", ""},
  {"NCCL_PROFILER_PLUGIN", C::kSystem, "", ""},
  {"NCCL_ENV_PLUGIN", C::kSystem, "", ""},
  {"NCCL_IGNORE_CPU_AFFINITY", C::kSystem, "bool", ""},
  {"NCCL_CONF_FILE", C::kSystem, "", ""},
  {"NCCL_DEBUG", C::kSystem, "enum:VERSION|WARN|INFO|TRACE|ABORT", ""},
  {"NCCL_DEBUG_FILE", C::kSystem, "debugfile", ""},
  {"NCCL_DEBUG_SUBSYS", C::kSystem, "subsys", ""},
  {"NCCL_DEBUG_TIMESTAMP_FORMAT", C::kSystem, "", ""},
  {"NCCL_DEBUG_TIMESTAMP_LEVELS", C::kSystem, "", ""},
  {"NCCL_COLLNET_ENABLE", C::kSystem, "bool", ""},
  {"NCCL_COLLNET_NODE_THRESHOLD", C::kSystem, "uint", ""},
  {"NCCL_CTA_POLICY", C::kSystem, "", ""},
  {"NCCL_TOPO_FILE", C::kSystem, "", ""},
  {"NCCL_TOPO_DUMP_FILE", C::kSystem, "", ""},
  {"NCCL_SET_THREAD_NAME", C::kSystem, "bool", ""},
  {"NCCL_HOSTID", C::kSystem, "", ""},
  {"NCCL_COMM_ID", C::kSystem, "", ""},
  {"NCCL_IPC_USE_ABSTRACT_SOCKET", C::kSystem, "bool", ""},
  {"NCCL_IGNORE_NET_MISMATCH", C::kSystem, "bool", ""},
  {"NCCL_WORK_FIFO_BYTES", C::kSystem, "uint", ""},
  {"NCCL_TUNER_CONFIG_FILE", C::kSystem, "", ""},
  {"NCCL_PROFILE_EVENT_MASK", C::kSystem, "", ""},
  // Debugging section: fine as a work-around, not to be kept in production scripts.
  {"NCCL_IB_DISABLE", C::kDebug, "bool", ""},
  {"NCCL_IB_QPS_PER_CONNECTION", C::kDebug, "range:1:128", ""},
  {"NCCL_IB_SPLIT_DATA_ON_QPS", C::kDebug, "bool", ""},
  {"NCCL_IB_PCI_RELAXED_ORDERING", C::kDebug, "enum:0|1|2", ""},
  {"NCCL_IB_ADAPTIVE_ROUTING", C::kDebug, "bool", ""},
  {"NCCL_IB_AR_THRESHOLD", C::kDebug, "uint", ""},
  {"NCCL_IB_ECE_ENABLE", C::kDebug, "bool", ""},
  {"NCCL_IB_MERGE_NICS", C::kDebug, "bool", ""},
  {"NCCL_IB_MERGE_VFS", C::kDebug, "bool", ""},
  {"NCCL_IB_USE_INLINE", C::kDebug, "bool", ""},
  {"NCCL_P2P_DISABLE", C::kDebug, "bool", ""},
  {"NCCL_P2P_LEVEL", C::kDebug, kLevels, ""},
  {"NCCL_P2P_DIRECT_DISABLE", C::kDebug, "bool", ""},
  {"NCCL_SHM_DISABLE", C::kDebug, "bool", ""},
  {"NCCL_NET_GDR_LEVEL", C::kDebug, "level:LOC|PIX|PXB|PHB|SYS", ""},
  {"NCCL_NET_GDR_READ", C::kDebug, "bool", ""},
  {"NCCL_NET_GDR_C2C", C::kDebug, "bool", ""},
  {"NCCL_NET_SHARED_BUFFERS", C::kDebug, "bool", ""},
  {"NCCL_NET_SHARED_COMMS", C::kDebug, "bool", ""},
  {"NCCL_NET_FORCE_FLUSH", C::kDebug, "bool", ""},
  {"NCCL_DMABUF_ENABLE", C::kDebug, "bool", ""},
  {"NCCL_BUFFSIZE", C::kDebug, "buffsize", ""},
  {"NCCL_NTHREADS", C::kDebug, "enum:64|128|256|512", ""},
  {"NCCL_MAX_CTAS", C::kDebug, "range:1:64", ""},
  {"NCCL_MIN_CTAS", C::kDebug, "range:1:64", ""},
  {"NCCL_CGA_CLUSTER_SIZE", C::kDebug, "range:0:8", ""},
  {"NCCL_MAX_P2P_NCHANNELS", C::kDebug, "uint", ""},
  {"NCCL_MIN_P2P_NCHANNELS", C::kDebug, "uint", ""},
  {"NCCL_NCHANNELS_PER_NET_PEER", C::kDebug, "uint", ""},
  {"NCCL_P2P_NET_CHUNKSIZE", C::kDebug, "uint", ""},
  {"NCCL_P2P_NVL_CHUNKSIZE", C::kDebug, "uint", ""},
  {"NCCL_P2P_PCI_CHUNKSIZE", C::kDebug, "uint", ""},
  {"NCCL_P2P_LL_THRESHOLD", C::kDebug, "uint", ""},
  {"NCCL_ALLOC_P2P_NET_LL_BUFFERS", C::kDebug, "bool", ""},
  {"NCCL_CUMEM_ENABLE", C::kDebug, "bool", ""},
  {"NCCL_CUMEM_HOST_ENABLE", C::kDebug, "bool", ""},
  {"NCCL_NVLS_ENABLE", C::kDebug, "enum:0|1|2", ""},
  {"NCCL_NVLS_NCHANNELS", C::kDebug, "uint", ""},
  {"NCCL_NVLS_CHUNKSIZE", C::kDebug, "uint", ""},
  {"NCCL_MNNVL_ENABLE", C::kDebug, "enum:0|1|2", ""},
  {"NCCL_MNNVL_UUID", C::kDebug, "", ""},
  {"NCCL_MNNVL_CLIQUE_ID", C::kDebug, "", ""},
  {"NCCL_PXN_DISABLE", C::kDebug, "bool", ""},
  {"NCCL_P2P_PXN_LEVEL", C::kDebug, "enum:0|1|2", ""},
  {"NCCL_NVB_DISABLE", C::kDebug, "bool", ""},
  {"NCCL_RUNTIME_CONNECT", C::kDebug, "bool", ""},
  {"NCCL_GRAPH_REGISTER", C::kDebug, "bool", ""},
  {"NCCL_LOCAL_REGISTER", C::kDebug, "bool", ""},
  {"NCCL_LEGACY_CUDA_REGISTER", C::kDebug, "bool", ""},
  {"NCCL_GRAPH_MIXING_SUPPORT", C::kDebug, "bool", ""},
  {"NCCL_SET_STACK_SIZE", C::kDebug, "bool", ""},
  {"NCCL_ALGO", C::kDebug, "algo", ""},
  {"NCCL_PROTO", C::kDebug, "proto", ""},
  {"NCCL_LAUNCH_MODE", C::kDebug, "enum:PARALLEL|GROUP", ""},
  {"NCCL_COMM_BLOCKING", C::kDebug, "bool", ""},
  {"NCCL_CHECK_MODE", C::kDebug, "enum:DEFAULT|DEBUG_LOCAL|DEBUG_GLOBAL", ""},
  {"NCCL_RAS_ENABLE", C::kDebug, "bool", ""},
  {"NCCL_RAS_ADDR", C::kDebug, "", ""},
  {"NCCL_RAS_TIMEOUT_FACTOR", C::kDebug, "uint", ""},
  {"NCCL_GRAPH_DUMP_FILE", C::kDebug, "", ""},
  {"NCCL_GRAPH_FILE", C::kDebug, "", ""},
  {"NCCL_PROXY_DUMP_SIGNAL", C::kDebug, "int", ""},
  // Obsolete: removed or renamed; old recipes still set them.
  {"NCCL_IB_CUDA_SUPPORT", C::kObsolete, "", "removed in NCCL 2.4.0: use NCCL_NET_GDR_LEVEL"},
  {"NCCL_IB_GDR_LEVEL", C::kObsolete, "", "renamed NCCL_NET_GDR_LEVEL in 2.4.0"},
  {"NCCL_TREE_THRESHOLD", C::kObsolete, "", "removed in NCCL 2.5: ignored (use NCCL_ALGO only as a work-around)"},
  {"NCCL_LL_THRESHOLD", C::kObsolete, "", "removed in NCCL 2.5: ignored (use NCCL_PROTO only as a work-around)"},
  {"NCCL_SINGLE_RING_THRESHOLD", C::kObsolete, "", "removed in NCCL 2.3: ignored"},
  {"NCCL_MAX_NCHANNELS", C::kObsolete, "", "deprecated in 2.17: use NCCL_MAX_CTAS"},
  {"NCCL_MIN_NCHANNELS", C::kObsolete, "", "deprecated in 2.17: use NCCL_MIN_CTAS"},
  {"NCCL_MAX_NRINGS", C::kObsolete, "", "replaced by NCCL_MAX_CTAS (formerly NCCL_MAX_NCHANNELS)"},
  {"NCCL_MIN_NRINGS", C::kObsolete, "", "replaced by NCCL_MIN_CTAS (formerly NCCL_MIN_NCHANNELS)"},
  {"NCCL_CHECK_POINTERS", C::kObsolete, "", "replaced by NCCL_CHECK_MODE in 2.29.7"},
  // Read by PyTorch, not NCCL; PyTorch 2.2 renamed them TORCH_NCCL_*.
  {"NCCL_ASYNC_ERROR_HANDLING", C::kPytorch, "", "TORCH_NCCL_ASYNC_ERROR_HANDLING"},
  {"NCCL_BLOCKING_WAIT", C::kPytorch, "", "TORCH_NCCL_BLOCKING_WAIT"},
  {"NCCL_DESYNC_DEBUG", C::kPytorch, "", "TORCH_NCCL_DESYNC_DEBUG"},
  // Not NCCL's: NVIDIA's CUDA container images set NCCL_VERSION (`ENV NCCL_VERSION 2.17.1-1`; the H200 machine's
  // image did too); PyTorch's cmake/Modules/FindNCCL.cmake reads the version and the paths below when it builds;
  // nccl-tests' Makefile takes NCCL_HOME. Warning about them would fail every NGC container under --strict.
  {"NCCL_VERSION", C::kNotNccl, "", "set by NVIDIA's CUDA container images; read by builds, not NCCL"},
  {"NCCL_HOME", C::kNotNccl, "", "where nccl-tests' Makefile finds NCCL"},
  {"NCCL_ROOT", C::kNotNccl, "", "where PyTorch's build finds NCCL"},
  {"NCCL_ROOT_DIR", C::kNotNccl, "", "where PyTorch's build finds NCCL (deprecated there for NCCL_ROOT)"},
  {"NCCL_INCLUDE_DIR", C::kNotNccl, "", "where PyTorch's build finds nccl.h"},
  {"NCCL_LIB_DIR", C::kNotNccl, "", "where PyTorch's build finds libnccl"},
};
// clang-format on

size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

const NcclVarInfo* findNcclVar(const std::string& name) {
  for (const auto& v : kVars)
    if (name == v.name) return &v;
  return nullptr;
}

std::string closestNcclVar(const std::string& name) {
  std::string best;
  size_t bestD = 4;
  for (const auto& v : kVars) {
    if (v.cls == NcclVarClass::kNotNccl) continue;  // a typo of NCCL's own names should not be steered there
    size_t d = editDistance(upper(name), v.name);
    if (d < bestD) {
      bestD = d;
      best = v.name;
    }
  }
  return best;
}

size_t ncclVarCount() { return std::size(kVars); }

}  // namespace pf::probes
