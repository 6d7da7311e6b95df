// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "sweep_algorithm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "pf/sweep_row.hpp"

namespace pf::scaling {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// "tree" for Tree, "nvls" for NVLS and NVLSTree, "collnet" for CollNetDirect/CollNetChain, else the name.
std::string family(const std::string& token) {
  const std::string t = lower(token);
  if (t.rfind("nvls", 0) == 0) return "nvls";
  if (t.rfind("collnet", 0) == 0) return "collnet";
  return t;
}

}  // namespace

std::string algorithmFromNcclAlgo(const std::string& value) {
  // Since NCCL 2.24 the value may be "a,b;allreduce:c": the all-reduce entry wins over the default one.
  std::string pick;
  std::stringstream parts(value);
  for (std::string part; std::getline(parts, part, ';');) {
    const auto colon = part.find(':');
    if (colon == std::string::npos) {
      if (pick.empty()) pick = part;
    } else if (lower(part.substr(0, colon)) == "allreduce") {
      pick = part.substr(colon + 1);
    }
  }
  if (pick.empty() || pick[0] == '^') return "";  // an exclusion list leaves the tuner a choice
  std::set<std::string> families;
  std::stringstream names(pick);
  for (std::string n; std::getline(names, n, ',');)
    if (!n.empty()) families.insert(family(n));
  return families.size() == 1 ? *families.begin() : "";
}

SweepAlgorithm detectSweepAlgorithm(const RunReport& sweep, std::optional<double> nicGbitPerNode) {
  const Json& extra = sweep.context.extra;
  const auto backend = extra.find("backend");
  if (backend != extra.end() && backend->is_object() && backend->value("backend", "") == "mpi")
    return {"mpi", "an MPI sweep: the MPI library's own algorithm, read as a ring"};
  const auto settings = extra.find("nccl_settings");
  if (settings != extra.end() && settings->is_object()) {
    const auto algo = settings->find("NCCL_ALGO");
    if (algo != settings->end() && algo->is_string()) {
      if (std::string a = algorithmFromNcclAlgo(algo->get<std::string>()); !a.empty())
        return {a, fmt::format("NCCL_ALGO={} in the sweep's recorded NCCL settings", algo->get<std::string>())};
    }
  }
  if (nicGbitPerNode && *nicGbitPerNode > 0 && sweep.context.node_count > 1) {
    double best = 0;  // the largest busbw at 1 MiB or more: small sizes are latency-bound
    for (const Result& r : sweep.results)
      for (const Json& j : r.rows)
        if (j.is_object() && j.value("collective", "") == "all_reduce") {
          const SweepRow row = sweepRowFromJson(j);
          if (row.size_bytes >= (1u << 20)) best = std::max(best, row.busbw_gbps);
        }
    const double ceiling = *nicGbitPerNode / 8.0;
    if (best > 1.05 * ceiling)
      return {"not_ring",
              fmt::format("bus bandwidth {:.1f} GB/s across {} nodes, above the {:.1f} GB/s the NICs' line "
                          "rate allows a ring: Tree, NVLS or CollNet, or a sweep that did not cross the NICs",
                          best, sweep.context.node_count, ceiling)};
  }
  return {"unknown", "no NCCL_ALGO recorded in the sweep and nothing in its shape rules a ring out"};
}

}  // namespace pf::scaling
