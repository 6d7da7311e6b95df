// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Reading a workload file: cpptoml parses, then every key is checked against the known ones, so a misspelt key
// is an error naming it rather than a figure silently left at a default.
#include "workload.hpp"

#include <cpptoml.h>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "pf/error.hpp"

namespace pf::scaling {

const char* toString(Parallelism p) {
  switch (p) {
    case Parallelism::kDdp: return "ddp";
    case Parallelism::kZero1: return "zero1";
    case Parallelism::kZero2: return "zero2";
    case Parallelism::kFsdp: return "fsdp";
  }
  return "ddp";
}

namespace {

const char* kWorkloadDoc = "see docs/plan.md, \"Workload file\"";

struct WorkloadReader {
  const std::string& origin;

  [[noreturn]] void bad(const std::string& key, const std::string& what) const {
    throw UsageError(fmt::format("{}: {}: {} ({})", origin, key, what, kWorkloadDoc));
  }
  double number(const cpptoml::base& v, const std::string& key, double lo, double hi, const char* example) const {
    double x = 0;
    if (auto i = v.as<int64_t>())
      x = static_cast<double>(i->get());
    else if (auto d = v.as<double>())
      x = d->get();
    else
      bad(key, fmt::format("must be a number, e.g. {} = {}", key, example));
    if (!(x > lo && x <= hi))
      bad(key,
          fmt::format("is {:g}; give a number above {:g} and at most {:g}, e.g. {} = {}", x, lo, hi, key, example));
    return x;
  }
  int whole(const cpptoml::base& v, const std::string& key, int lo, int hi) const {
    auto i = v.as<int64_t>();
    if (!i || i->get() < lo || i->get() > hi) bad(key, fmt::format("must be a whole number from {} to {}", lo, hi));
    return static_cast<int>(i->get());
  }
  std::string text(const cpptoml::base& v, const std::string& key) const {
    auto s = v.as<std::string>();
    if (!s || s->get().empty()) bad(key, "must be a non-empty string in double quotes");
    return s->get();
  }
};

Parallelism parallelismFrom(const std::string& s, const WorkloadReader& r) {
  if (s == "ddp") return Parallelism::kDdp;
  if (s == "zero1") return Parallelism::kZero1;
  if (s == "zero2") return Parallelism::kZero2;
  if (s == "fsdp" || s == "zero3") return Parallelism::kFsdp;
  r.bad("parallelism", fmt::format("'{}' is not one of \"ddp\", \"zero1\", \"zero2\", \"fsdp\" (or \"zero3\")", s));
}

void checkWhole(Workload& w, const WorkloadReader& r) {
  if (w.parameters == 0) r.bad("parameters", "is missing; give the model's parameter count, e.g. parameters = 8.03e9");
  if (w.gradientBytes == 0) r.bad("gradient_bytes", "is missing; write 2 for bf16/fp16 gradients or 4 for fp32");
  if (w.samplesPerGpu == 0)
    r.bad("samples_per_gpu", "is missing; give the samples one data-parallel replica takes per step");
  const bool flops = w.flopsPerSample || w.gpuPeakTflops || w.mfu;
  if (w.stepComputeMs > 0 && flops)
    r.bad("step_compute_ms",
          "and flops_per_sample/gpu_peak_tflops/mfu both given; keep the measured step_compute_ms or the three "
          "others");
  if (flops && !(w.flopsPerSample && w.gpuPeakTflops && w.mfu))
    r.bad(!w.flopsPerSample  ? "flops_per_sample"
          : !w.gpuPeakTflops ? "gpu_peak_tflops"
                             : "mfu",
          "is missing; the compute time from FLOPs needs flops_per_sample, gpu_peak_tflops and mfu together");
  if (w.stepComputeMs == 0 && !flops)
    r.bad("step_compute_ms",
          "is missing; give one replica's forward+backward+optimizer time per step in ms, or flops_per_sample, "
          "gpu_peak_tflops and mfu");
  if (flops) {
    // Each of the replica's tensor_parallel GPUs does 1/tp of the work at mfu x peak.
    w.computeFromFlops = true;
    w.stepComputeMs = *w.flopsPerSample * w.samplesPerGpu / (w.tensorParallel * *w.gpuPeakTflops * 1e12 * *w.mfu) * 1e3;
  }
  if (w.tensorParallel > 1 && !(w.layers && w.hiddenSize && w.sequenceLength))
    r.bad(!w.layers       ? "layers"
          : !w.hiddenSize ? "hidden_size"
                          : "sequence_length",
          "is missing; tensor_parallel > 1 needs layers, hidden_size and sequence_length for its activation "
          "all-reduces");
}

}  // namespace

Workload parseWorkload(const std::string& text, const std::string& origin) {
  std::istringstream in(text);
  std::shared_ptr<cpptoml::table> root;
  try {
    root = cpptoml::parser(in).parse();
  } catch (const cpptoml::parse_exception& e) {
    throw UsageError(fmt::format("{}: not valid TOML: {} ({})", origin, e.what(), kWorkloadDoc));
  }
  Workload w;
  w.origin = origin;
  w.name = std::filesystem::path(origin).stem().string();
  const WorkloadReader r{origin};
  using Setter = std::function<void(const cpptoml::base&, const std::string&)>;
  const std::map<std::string, Setter> keys = {
      {"name", [&](auto& v, auto& k) { w.name = r.text(v, k); }},
      {"description", [&](auto& v, auto& k) { (void)r.text(v, k); }},
      {"sources",
       [&](auto& v, auto& k) {
         std::size_t items = 0;
         if (v.is_array())
           for (const auto& item : static_cast<const cpptoml::array&>(v).get()) {
             ++items;
             if (auto s = item->template as<std::string>(); s && !s->get().empty()) w.sources.push_back(s->get());
           }
         if (!v.is_array() || w.sources.size() != items) r.bad(k, "must be a list of strings: [\"...\", \"...\"]");
       }},
      {"parameters", [&](auto& v, auto& k) { w.parameters = r.number(v, k, 0, 1e15, "8.03e9"); }},
      {"gradient_bytes",
       [&](auto& v, auto& k) {
         auto i = v.template as<int64_t>();
         if (!i || (i->get() != 2 && i->get() != 4)) r.bad(k, "must be 2 (bf16/fp16) or 4 (fp32)");
         w.gradientBytes = static_cast<int>(i->get());
       }},
      {"parallelism", [&](auto& v, auto& k) { w.parallelism = parallelismFrom(r.text(v, k), r); }},
      {"tensor_parallel", [&](auto& v, auto& k) { w.tensorParallel = r.whole(v, k, 1, 64); }},
      {"layers", [&](auto& v, auto& k) { w.layers = r.number(v, k, 0, 1e6, "32"); }},
      {"hidden_size", [&](auto& v, auto& k) { w.hiddenSize = r.number(v, k, 0, 1e7, "4096"); }},
      {"sequence_length", [&](auto& v, auto& k) { w.sequenceLength = r.number(v, k, 0, 1e8, "8192"); }},
      {"samples_per_gpu", [&](auto& v, auto& k) { w.samplesPerGpu = r.number(v, k, 0, 1e9, "8"); }},
      {"step_compute_ms", [&](auto& v, auto& k) { w.stepComputeMs = r.number(v, k, 0, 1e9, "850"); }},
      {"flops_per_sample", [&](auto& v, auto& k) { w.flopsPerSample = r.number(v, k, 0, 1e30, "3.9e14"); }},
      {"gpu_peak_tflops", [&](auto& v, auto& k) { w.gpuPeakTflops = r.number(v, k, 0, 1e6, "989"); }},
      {"mfu", [&](auto& v, auto& k) { w.mfu = r.number(v, k, 0, 1, "0.4"); }},
      {"bucket_cap_mb", [&](auto& v, auto& k) { w.bucketCapMb = r.number(v, k, 0, 1 << 20, "25"); }},
      {"overlap",
       [&](auto& v, auto& k) {
         if (auto s = v.template as<std::string>(); s && s->get() == "buckets") return;
         double x = -1;
         if (auto d = v.template as<double>()) x = d->get();
         if (auto i = v.template as<int64_t>()) x = static_cast<double>(i->get());
         if (!(x >= 0 && x <= 1))
           r.bad(k, "must be \"buckets\" (modelled from the gradient buckets) or a fraction from 0 to 1");
         w.overlap = x;
       }},
      {"samples_to_train", [&](auto& v, auto& k) { w.samplesToTrain = r.number(v, k, 0, 1e18, "1e9"); }},
      {"gpu_hour_cost", [&](auto& v, auto& k) { w.gpuHourCost = r.number(v, k, 0, 1e6, "2.5"); }},
  };
  for (const auto& [k, v] : *root) {
    auto it = keys.find(k);
    if (it == keys.end()) {
      std::string known;
      for (const auto& [kk, s] : keys) known += (known.empty() ? "" : ", ") + kk;
      r.bad(k, fmt::format("unknown key{}; a workload takes {}", v->is_table() ? " (a table)" : "", known));
    }
    it->second(*v, k);
  }
  checkWhole(w, r);
  return w;
}

std::vector<std::string> presetNames() {
  std::vector<std::string> out;
  for (const auto& [file, text] : embeddedWorkloadFiles())
    out.push_back(std::filesystem::path(std::string(file)).stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

Workload loadWorkload(const std::string& spec) {
  if (std::filesystem::is_regular_file(spec)) {
    std::ifstream in(spec);
    std::stringstream ss;
    ss << in.rdbuf();
    if (!in) throw UsageError(fmt::format("--workload: cannot read '{}'", spec));
    return parseWorkload(ss.str(), spec);
  }
  const std::string stem = std::filesystem::path(spec).stem().string();
  for (const auto& [file, text] : embeddedWorkloadFiles())
    if (std::filesystem::path(std::string(file)).stem().string() == stem &&
        std::filesystem::path(spec).parent_path().empty()) {
      Workload w = parseWorkload(std::string(text), "preset " + stem);
      return w;
    }
  std::string names;
  for (const std::string& n : presetNames()) names += (names.empty() ? "" : ", ") + n;
  throw UsageError(
      fmt::format("--workload '{}': no such file and no such preset; give a workload TOML file ({}) "
                  "or one of the presets: {}",
                  spec, kWorkloadDoc, names));
}

}  // namespace pf::scaling
