// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// p2p: for every ordered GPU pair, the expected path (NVLink from NVML on a live node; otherwise the PCI ancestry:
// PIX, PXB, PHB, SYS as `nvidia-smi topo -m` names them), peer access (cudaDeviceCanAccessPeer) and measured copy
// bandwidth, plus host<->device bandwidth per GPU (skipped with --quick). A pair far slower than the others of
// the same path type is flagged; so is a node whose GPUs cannot reach each other as peers (AWS g5-class hosts:
// some stacks then fail with "peer access is not supported between these two devices").
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "gpu/gpu_sysfs.hpp"
#include "gpu_runtime.hpp"
#include "probe.hpp"
#include "probe_util.hpp"

namespace pf::probes {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

/// NVLink between two GPUs: direct links to the peer, or both GPUs on NVSwitches (links whose far end is no GPU).
std::string nvlinkPath(const RuntimeGpu& a, const RuntimeGpu& b, const std::vector<RuntimeGpu>& all) {
  int direct = static_cast<int>(std::count(a.nvlinkPeers.begin(), a.nvlinkPeers.end(), b.pciBusId));
  if (direct > 0) return fmt::format("NV{}", direct);
  auto isGpu = [&](const std::string& id) {
    return std::any_of(all.begin(), all.end(), [&](const RuntimeGpu& g) { return g.pciBusId == id; });
  };
  auto onSwitch = [&](const RuntimeGpu& g) {
    return std::any_of(g.nvlinkPeers.begin(), g.nvlinkPeers.end(), [&](const std::string& p) { return !isGpu(p); });
  };
  return onSwitch(a) && onSwitch(b) ? fmt::format("NV{}", std::min(a.nvlinkActive, b.nvlinkActive)) : "";
}

class P2pProbe final : public Probe {
 public:
  std::string description() const override {
    return "GPU pairs: path (NVLink, PCIe switch, host bridge, socket), peer access, copy bandwidth; host<->GPU";
  }

  Result run(const SystemView& sys, const ProbeOptions& opt) const override {
    Result r;
    const auto gpus = readSysGpus(sys);
    const GpuRuntime* rt = sys.gpuRuntime();
    const int cudaCount = rt && rt->cudaOk ? static_cast<int>(rt->gpus.size()) : 0;
    // The pairs a job can use are those CUDA shows: CUDA_VISIBLE_DEVICES, a container or a Slurm allocation
    // leaves fewer than sysfs lists (sysfs is not namespaced). Without an answer from CUDA, sysfs's PCI order.
    const int n = cudaCount ? cudaCount : static_cast<int>(gpus.size());
    addEvidence(r, "GPUs", n, cudaCount ? "cudaGetDeviceCount()" : "/sys/bus/pci/devices");
    if (cudaCount && cudaCount < static_cast<int>(gpus.size()))
      addEvidence(r, "GPUs on the PCI bus", static_cast<int>(gpus.size()),
                  "/sys/bus/pci/devices (pairs among the GPUs CUDA shows this process only)");
    if (n == 0) {
      r.status = Status::kAbsent;
      r.message = fmt::format("no GPU: no peer pairs to check{}", rt && !rt->cudaOk ? " (" + rt->cudaError + ")" : "");
      return r;
    }
    P2pMeasurement m;
    if (cudaCount > 0 && sys.isLive()) m = measureP2p(!opt.quick && opt.firstOnNode);
    if (!m.error.empty()) addEvidence(r, "measurement", m.error, "CUDA runtime");
    if (!rt) addEvidence(r, "NVLink", "not visible in files; on a live node NVML reports it", "captured tree");
    if (n == 1 && m.host.empty()) {
      r.status = Status::kAbsent;
      // Say why the copies went unmeasured: a gate that skips them (check, --quick) is not a node without CUDA.
      const std::string why = !m.error.empty()                  ? "not measured: " + m.error
                              : cudaCount == 0 || !sys.isLive() ? "need the CUDA runtime on a live node"
                              : opt.quick        ? "not measured (quick; `preflight probe --only p2p` measures them)"
                              : !opt.firstOnNode ? "measured by the node's local rank 0"
                                                 : "not measured: the CUDA runtime returned none";
      r.message = "one GPU: no peer pairs; host<->device copies " + why;
      return r;
    }

    // Rows are indexed like CUDA when the runtime answers, by PCI order otherwise.
    auto bdfOf = [&](int i) { return cudaCount ? rt->gpus[i].pciBusId : gpus[i].pci.bdf; };
    auto sysOf = [&](int i) -> const PciFunction* {
      for (const auto& g : gpus)
        if (g.pci.bdf == bdfOf(i)) return &g.pci;
      return nullptr;
    };
    Findings f;
    std::map<std::string, std::vector<double>> byPath;
    std::vector<Json> rows;
    for (int s = 0; s < n; ++s)
      for (int d = 0; d < n; ++d) {
        if (s == d) continue;
        std::string path, source = "PCI ancestry";
        if (cudaCount) path = nvlinkPath(rt->gpus[s], rt->gpus[d], rt->gpus);
        if (!path.empty())
          source = "NVML NVLink";
        else if (const PciFunction* a = sysOf(s), *b = sysOf(d); a && b)
          path = pciPathName(pciPath(*a, *b));
        else
          path = "unknown";
        Json row{{"src", s},
                 {"dst", d},
                 {"src_bdf", bdfOf(s)},
                 {"dst_bdf", bdfOf(d)},
                 {"path", path},
                 {"path_source", source}};
        for (const auto& p : m.pairs)
          if (p.src == s && p.dst == d) {
            row["peer_access"] = p.canAccess;
            if (p.gbps) {
              row["copy_gbps"] = *p.gbps;
              byPath[path].push_back(*p.gbps);
            }
          }
        rows.push_back(std::move(row));
      }
    int noPeer = 0;
    for (auto& row : rows) {
      if (row.contains("peer_access") && !row["peer_access"].get<bool>()) ++noPeer;
      if (!row.contains("copy_gbps")) continue;
      const double med = median(byPath[row["path"].get<std::string>()]);
      const double v = row["copy_gbps"].get<double>();
      if (byPath[row["path"].get<std::string>()].size() >= 3 && v < 0.5 * med)
        f.add(Status::kWarn,
              fmt::format("GPU {} -> GPU {} copies at {:.1f} GB/s, under half the {:.1f} GB/s of the other {} pairs",
                          row["src"].get<int>(), row["dst"].get<int>(), v, med, row["path"].get<std::string>()),
              "check that pair's link (nvidia-smi nvlink -s, nvidia-smi topo -m) and PCIe ACS on the bridges between "
              "them");
    }
    if (noPeer > 0)
      f.add(
          Status::kWarn,
          fmt::format("{} of {} GPU pairs have no peer access: NCCL moves their data through host memory", noPeer,
                      rows.size()),
          "expected on hosts whose GPUs are not P2P-capable (e.g. AWS g5); if a framework fails with \"peer access is "
          "not supported\", set NCCL_P2P_DISABLE=1. Otherwise check ACS/IOMMU settings (NCCL troubleshooting guide)");
    for (const auto& h : m.host) {
      Json row{{"gpu", h.gpu}, {"bdf", bdfOf(h.gpu)}, {"path", "host"}};
      if (h.h2dGbps) row["h2d_gbps"] = *h.h2dGbps;
      if (h.d2hGbps) row["d2h_gbps"] = *h.d2hGbps;
      rows.push_back(std::move(row));
    }
    r.rows = rows;
    r.params["bytes_per_copy"] = m.bytes;
    r.params["measured"] = m.bytes > 0 && m.error.empty();
    r.params["method"] = m.bytes > 0
                             ? "cudaMemcpyPeerAsync / pinned cudaMemcpyAsync, CUDA events, median of 5"
                             : (opt.quick          ? "not measured (--quick)"
                                : !opt.firstOnNode ? "not measured on this rank: the node's local rank 0 measures"
                                                   : "paths from sysfs only");
    r.metrics["gpu_count"] = n;
    r.metrics["pairs_without_peer_access"] = noPeer;
    f.apply(r, fmt::format("{} GPU(s), {} ordered pair(s){}", n, n * (n - 1),
                           m.bytes > 0 && m.error.empty() ? ", copy bandwidth measured" : ""));
    return r;
  }
};

PF_REGISTER_PROBE(P2pProbe, "p2p");

}  // namespace
}  // namespace pf::probes
