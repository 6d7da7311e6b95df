// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "model.hpp"

#include <cmath>
#include <stdexcept>

#include "blas_loader.hpp"

namespace pf::scaling {
namespace {
// splitmix64: a cheap, well-mixed deterministic generator so every rank builds the same parameters and data
// without communication.
std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
float uniform(std::uint64_t seed, std::uint64_t i) {  // in [-1, 1)
  return static_cast<float>(static_cast<double>(mix(seed ^ mix(i)) >> 11) * 0x1.0p-53 * 2.0 - 1.0);
}
}  // namespace

std::pair<int, int> ModelSpec::layerShape(int l) const {
  int in = l == 0 ? input : width;
  int out = l == depth - 1 ? output : width;
  return {in, out};
}

std::size_t ModelSpec::paramCount() const {
  std::size_t n = 0;
  for (int l = 0; l < depth; ++l) {
    auto [in, out] = layerShape(l);
    n += static_cast<std::size_t>(in) * out + out;
  }
  return n;
}

Mlp::Mlp(const ModelSpec& spec) : spec_(spec) {
  if (spec.depth < 1 || spec.input < 1 || spec.width < 1 || spec.output < 1)
    throw std::invalid_argument("model dimensions must be positive");
  std::size_t off = 0;
  for (int l = 0; l < spec.depth; ++l) {
    auto [in, out] = spec.layerShape(l);
    slots_.push_back({l, false, static_cast<std::size_t>(in) * out, off, 0});
    off += slots_.back().size;
    slots_.push_back({l, true, static_cast<std::size_t>(out), off, 0});
    off += out;
  }
  std::size_t g = 0;  // reverse order for the gradient buffer
  for (auto it = slots_.rbegin(); it != slots_.rend(); ++it) {
    it->gradOffset = g;
    g += it->size;
  }
  params_.resize(off);
  grads_.assign(off, 0.0f);
  // Scaled uniform initialisation (LeCun-style 1/sqrt(fan_in)) keeps activations bounded through depth.
  for (const auto& s : slots_) {
    float scale = s.bias ? 0.0f : 1.0f / std::sqrt(static_cast<float>(spec.layerShape(s.layer).first));
    for (std::size_t i = 0; i < s.size; ++i) params_[s.paramOffset + i] = scale * uniform(spec.seed, s.paramOffset + i);
  }
  acts_.resize(spec.depth + 1);
}

double Mlp::forward(const float* x, const float* y, int batch) {
  batch_ = batch;
  acts_[0].assign(x, x + static_cast<std::size_t>(batch) * spec_.input);
  y_.assign(y, y + static_cast<std::size_t>(batch) * spec_.output);
  for (int l = 0; l < spec_.depth; ++l) {
    auto [in, out] = spec_.layerShape(l);
    const float* W = params_.data() + slots_[2 * l].paramOffset;
    const float* b = params_.data() + slots_[2 * l + 1].paramOffset;
    auto& z = acts_[l + 1];
    z.resize(static_cast<std::size_t>(batch) * out);
    for (int r = 0; r < batch; ++r)
      for (int o = 0; o < out; ++o) z[static_cast<std::size_t>(r) * out + o] = b[o];
    // Z[B x out] += X[B x in] * W^T (W is out x in, row-major)
    openblas().sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, batch, out, in, 1.0f, acts_[l].data(), in, W, in, 1.0f,
                     z.data(), out);
    if (l != spec_.depth - 1)
      for (auto& v : z) v = v > 0.0f ? v : 0.0f;
  }
  double loss = 0;
  const auto& o = acts_[spec_.depth];
  for (std::size_t i = 0; i < o.size(); ++i) loss += 0.5 * double(o[i] - y_[i]) * double(o[i] - y_[i]);
  return loss / batch;
}

void Mlp::backward(const std::function<void(int)>& layerDone) {
  const int B = batch_;
  // dL/dOut for loss = (1/B) * sum 0.5 (o - y)^2: each rank averages over its own samples, and the
  // all-reduce average over equal shards then equals the full-batch mean (as in DDP).
  const auto& o = acts_[spec_.depth];
  dA_.resize(o.size());
  for (std::size_t i = 0; i < o.size(); ++i) dA_[i] = (o[i] - y_[i]) / static_cast<float>(B);
  for (int l = spec_.depth - 1; l >= 0; --l) {
    auto [in, out] = spec_.layerShape(l);
    if (l != spec_.depth - 1) {  // through the ReLU: its output is acts_[l+1]
      const auto& a = acts_[l + 1];
      for (std::size_t i = 0; i < dA_.size(); ++i)
        if (a[i] <= 0.0f) dA_[i] = 0.0f;
    }
    float* dW = grads_.data() + slots_[2 * l].gradOffset;
    float* db = grads_.data() + slots_[2 * l + 1].gradOffset;
    // dW[out x in] = dZ^T[out x B] * X[B x in]
    openblas().sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, out, in, B, 1.0f, dA_.data(), out, acts_[l].data(), in,
                     0.0f, dW, in);
    for (int j = 0; j < out; ++j) db[j] = 0.0f;
    for (int r = 0; r < B; ++r)
      for (int j = 0; j < out; ++j) db[j] += dA_[static_cast<std::size_t>(r) * out + j];
    if (l > 0) {  // dX[B x in] = dZ[B x out] * W[out x in]
      const float* W = params_.data() + slots_[2 * l].paramOffset;
      dPrev_.resize(static_cast<std::size_t>(B) * in);
      openblas().sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, B, in, out, 1.0f, dA_.data(), out, W, in, 0.0f,
                       dPrev_.data(), in);
      dA_.swap(dPrev_);
    }
    if (layerDone) layerDone(l);
  }
}

double Mlp::checksum() const {
  double s = 0, w = 0;
  for (std::size_t i = 0; i < params_.size(); ++i) {
    s += params_[i];
    w += params_[i] * static_cast<double>((i % 97) + 1);
  }
  return s + 1e-3 * w;
}

void syntheticBatch(const ModelSpec& spec, long long step, int globalBatch, int rank, int ranks, std::vector<float>& x,
                    std::vector<float>& y, bool reversed) {
  const int local = globalBatch / ranks;
  x.resize(static_cast<std::size_t>(local) * spec.input);
  y.resize(static_cast<std::size_t>(local) * spec.output);
  for (int k = 0; k < local; ++k) {
    const int sample = reversed ? local - 1 - k : k;
    const std::uint64_t idx =
        static_cast<std::uint64_t>(step) * globalBatch + rank + static_cast<std::uint64_t>(sample) * ranks;
    for (int i = 0; i < spec.input; ++i)
      x[static_cast<std::size_t>(k) * spec.input + i] = uniform(spec.seed + 1, idx * spec.input + i);
    // Targets: a smooth function of the inputs, so the loss can actually decrease.
    for (int j = 0; j < spec.output; ++j)
      y[static_cast<std::size_t>(k) * spec.output + j] =
          std::sin(x[static_cast<std::size_t>(k) * spec.input + (j % spec.input)] * 3.0f);
  }
}

}  // namespace pf::scaling
