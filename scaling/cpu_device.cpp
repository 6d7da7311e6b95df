// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "cpu_device.hpp"

namespace pf::scaling {
namespace {

class CpuTrainer final : public ScaleTrainer {
 public:
  CpuTrainer(const TrainerSpec& spec, GradReducer& group) : t_(spec, group) {}
  StepTiming step(long long step) override { return t_.step(step); }
  const std::vector<BucketEvent>& lastEvents() const override { return t_.lastEvents(); }
  std::vector<float> params() override { return t_.model().params(); }
  double checksum() override { return t_.model().checksum(); }

 private:
  Trainer t_;
};

class CpuDevice final : public ScaleDevice {
 public:
  std::string name() const override { return "cpu"; }
  std::unique_ptr<ScaleTrainer> makeTrainer(const TrainerSpec& spec, GradReducer& group) override {
    return std::make_unique<CpuTrainer>(spec, group);
  }
};

}  // namespace

std::unique_ptr<ScaleDevice> makeCpuDevice() { return std::make_unique<CpuDevice>(); }

}  // namespace pf::scaling
