// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Optimizers over the flat parameter vector. Gradients come in the trainer's reverse layout, so the step
// maps each parameter slot to its gradient slice. Formulas: SGD with momentum as torch.optim.SGD
// (v = mu*v + g; p -= lr*v), Adam as Kingma & Ba 2015, Algorithm 1 (bias-corrected moments).
#pragma once

#include <string>
#include <vector>

#include "model.hpp"

namespace pf::scaling {

struct OptimizerSpec {
  std::string kind = "sgd";  ///< "sgd" (with momentum) or "adam"
  float lr = 0.01f;
  float momentum = 0.9f;
  float beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;
};

class Optimizer {
 public:
  Optimizer(const OptimizerSpec& spec, std::size_t n) : spec_(spec), m_(n, 0.0f), v_(n, 0.0f) {}
  /// One update of `params` (forward layout) from `grads` (reverse layout per `slots`).
  /// One step on every slot; each gradient is multiplied by `gradScale` first (1/N: DDP's averaging).
  void step(const std::vector<ParamSlot>& slots, std::vector<float>& params, const std::vector<float>& grads,
            float gradScale = 1.0f);

 private:
  OptimizerSpec spec_;
  std::vector<float> m_, v_;
  long long t_ = 0;
};

}  // namespace pf::scaling
