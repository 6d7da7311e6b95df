// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "ib/ib_gid_check.hpp"

#include <fmt/format.h>

#include "nccl/nccl_library.hpp"

namespace pf::probes {
namespace {

constexpr int kNcclDynamicGid = 22100;  // 2.21.0: dynamic GID selection

const IbGid* gidAt(const IbPort& p, int index) {
  for (const auto& g : p.gids)
    if (g.index == index) return &g;
  return nullptr;
}

std::string where(const IbDevice& d, const IbPort& p) { return fmt::format("{} port {}", d.name, p.num); }

}  // namespace

std::optional<int> preferredGidIndex(const IbPort& p) {
  for (const auto& g : p.gids)
    if (g.type == "RoCE v2" && g.ipv4Mapped()) return g.index;
  for (const auto& g : p.gids)
    if (g.type == "RoCE v2") return g.index;
  return std::nullopt;
}

void checkGidIndex(const std::vector<DevicePort>& ports, const std::optional<std::string>& gidIndex,
                   int ncclVersionCode, Findings& f, Json& params) {
  std::vector<DevicePort> roce;
  for (const auto& dp : ports)
    if (dp.second->linkLayer == "Ethernet") roce.push_back(dp);
  if (roce.empty()) return;
  Json pref = Json::object();
  for (const auto& [d, p] : roce)
    if (auto i = preferredGidIndex(*p)) pref[where(*d, *p)] = *i;
  params["roce_preferred_gid_index"] = pref;
  const bool dynamic = ncclVersionCode >= kNcclDynamicGid;
  const std::string ver = ncclVersionCode > 0 ? ncclVersionString(ncclVersionCode) : "unknown";

  if (!gidIndex) {
    if (dynamic || ncclVersionCode == 0) return;  // NCCL picks, or we cannot say what it does
    // Old NCCL uses index 0: say so when index 0 is not a RoCE v2 GID.
    for (const auto& [d, p] : roce) {
      const IbGid* g0 = gidAt(*p, 0);
      auto best = preferredGidIndex(*p);
      if ((!g0 || g0->type != "RoCE v2") && best)
        f.add(Status::kWarn,
              fmt::format("NCCL {} uses GID index 0 on {}, which is {} (not RoCE v2): traffic does not route "
                          "across subnets and may time out",
                          ver, where(*d, *p), g0 ? g0->type + " " + g0->gid : "empty"),
              fmt::format("set NCCL_IB_GID_INDEX={} (the RoCE v2 IPv4 GID; `show_gids` lists them), or use NCCL "
                          ">= 2.21, which chooses it",
                          *best));
    }
    return;
  }
  auto idx = parseInt(*gidIndex);
  if (!idx) {
    f.add(Status::kFail, fmt::format("NCCL_IB_GID_INDEX={} is not a number", *gidIndex),
          "set it to a GID index from `show_gids`, or unset it with NCCL >= 2.21");
    return;
  }
  if (dynamic && *idx >= 0)
    f.add(Status::kWarn,
          fmt::format("NCCL_IB_GID_INDEX={} is set, but NCCL {} chooses the GID itself and NVIDIA's troubleshooting "
                      "guide says not to set it",
                      *idx, ver),
          "unset NCCL_IB_GID_INDEX (use NCCL_IB_ADDR_FAMILY / NCCL_IB_ADDR_RANGE to steer the choice)");
  if (*idx < 0) return;  // -1: dynamic
  for (const auto& [d, p] : roce) {
    const IbGid* g = gidAt(*p, static_cast<int>(*idx));
    auto best = preferredGidIndex(*p);
    std::string fix = best ? fmt::format("set NCCL_IB_GID_INDEX={} (RoCE v2 on {})", *best, where(*d, *p))
                           : "configure an IP address on the RoCE interface so the NIC creates a RoCE v2 GID";
    if (!g) {
      f.add(Status::kFail,
            fmt::format("NCCL_IB_GID_INDEX={} is empty on {}: QP setup fails (ibv_modify_qp: Invalid argument)", *idx,
                        where(*d, *p)),
            fix);
    } else if (g->type != "RoCE v2") {
      f.add(Status::kWarn,
            fmt::format("NCCL_IB_GID_INDEX={} on {} is a {} GID: it does not route across subnets", *idx, where(*d, *p),
                        g->type.empty() ? "non-RoCE" : g->type),
            fix);
    } else if (g->linkLocal()) {
      f.add(Status::kWarn,
            fmt::format("NCCL_IB_GID_INDEX={} on {} is link-local ({}): connections to other subnets time out", *idx,
                        where(*d, *p), g->gid),
            fix);
    }
  }
}

}  // namespace pf::probes
