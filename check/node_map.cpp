// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "node_map.hpp"

#include <map>

namespace pf::check {

NodeMap groupByHost(const std::vector<std::string>& hostOfRank) {
  NodeMap m;
  std::map<std::string, int> index;
  for (size_t r = 0; r < hostOfRank.size(); ++r) {
    auto [it, added] = index.emplace(hostOfRank[r], static_cast<int>(m.hosts.size()));
    if (added) {
      m.hosts.push_back(hostOfRank[r]);
      m.leader.push_back(static_cast<int>(r));
    }
    m.nodeOfRank.push_back(it->second);
  }
  return m;
}

}  // namespace pf::check
