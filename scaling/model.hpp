// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The benchmark model: a stack of linear layers with ReLU between them (an MLP), trained on a mean-squared
// error against synthetic targets. Forward and backward run on the CPU through OpenBLAS (cblas_sgemm).
// Parameters are W0,b0,W1,b1,...; gradients live in one flat buffer laid out in REVERSE parameter order
// (last layer's bias first), so that each gradient bucket (see buckets.hpp) is one contiguous slice that an
// all-reduce can take as it is, the way PyTorch DDP flattens its buckets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace pf::scaling {

struct ModelSpec {
  int input = 256;  ///< features per sample
  int width = 512;  ///< hidden width
  int depth = 4;    ///< number of linear layers (>= 1)
  int output = 16;  ///< targets per sample
  std::uint64_t seed = 1234;
  /// Layer l's (in, out).
  std::pair<int, int> layerShape(int l) const;
  std::size_t paramCount() const;
};

/// One parameter tensor's place in the flat parameter and gradient buffers.
struct ParamSlot {
  int layer = 0;
  bool bias = false;
  std::size_t size = 0;
  std::size_t paramOffset = 0;  ///< in params(), forward order
  std::size_t gradOffset = 0;   ///< in grads(), reverse order
};

class Mlp {
 public:
  explicit Mlp(const ModelSpec& spec);
  const ModelSpec& spec() const { return spec_; }
  /// Parameter tensors in forward order (W0, b0, W1, b1, ...).
  const std::vector<ParamSlot>& slots() const { return slots_; }
  std::vector<float>& params() { return params_; }
  const std::vector<float>& params() const { return params_; }
  std::vector<float>& grads() { return grads_; }
  /// Forward over `batch` samples (x: batch*input, y: batch*output); returns the mean loss.
  double forward(const float* x, const float* y, int batch);
  /// Backward from the last forward. After layer l's gradients are written, `layerDone(l)` is called, so a
  /// caller can start the all-reduce of buckets that are now complete (overlap with the rest of backward).
  void backward(const std::function<void(int)>& layerDone);
  /// Order-independent-enough fingerprint of the parameters (sum and weighted sum in double).
  double checksum() const;

 private:
  ModelSpec spec_;
  std::vector<ParamSlot> slots_;
  std::vector<float> params_, grads_;
  std::vector<std::vector<float>> acts_;  // acts_[l] = input of layer l (post-ReLU); acts_[depth] = output
  std::vector<float> y_, dA_, dPrev_;
  int batch_ = 0;
};

/// DistributedSampler-like synthetic data: sample `index` of the global stream is a fixed function of
/// (seed, index), and rank r of n takes global indices r, r+n, r+2n, ... of each step's global batch.
/// `reversed` lays the same samples out last first: the same mathematics summed in another order, which is how
/// the equality check measures float32 rounding (world_size_runner.cpp).
void syntheticBatch(const ModelSpec& spec, long long step, int globalBatch, int rank, int ranks, std::vector<float>& x,
                    std::vector<float>& y, bool reversed = false);

}  // namespace pf::scaling
