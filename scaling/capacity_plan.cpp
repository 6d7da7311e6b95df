// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "capacity_plan.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sweep_fit.hpp"

namespace pf::scaling {

void addCapacityPlan(Result& r, const Json& rows, const TrainerSpec& spec, const FabricModel& model,
                     const std::vector<std::string>& predict) {
  const Json* ref = &rows[0];  // the smallest world size: predictions start from its compute time
  int ranksPerNode = 1;        // plain rank counts are laid out as the measured run was
  for (const auto& row : rows) {
    if (row["ranks"].get<int>() < (*ref)["ranks"].get<int>()) ref = &row;
    const int n = row["ranks"].get<int>(), nodes = std::max(1, row.value("nodes", 1));
    ranksPerNode = std::max(ranksPerNode, (n + nodes - 1) / nodes);
  }
  const Json v = validatePrediction(rows, spec, model);
  r.metrics["prediction_max_abs_error"] = v["max_abs_error"];
  r.metrics["validation"] = v["rows"];
  r.metrics["predictions_inside_band"] = v["inside_band"];
  if (model.intra) r.evidence.push_back({"intra-node communication fitted to", model.intra->source, "", "--from"});
  if (model.inter) r.evidence.push_back({"inter-node communication fitted to", model.inter->source, "", "--from"});

  std::vector<Allocation> at;
  for (const std::string& p : predict) at.push_back(parseAllocation(p, ranksPerNode));
  if (!at.empty()) r.metrics["predictions"] = predictRows(*ref, spec, model, at);
  // What the capacity-planning report needs beyond the predictions: the fitted model, and at the largest
  // allocation asked about (or measured), what bounds each bucket and which bucket cap the model would pick.
  r.metrics["model"] = modelToJson(model);
  const Json& last = rows.back();
  const int lastNodes = std::max(1, last.value("nodes", 1));
  Allocation plan{lastNodes, (last["ranks"].get<int>() + lastNodes - 1) / lastNodes};
  for (const Allocation& a : at)
    if (a.ranks() > plan.ranks()) plan = a;
  r.metrics["buckets"] = bucketAdvice(*ref, spec, model, plan);

  bool spansUnmeasured = false;  // an allocation across nodes with no inter-node sweep
  for (const Allocation& a : at) spansUnmeasured = spansUnmeasured || (a.nodes > 1 && !model.inter);
  if (spansUnmeasured)
    r.message += "; no inter-node sweep in --from: predictions across nodes assume the intra-node fabric";
  const double err = v["max_abs_error"].get<double>();
  if (err > 0.15 && r.status == Status::kPass) {
    r.status = Status::kWarn;
    r.remedy = "the model predicts the measured sizes with more than 15% error: re-run the sweeps on these ranks";
  }
  r.message += fmt::format("; model error {:.1f}%", 100 * err);
}

}  // namespace pf::scaling
