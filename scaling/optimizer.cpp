// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "optimizer.hpp"

#include <cmath>

namespace pf::scaling {

void Optimizer::step(const std::vector<ParamSlot>& slots, std::vector<float>& params,
                     const std::vector<float>& grads) {
  ++t_;
  const bool adam = spec_.kind == "adam";
  const float c1 = adam ? 1.0f - std::pow(spec_.beta1, static_cast<float>(t_)) : 1.0f;
  const float c2 = adam ? 1.0f - std::pow(spec_.beta2, static_cast<float>(t_)) : 1.0f;
  for (const auto& s : slots) {
    float* p = params.data() + s.paramOffset;
    const float* g = grads.data() + s.gradOffset;
    float* m = m_.data() + s.paramOffset;
    float* v = v_.data() + s.paramOffset;
    if (adam) {
      for (std::size_t i = 0; i < s.size; ++i) {
        m[i] = spec_.beta1 * m[i] + (1 - spec_.beta1) * g[i];
        v[i] = spec_.beta2 * v[i] + (1 - spec_.beta2) * g[i] * g[i];
        p[i] -= spec_.lr * (m[i] / c1) / (std::sqrt(v[i] / c2) + spec_.eps);
      }
    } else {
      for (std::size_t i = 0; i < s.size; ++i) {
        m[i] = spec_.momentum * m[i] + g[i];
        p[i] -= spec_.lr * m[i];
      }
    }
  }
}

}  // namespace pf::scaling
