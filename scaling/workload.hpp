// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What `preflight plan` plans for: the user's model, its parallelism and its compute per step, read from a TOML
// file (docs/plan.md, "Workload file"; docs/schemas/workload.schema.json) or a named preset
// (examples/workloads/*.toml, embedded in the binary). A preset is used only when named: nothing here has a
// default model.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pf::scaling {

/// How the data-parallel ranks share the model state (Rajbhandari et al. 2020, "ZeRO"; Zhao et al. 2023,
/// "PyTorch FSDP"): DDP and ZeRO-1 all-reduce the gradients; ZeRO-2 reduce-scatters them and all-gathers the
/// updated parameters; FSDP (ZeRO-3) all-gathers the parameters in forward and again in backward and
/// reduce-scatters the gradients.
enum class Parallelism { kDdp, kZero1, kZero2, kFsdp };
const char* toString(Parallelism p);

struct Workload {
  std::string name;                  ///< the file's `name`, else the file name
  std::string origin;                ///< the file, or "preset NAME"
  std::vector<std::string> sources;  ///< citations for the figures, as written
  double parameters = 0;
  int gradientBytes = 0;  ///< per element: 2 (bf16/fp16) or 4 (fp32)
  Parallelism parallelism = Parallelism::kDdp;
  int tensorParallel = 1;
  /// Megatron-LM's activation all-reduces need the shape (required when tensor_parallel > 1).
  std::optional<double> layers, hiddenSize, sequenceLength;
  double samplesPerGpu = 0;  ///< per data-parallel replica (a replica is tensor_parallel GPUs)
  double stepComputeMs = 0;  ///< forward + backward + optimizer of one replica, no communication
  bool computeFromFlops = false;
  std::optional<double> flopsPerSample, gpuPeakTflops, mfu;
  double bucketCapMb = 25;
  std::optional<double> overlap;  ///< a fraction of the overlappable communication hidden; none = from buckets
  std::optional<double> samplesToTrain, gpuHourCost;

  double gradientBytesTotal() const { return parameters * gradientBytes; }
};

/// Parses a workload. @param origin named in every error
/// @throws UsageError "ORIGIN: KEY: what is wrong; what to write" (exit 2)
Workload parseWorkload(const std::string& text, const std::string& origin);

/// `--workload SPEC`: a file that exists, else a preset name ("llama3-8b" or "llama3-8b.toml").
/// @throws UsageError naming the presets when SPEC is neither
Workload loadWorkload(const std::string& spec);

/// The presets: (file name, text), in name order (examples/workloads/*.toml, embedded by scaling/CMakeLists.txt).
const std::vector<std::pair<std::string_view, std::string_view>>& embeddedWorkloadFiles();
std::vector<std::string> presetNames();

}  // namespace pf::scaling
