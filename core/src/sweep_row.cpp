// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/sweep_row.hpp"

#include <fmt/format.h>

#include "pf/error.hpp"
#include "pf/json_field.hpp"

namespace pf {

Json toJson(const SweepRow& r) {
  Json j{{"collective", r.collective},
         {"size_bytes", r.size_bytes},
         {"count", r.count},
         {"dtype", r.dtype},
         {"op", r.op},
         {"root", r.root},
         {"placement", r.placement},
         {"time_us", r.time_us},
         {"algbw_gbps", r.algbw_gbps},
         {"busbw_gbps", r.busbw_gbps},
         {"wrong", jsonOrNull(r.wrong)},
         {"iter_min_us", jsonOrNull(r.iter_min_us)},
         {"iter_p50_us", jsonOrNull(r.iter_p50_us)},
         {"iter_p99_us", jsonOrNull(r.iter_p99_us)},
         {"iter_max_us", jsonOrNull(r.iter_max_us)},
         {"rank_skew", jsonOrNull(r.rank_skew)},
         {"slowest_rank", jsonOrNull(r.slowest_rank)}};
  if (r.cycle) j["cycle"] = *r.cycle;  // only multi-cycle sweeps have it: one-pass documents stay as they were
  return j;
}

SweepRow sweepRowFromJson(const Json& j) {
  if (!j.is_object()) throw UsageError("a sweep row is not an object");
  SweepRow r;
  r.collective = requiredField<std::string>(j, "collective");
  r.size_bytes = requiredField<uint64_t>(j, "size_bytes");
  r.count = requiredField<uint64_t>(j, "count");
  r.dtype = requiredField<std::string>(j, "dtype");
  r.op = requiredField<std::string>(j, "op");
  r.root = j.contains("root") && !j.at("root").is_null() ? requiredField<int>(j, "root") : -1;
  r.placement = requiredField<std::string>(j, "placement");
  r.time_us = requiredField<double>(j, "time_us");
  r.algbw_gbps = requiredField<double>(j, "algbw_gbps");
  r.busbw_gbps = requiredField<double>(j, "busbw_gbps");
  optionalExact(j, "wrong", r.wrong);
  optionalExact(j, "iter_min_us", r.iter_min_us);
  optionalExact(j, "iter_p50_us", r.iter_p50_us);
  optionalExact(j, "iter_p99_us", r.iter_p99_us);
  optionalExact(j, "iter_max_us", r.iter_max_us);
  optionalExact(j, "rank_skew", r.rank_skew);
  optionalExact(j, "slowest_rank", r.slowest_rank);
  optionalExact(j, "cycle", r.cycle);
  return r;
}

Json toJson(const SweepParams& p) {
  return {{"collective", p.collective},
          {"ranks", p.ranks},
          {"min_bytes", p.min_bytes},
          {"max_bytes", p.max_bytes},
          {"step_factor", p.step_factor},
          {"step_bytes", p.step_bytes},
          {"iters", p.iters},
          {"warmup_iters", p.warmup_iters},
          {"check_iters", p.check_iters},
          {"per_iter_timing", p.per_iter_timing},
          {"root", p.root},
          {"cycles", p.cycles},
          {"huge_pages", p.huge_pages},
          {"backend", p.backend}};
}

Json toJson(const SweepMetrics& m) {
  return {{"avg_busbw_gbps", m.avg_busbw_gbps},
          {"peak_busbw_gbps", m.peak_busbw_gbps},
          {"out_of_bounds", m.out_of_bounds},
          {"wrong_total", m.wrong_total ? Json(*m.wrong_total) : Json(nullptr)}};
}

SweepParams sweepParamsFromJson(const Json& j) {
  SweepParams p;
  readField(j, "collective", p.collective, "sweep");
  readField(j, "backend", p.backend, "sweep");
  readField(j, "ranks", p.ranks, "sweep");
  readField(j, "min_bytes", p.min_bytes, "sweep");
  readField(j, "max_bytes", p.max_bytes, "sweep");
  readField(j, "step_factor", p.step_factor, "sweep");
  readField(j, "step_bytes", p.step_bytes, "sweep");
  readField(j, "iters", p.iters, "sweep");
  readField(j, "warmup_iters", p.warmup_iters, "sweep");
  readField(j, "check_iters", p.check_iters, "sweep");
  readField(j, "per_iter_timing", p.per_iter_timing, "sweep");
  readField(j, "root", p.root, "sweep");
  readField(j, "cycles", p.cycles, "sweep");
  readField(j, "huge_pages", p.huge_pages, "sweep");
  return p;
}

SweepMetrics sweepMetricsFromJson(const Json& j) {
  SweepMetrics m;
  readField(j, "avg_busbw_gbps", m.avg_busbw_gbps, "sweep");
  readField(j, "peak_busbw_gbps", m.peak_busbw_gbps, "sweep");
  readField(j, "out_of_bounds", m.out_of_bounds, "sweep");
  if (j.is_object() && j.contains("wrong_total") && j.at("wrong_total").is_number_integer())
    m.wrong_total = j.at("wrong_total").get<int64_t>();
  return m;
}

}  // namespace pf
