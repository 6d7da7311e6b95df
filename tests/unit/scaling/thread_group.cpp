// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "thread_group.hpp"

#include <algorithm>
#include <barrier>

namespace pf::scaling::test {
namespace {
struct Shared {
  explicit Shared(int n) : sync(n), slots(n), doubles(n) {}
  std::barrier<> sync;
  std::vector<const float*> slots;
  std::vector<double> doubles;
};

class ThreadReducer final : public GradReducer {
 public:
  ThreadReducer(std::shared_ptr<Shared> s, int rank, int n) : s_(std::move(s)), rank_(rank), n_(n) {}
  int rank() const override { return rank_; }
  int size() const override { return n_; }
  int start(float* data, std::size_t count) override {
    // Blocking: publish, sum every rank's slice in rank order into a private copy, then write it back once
    // everyone has read the inputs.
    s_->slots[rank_] = data;
    s_->sync.arrive_and_wait();
    std::vector<float> sum(count, 0.0f);
    for (int r = 0; r < n_; ++r)
      for (std::size_t i = 0; i < count; ++i) sum[i] += s_->slots[r][i];
    s_->sync.arrive_and_wait();
    std::copy(sum.begin(), sum.end(), data);
    return 0;
  }
  bool test(int) override { return true; }
  void wait(int) override {}
  double allSum(double v) override { return reduce(v, false); }
  double allMax(double v) override { return reduce(v, true); }
  void barrier() override { s_->sync.arrive_and_wait(); }

 private:
  double reduce(double v, bool max) {
    s_->doubles[rank_] = v;
    s_->sync.arrive_and_wait();
    double out = max ? s_->doubles[0] : 0.0;
    for (int r = 0; r < n_; ++r) out = max ? std::max(out, s_->doubles[r]) : out + s_->doubles[r];
    s_->sync.arrive_and_wait();
    return out;
  }
  std::shared_ptr<Shared> s_;
  int rank_, n_;
};
}  // namespace

std::vector<std::unique_ptr<GradReducer>> makeThreadGroup(int n) {
  auto shared = std::make_shared<Shared>(n);
  std::vector<std::unique_ptr<GradReducer>> out;
  for (int r = 0; r < n; ++r) out.push_back(std::make_unique<ThreadReducer>(shared, r, n));
  return out;
}

}  // namespace pf::scaling::test
