// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NCCL_IB_HCA resolution; the list grammar is shared with the socket interface lists (nccl_ifname.hpp).
#include "ib/ib_hca_filter.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

#include "nccl/nccl_ifname.hpp"

namespace pf::probes {

HcaSelection resolveIbHca(const std::optional<std::string>& ibHca, const std::vector<HcaPort>& ports) {
  HcaSelection sel;
  if (!ibHca || ibHca->empty()) {
    sel.selected = ports;
    return sel;
  }
  sel.userSet = true;
  const IfList list = parseIfList(*ibHca);
  for (const HcaPort& p : ports) {
    if (matchIfList(p.device, p.port, list) != list.exclude) sel.selected.push_back(p);
  }
  // Per item: which devices does it reach? Judged one item at a time so that "mlx5_1,mlx5_10" is still
  // reported (the second item does not make the first one exact).
  for (const IfListItem& item : list.items) {
    IfList one{false, list.exact, {item}};
    std::set<std::string> hit;
    for (const HcaPort& p : ports) {
      if (matchIfList(p.device, p.port, one)) hit.insert(p.device);
    }
    std::string shown = item.port >= 0 ? fmt::format("{}:{}", item.name, item.port) : item.name;
    if (hit.empty()) {
      sel.unmatched.push_back(shown);
    } else if (!list.exact && (hit.size() > 1 || !hit.count(item.name))) {
      sel.ambiguous.push_back(fmt::format("'{}' is a prefix and {} {}: {}", shown,
                                          list.exclude ? "excludes" : "selects", hit.size() == 1 ? "device" : "devices",
                                          fmt::join(hit, ", ")));
    }
  }
  return sel;
}

}  // namespace pf::probes
