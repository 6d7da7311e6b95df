// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What `preflight scale --from ... --predict ...` adds to its result: the model's prediction of every measured
// size from the smallest (and the error), the predictions for the allocations asked about, the fitted model, and
// the bucket advice at the largest allocation. Field names: docs/result-schema.md ("Scale results").
#pragma once

#include <string>
#include <vector>

#include "fabric_model.hpp"
#include "pf/result.hpp"
#include "trainer.hpp"

namespace pf::scaling {

/// Adds metrics `validation`, `prediction_max_abs_error`, `predictions_inside_band`, `predictions`, `model` and
/// `buckets` to `r` (a scale result whose rows carry `nodes`), its evidence, and a warning when the model missed
/// the measured sizes by more than 15%. Plain rank counts in `predict` are laid out as the measured run was.
void addCapacityPlan(Result& r, const Json& rows, const TrainerSpec& spec, const FabricModel& model,
                     const std::vector<std::string>& predict);

}  // namespace pf::scaling
