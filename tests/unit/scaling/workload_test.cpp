// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Workload files (good and bad), the presets, and the step's communication volumes in closed form.
#include "workload.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "comm_volume.hpp"
#include "pf/error.hpp"

using namespace pf::scaling;

namespace {

std::string fileText(const std::string& rel) {
  std::ifstream in(std::string(PF_SOURCE_DIR) + "/" + rel);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The reader's message for `text`: it must name the file and the key, and say what to change.
std::string errorOf(const std::string& text) {
  try {
    parseWorkload(text, "w.toml");
  } catch (const pf::UsageError& e) {
    return e.what();
  }
  return "";
}

const char* kBase = "parameters = 1e6\ngradient_bytes = 4\nsamples_per_gpu = 2\n";

}  // namespace

TEST(Workload, ReadsAMinimalFile) {
  const Workload w = parseWorkload(fileText("tests/unit/scaling/workloads/good_minimal.toml"), "good_minimal.toml");
  EXPECT_EQ(w.name, "good_minimal");
  EXPECT_DOUBLE_EQ(w.parameters, 1e6);
  EXPECT_EQ(w.gradientBytes, 4);
  EXPECT_EQ(w.parallelism, Parallelism::kDdp);
  EXPECT_EQ(w.tensorParallel, 1);
  EXPECT_DOUBLE_EQ(w.stepComputeMs, 10);
  EXPECT_DOUBLE_EQ(w.bucketCapMb, 25);
  ASSERT_TRUE(w.overlap.has_value());
  EXPECT_DOUBLE_EQ(*w.overlap, 0);
  EXPECT_FALSE(w.samplesToTrain);
}

TEST(Workload, ComputeFromFlops) {
  // 1e12 FLOPs x 4 samples / (2 GPUs x 100 TFLOPS x 0.5) = 40 ms
  const Workload w = parseWorkload(
      "parameters = 1e6\ngradient_bytes = 4\nsamples_per_gpu = 4\nflops_per_sample = 1e12\ngpu_peak_tflops = 100\n"
      "mfu = 0.5\ntensor_parallel = 2\nlayers = 2\nhidden_size = 8\nsequence_length = 4\n",
      "w.toml");
  EXPECT_TRUE(w.computeFromFlops);
  EXPECT_DOUBLE_EQ(w.stepComputeMs, 40);
}

TEST(Workload, BadFilesNameTheFileTheKeyAndTheFix) {
  const std::string dir = "tests/unit/scaling/workloads/";
  EXPECT_NE(
      errorOf(fileText(dir + "bad_gradient_bytes.toml")).find("w.toml: gradient_bytes: must be 2 (bf16/fp16) or 4"),
      std::string::npos);
  EXPECT_NE(errorOf(fileText(dir + "bad_both_computes.toml")).find("w.toml: step_compute_ms: and flops_per_sample"),
            std::string::npos);
  EXPECT_NE(errorOf(fileText(dir + "bad_tp_without_shape.toml")).find("w.toml: layers: is missing"), std::string::npos);
  EXPECT_NE(errorOf(fileText(dir + "bad_unknown_key.toml")).find("w.toml: bucket_cap: unknown key"), std::string::npos);
  EXPECT_NE(errorOf("gradient_bytes = 2\nsamples_per_gpu = 1\nstep_compute_ms = 1\n").find("parameters: is missing"),
            std::string::npos);
  EXPECT_NE(errorOf(std::string(kBase) + "step_compute_ms = 1\nparallelism = \"zero4\"\n")
                .find("parallelism: 'zero4' is not one of"),
            std::string::npos);
  EXPECT_NE(errorOf(std::string(kBase) + "step_compute_ms = 1\noverlap = 1.5\n").find("overlap: must be \"buckets\""),
            std::string::npos);
  EXPECT_NE(errorOf(std::string(kBase) + "flops_per_sample = 1e9\n").find("gpu_peak_tflops: is missing"),
            std::string::npos);
  EXPECT_NE(errorOf("parameters = \n").find("w.toml: not valid TOML"), std::string::npos);
  EXPECT_NE(
      errorOf(std::string(kBase) + "step_compute_ms = -3\n").find("step_compute_ms: is -3; give a number above 0"),
      std::string::npos);
}

TEST(Workload, PresetsLoadByNameOnly) {
  const std::vector<std::string> names = presetNames();
  EXPECT_EQ(names, (std::vector<std::string>{"bert-large", "gpt2-xl", "llama3-70b", "llama3-8b", "resnet50"}));
  for (const std::string& n : names) {
    const Workload w = loadWorkload(n);
    EXPECT_EQ(w.origin, "preset " + n);
    EXPECT_FALSE(w.sources.empty()) << n << ": a preset cites its parameter count";
  }
  EXPECT_DOUBLE_EQ(loadWorkload("llama3-8b.toml").parameters, 8.03e9);
  EXPECT_EQ(loadWorkload("llama3-70b").tensorParallel, 8);
  try {
    loadWorkload("llama4");
    FAIL() << "an unknown preset is an error";
  } catch (const pf::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("bert-large, gpt2-xl, llama3-70b, llama3-8b, resnet50"), std::string::npos);
  }
}

TEST(CommVolume, FsdpMovesOneAndAHalfTimesDdp) {
  Workload w = parseWorkload(std::string(kBase) + "step_compute_ms = 1\n", "w.toml");
  const double psi = 4e6;
  for (int n : {2, 8, 64}) {
    const double ring = (n - 1.0) / n;
    w.parallelism = Parallelism::kDdp;
    EXPECT_DOUBLE_EQ(dataParallelWireBytes(stepVolumes(w, n)), 2 * ring * psi);
    w.parallelism = Parallelism::kZero1;
    EXPECT_DOUBLE_EQ(dataParallelWireBytes(stepVolumes(w, n)), 2 * ring * psi);
    w.parallelism = Parallelism::kZero2;
    EXPECT_DOUBLE_EQ(dataParallelWireBytes(stepVolumes(w, n)), 2 * ring * psi);
    w.parallelism = Parallelism::kFsdp;
    const auto v = stepVolumes(w, n);
    EXPECT_DOUBLE_EQ(dataParallelWireBytes(v), 3 * ring * psi);
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].collective + " " + v[0].phase, "all_gather forward");
    EXPECT_EQ(v[1].collective + " " + v[1].phase, "all_gather backward");
    EXPECT_EQ(v[2].collective + " " + v[2].phase, "reduce_scatter backward");
  }
  w.parallelism = Parallelism::kDdp;
  EXPECT_DOUBLE_EQ(dataParallelWireBytes(stepVolumes(w, 1)), 0);  // one replica: nothing to exchange
}

TEST(CommVolume, TensorParallelSplitsTheGradientAndAddsActivations) {
  Workload w = parseWorkload(
      "parameters = 1e6\nsamples_per_gpu = 2\nstep_compute_ms = 1\ngradient_bytes = 2\ntensor_parallel = 2\n"
      "layers = 3\nhidden_size = 100\nsequence_length = 10\n",
      "w.toml");
  const auto v = stepVolumes(w, 4);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_DOUBLE_EQ(v[0].bufferBytes, 1e6 * 2 / 2);  // each GPU holds half the gradients
  EXPECT_DOUBLE_EQ(v[0].wireBytes, 2 * 0.75 * 1e6);
  EXPECT_EQ(v[1].phase, "tensor_parallel");
  EXPECT_EQ(v[1].ranks, 2);
  // 4 all-reduces per layer x 3 layers of 2 samples x 10 tokens x 100 x 2 bytes
  EXPECT_DOUBLE_EQ(v[1].bufferBytes, 4 * 3 * 2 * 10 * 100 * 2);
  EXPECT_DOUBLE_EQ(v[1].wireBytes, 2 * 0.5 * v[1].bufferBytes);
}
