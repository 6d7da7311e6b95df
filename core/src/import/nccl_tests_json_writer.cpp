// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A Preflight sweep written in nccl-tests' -J layout (`preflight sweep -J FILE`), so that tools reading
// nccl-tests' JSON read ours. Keys, nesting, units and quirks follow nccl-tests' src/util.cu: times in
// microseconds, bandwidths in GB/s, booleans as the strings "true"/"false", root as a "%6i" string, devices
// inside config. With per-iteration timing (-I 1) the document keeps every iteration's time (the slowest
// rank's, and each rank's), and the per-iteration object is computed from them as nccl-tests computes it
// (src/util.cu computeIterStats): sorted times, p50 = t[n/2], pN = t[ceil(n*N/100)-1], the population standard
// deviation, cv = stdev/avg in %. A document without the times (older ones, imported text) keeps what it has
// and writes null for the rest (env too): never made up.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "pf/error.hpp"
#include "pf/import.hpp"
#include "pf/json_field.hpp"
#include "pf/sweep_row.hpp"

namespace pf {
namespace {

// "2026-01-02T03:04:05Z" → "2026-01-02 03:04:05" (nccl-tests' TIME_STRING_FORMAT; ours is UTC).
Json ncclTime(const std::string& iso) {
  if (iso.size() < 19) return iso.empty() ? Json(nullptr) : Json(iso);
  std::string t = iso.substr(0, 19);
  if (t[10] == 'T') t[10] = ' ';
  return t;
}

Json half(const SweepRow* r) {
  if (!r) return nullptr;
  return Json{{"time", r->time_us},
              {"alg_bw", r->algbw_gbps},
              {"bus_bw", r->busbw_gbps},
              {"nwrong", r->wrong ? Json(static_cast<double>(*r->wrong)) : Json(nullptr)}};
}

// nccl-tests' percentile: the element at ceil(n*pct/100)-1 of the sorted times.
double ncclPercentile(const std::vector<double>& sorted, size_t pct) {
  const size_t n = sorted.size();
  return sorted[std::min(n - 1, (n * pct + 99) / 100 - 1)];
}

std::vector<double> numberList(const Json& j) {
  std::vector<double> v;
  if (!j.is_array()) return v;
  for (const Json& x : j)
    if (x.is_number()) v.push_back(x.get<double>());
  return v;
}

Json perIterFromTimes(const std::vector<double>& times, const Json& rankTimes) {
  std::vector<double> s = times;
  std::sort(s.begin(), s.end());
  double sum = 0;
  for (double t : s) sum += t;
  const double avg = sum / static_cast<double>(s.size());
  double var = 0;
  for (double t : s) var += (t - avg) * (t - avg);
  const double stdev = std::sqrt(var / static_cast<double>(s.size()));
  Json o = {{"skipped_iterations", 0},
            {"min_us", s.front()},
            {"max_us", s.back()},
            {"avg_us", avg},
            {"p50_us", s[s.size() / 2]},
            {"p95_us", ncclPercentile(s, 95)},
            {"p99_us", ncclPercentile(s, 99)},
            {"stdev_us", stdev},
            {"cv_pct", avg > 0 ? stdev / avg * 100.0 : 0.0},
            {"times_us", times}};
  // nccl-tests writes one row per process only when there are several; each of ours is one rank.
  if (rankTimes.is_array() && rankTimes.size() > 1) {
    Json rows = Json::array();
    for (const Json& r : rankTimes) rows.push_back(numberList(r));
    o["per_process_max_times_us"] = std::move(rows);
  }
  return o;
}

Json perIter(const SweepRow& r, const Json& raw) {
  std::vector<double> times = numberList(raw.value("iter_times_us", Json()));
  if (!times.empty()) return perIterFromTimes(times, raw.value("iter_rank_times_us", Json()));
  return Json{{"skipped_iterations", 0},
              {"min_us", jsonOrNull(r.iter_min_us)},
              {"max_us", jsonOrNull(r.iter_max_us)},
              {"avg_us", nullptr},
              {"p50_us", jsonOrNull(r.iter_p50_us)},
              {"p95_us", nullptr},
              {"p99_us", jsonOrNull(r.iter_p99_us)},
              {"stdev_us", nullptr},
              {"cv_pct", nullptr},
              {"times_us", nullptr}};
}

Json devices(const Json& ours) {
  Json out = Json::array();
  if (!ours.is_array()) return out;
  for (const Json& d : ours) {
    std::string dev = d.value("device", std::string("-"));
    Json device = nullptr;
    if (!dev.empty() && dev.find_first_not_of("0123456789") == std::string::npos && dev.size() < 9)
      device = std::stoi(dev);
    out.push_back({{"rank", d.value("rank", 0)},
                   {"group", 0},
                   {"pid", d.contains("pid") ? d.at("pid") : Json(nullptr)},
                   {"hostname", d.value("host", std::string())},
                   {"device", device},
                   {"device_hex", d.value("pci_bus_id", std::string())},
                   {"device_info", d.value("device_name", std::string())}});
  }
  return out;
}

bool samePoint(const SweepRow& a, const SweepRow& b) {
  return a.size_bytes == b.size_bytes && a.count == b.count && a.dtype == b.dtype && a.op == b.op && a.root == b.root;
}

}  // namespace

Json toNcclTestsJson(const RunReport& report) {
  const Result* sweep = nullptr;
  int sweeps = 0;
  for (const Result& r : report.results)
    if (r.kind == Kind::kSweep) {
      sweep = &r;
      ++sweeps;
    }
  if (sweeps != 1)
    throw UsageError(
        fmt::format("nccl-tests' JSON layout holds one collective run; this document has {} sweep results", sweeps));
  const SweepParams p = sweepParamsFromJson(sweep->params);
  const SweepMetrics m = sweepMetricsFromJson(sweep->metrics);
  const Json& extra = report.context.extra;
  Json config = {{"nthreads", 1}, {"ngpus", 1}, {"minimum_bytes", p.min_bytes}, {"maximum_bytes", p.max_bytes}};
  if (p.step_factor > 1)
    config["step_factor"] = p.step_factor;
  else
    config["step_bytes"] = p.step_bytes;
  config["warmup_iters"] = p.warmup_iters;
  config["iterations"] = p.iters;
  config["aggregated_iterations"] = 1;
  config["validation"] = p.check_iters;
  config["graph"] = 0;
  config["blocking_collectives"] = "false";
  config["per_iter_timing"] = p.per_iter_timing ? "true" : "false";
  config["per_iter_skip"] = 0;
  config["parallel_init"] = "false";
  config["devices"] = devices(extra.value("devices", Json::array()));

  // One entry per size point: the out-of-place and in-place rows the sweep measured one after the other.
  std::vector<SweepRow> rows;
  for (const Json& j : sweep->rows) rows.push_back(sweepRowFromJson(j));
  const Json& raw = sweep->rows;
  Json results = Json::array();
  for (size_t i = 0; i < rows.size();) {
    const SweepRow* out = rows[i].placement == "out" ? &rows[i] : nullptr;
    const SweepRow* in = rows[i].placement == "in" ? &rows[i] : nullptr;
    if (out && i + 1 < rows.size() && rows[i + 1].placement == "in" && samePoint(rows[i], rows[i + 1]))
      in = &rows[i + 1];
    const SweepRow& r = out ? *out : *in;
    Json e = {{"size", r.size_bytes},
              {"count", r.count},
              {"type", r.dtype},
              {"redop", r.op},
              {"root", fmt::format("{:6}", r.root)}};
    e["out_of_place"] = half(out);
    if (out && p.per_iter_timing) e["out_of_place_per_iter"] = perIter(*out, raw[i]);
    e["in_place"] = half(in);
    if (in && p.per_iter_timing) e["in_place_per_iter"] = perIter(*in, raw[out ? i + 1 : i]);
    e["actual_iterations"] = p.iters;
    e["experiment_name"] = "";
    results.push_back(std::move(e));
    i += (out && in) ? 2 : 1;
  }

  const Json& backend = extra.value("backend", Json::object());
  Json out = {{"version", 3},
              {"start_time", ncclTime(report.context.start_time)},
              {"args", report.context.argv},
              {"env", nullptr},
              {"nccl_version", backend.contains("nccl_version_code") ? backend.at("nccl_version_code") : Json(nullptr)},
              {"config", config},
              {"results", results},
              {"out_of_bounds", {{"count", m.out_of_bounds}, {"okay", m.out_of_bounds == 0 ? "true" : "false"}}},
              {"average_bus_bandwidth", {{"bandwidth", m.avg_busbw_gbps}, {"okay", "unchecked"}}},
              {"errors", Json::array()},
              {"end_time", ncclTime(report.context.end_time)}};
  return out;
}

}  // namespace pf
