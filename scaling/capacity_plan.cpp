// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "capacity_plan.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sweep_fit.hpp"

namespace pf::scaling {

namespace {

bool usesInSwitch(const Json& metrics) {
  const auto p = metrics.find("predictions");
  if (p == metrics.end()) return false;
  for (const Json& at : *p)
    for (const Json& b : at["buckets"])
      if (b.value("in_switch", false)) return true;
  return false;
}

}  // namespace

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
  if (model.interFromLineRate)
    r.evidence.push_back({"inter-node communication at the line rate of", model.nics->describe(), "", "--nics"});
  else if (model.inter)
    r.evidence.push_back({"inter-node communication fitted to", model.inter->source, "", "--from"});
  if (model.nics && !model.interFromLineRate)
    r.evidence.push_back({"NICs the inter-node fit is compared with", model.nics->describe(), "", "--nics"});
  if (model.inSwitch) {
    const InSwitchReductions& s = *model.inSwitch;
    r.evidence.push_back({"NVLS (NVLink SHARP)", (s.nvls ? "modelled: " : "not modelled: ") + s.nvlsWhy, "", s.source});
    r.evidence.push_back(
        {"CollNet (SHARP)", (s.collNet ? "modelled: " : "not modelled: ") + s.collNetWhy, "", s.source});
  }

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

  const bool acrossNodes = std::any_of(at.begin(), at.end(), [](const Allocation& a) { return a.nodes > 1; });
  if (usesInSwitch(r.metrics))
    r.message +=
        "; some buckets use NVLS/CollNet, whose costs are modelled from the bytes moved at the ring "
        "sweeps' bandwidths, not measured (in_switch in the predictions)";
  if (acrossNodes && !model.inter)
    r.message += "; no inter-node sweep in --from: predictions across nodes assume the intra-node fabric";
  if (acrossNodes && model.interFromLineRate)
    r.message += fmt::format(
        "; no inter-node sweep in --from: across nodes the network is taken at the NICs' line rate ({:g} Gb/s) "
        "with the intra-node latency, so those predictions are lower bounds on step time",
        model.nics->gbitTotal);
  if (const double f = lineRateFraction(model); f > 1.05 && r.status == Status::kPass) {
    r.status = Status::kWarn;
    r.remedy = fmt::format(
        "the inter-node sweep moved {:.3g} Gb/s per node, more than the {:g} Gb/s the NICs in --nics can carry: "
        "it did not cross them (shared memory, another network) or --nics describes other nodes; sweep across "
        "two nodes under the job's own launcher and settings",
        f * model.nics->gbitTotal, model.nics->gbitTotal);
  } else if (f > 0) {
    r.message += fmt::format("; inter-node all-reduce at {:.0f}% of the NICs' line rate", 100 * f);
  }
  // Efficiency falls with N in weak scaling: a prediction above what a smaller size measured is optimistic.
  if (r.metrics.contains("predictions"))
    for (const Json& p : r.metrics["predictions"]) {
      const Json* low = nullptr;
      for (const Json& row : rows)
        if (row["ranks"].get<int>() < p["ranks"].get<int>() && row.contains("efficiency") &&
            row["efficiency"].is_object() && p["efficiency"].get<double>() > row["efficiency"].value("median", 1.0) &&
            (!low || row["efficiency"].value("median", 1.0) < (*low)["efficiency"].value("median", 1.0)))
          low = &row;
      if (!low) continue;
      const std::string why = fmt::format(
          "E({}) is predicted at {:.3f}, above the {:.3f} measured at {} ranks: the model is optimistic there",
          p["ranks"].get<int>(), p["efficiency"].get<double>(), (*low)["efficiency"].value("median", 1.0),
          (*low)["ranks"].get<int>());
      r.message += "; " + why;
      if (r.status == Status::kPass) {
        r.status = Status::kWarn;
        r.remedy = why + "; re-run the sweeps on these ranks, or measure the larger size";
      }
      break;
    }
  const double err = v["max_abs_error"].get<double>();
  if (err > 0.15 && r.status == Status::kPass) {
    r.status = Status::kWarn;
    r.remedy = "the model predicts the measured sizes with more than 15% error: re-run the sweeps on these ranks";
  }
  r.message += fmt::format("; model error {:.1f}%", 100 * err);
}

}  // namespace pf::scaling
