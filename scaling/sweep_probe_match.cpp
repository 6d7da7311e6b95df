// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "sweep_probe_match.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace pf::scaling {

std::string sweepProbeMismatch(const RunReport& sweep, const std::string& sweepPath, const RunReport& probe,
                               const std::string& probePath) {
  std::size_t gpus = 0;  // the most GPUs a node of the probe document shows
  for (const Result& x : probe.results)
    if (x.kind == Kind::kProbe && x.key == "probe.gpu") gpus = std::max(gpus, x.rows.size());
  if (gpus == 0) return "";
  const Json& extra = sweep.context.extra;
  const auto b = extra.find("backend");
  if (b == extra.end() || !b->is_object() || b->value("buffers", "") != "host") return "";
  return fmt::format(
      "--from {} swept host buffers (a CPU run) but --nics {} is a node with {} GPU(s): the model mixes a CPU run "
      "with a GPU node's NICs",
      sweepPath, probePath, gpus);
}

}  // namespace pf::scaling
