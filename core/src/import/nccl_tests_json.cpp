// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// nccl-tests' -J JSON, both ways. The layout is the one nccl-tests' src/util.cu writes (JSON_FILE_VERSION 3):
// version, start_time, args, env, nccl_version, config{... devices[]}, results[{size, count, type, redop,
// root (a "%6i" string), out_of_place{time|cpu_time, alg_bw, bus_bw, nwrong}, out_of_place_per_iter{...},
// in_place{...}, in_place_per_iter{...}, actual_iterations, experiment_name}], out_of_bounds{count, okay},
// average_bus_bandwidth{bandwidth, okay}, errors[], end_time. Its booleans are the strings "true"/"false",
// NaN is the string "nan", and a half it did not run is null.
#include <fmt/format.h>

#include <cmath>

#include "import_model.hpp"
#include "pf/error.hpp"
#include "pf/import.hpp"
#include "text_lines.hpp"

namespace pf {
namespace {

using import::Doc;
using import::Run;
using import::Warning;

std::optional<double> number(const Json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) return std::nullopt;
  const Json& v = j.at(key);
  if (v.is_number() && std::isfinite(v.get<double>())) return v.get<double>();
  return std::nullopt;  // null, "nan", or anything else
}

std::optional<uint64_t> unsignedOf(const Json& j, const char* key) {
  auto v = number(j, key);
  if (!v || *v < 0 || *v > 1.8e19 || std::floor(*v) != *v) return std::nullopt;
  return static_cast<uint64_t>(*v);
}

std::string stringOf(const Json& j, const char* key) {
  return j.is_object() && j.contains(key) && j.at(key).is_string() ? j.at(key).get<std::string>() : std::string();
}

// The config object in the keys the text importer uses for the "# nThread" line.
Json headerOf(const Json& config, bool& perIter) {
  Json h = Json::object();
  const std::pair<const char*, const char*> keys[] = {{"nthreads", "nthreads"},
                                                      {"ngpus", "ngpus"},
                                                      {"minimum_bytes", "min_bytes"},
                                                      {"maximum_bytes", "max_bytes"},
                                                      {"step_factor", "step_factor"},
                                                      {"step_bytes", "step_bytes"},
                                                      {"warmup_iters", "warmup_iters"},
                                                      {"iterations", "iters"},
                                                      {"aggregated_iterations", "agg_iters"},
                                                      {"validation", "check_iters"},
                                                      {"graph", "graph"}};
  for (auto [from, to] : keys)
    if (auto v = unsignedOf(config, from)) h[to] = *v;
  const Json empty = Json::object();
  const Json& flag = config.is_object() && config.contains("per_iter_timing") ? config.at("per_iter_timing") : empty;
  perIter = flag == "true" || flag == true;
  return h;
}

std::vector<import::Device> devicesOf(const Json& list) {
  std::vector<import::Device> out;
  if (!list.is_array()) return out;
  for (const Json& d : list) {
    auto rank = unsignedOf(d, "rank");
    if (!rank || *rank > 10000000) continue;
    import::Device dev;
    dev.rank = static_cast<int>(*rank);
    if (auto pid = unsignedOf(d, "pid"); pid && *pid < (1u << 31)) dev.pid = static_cast<int>(*pid);
    dev.host = stringOf(d, "hostname");
    if (auto n = number(d, "device")) dev.device = fmt::format("{}", *n);
    dev.busId = stringOf(d, "device_hex");
    dev.name = stringOf(d, "device_info");
    out.push_back(std::move(dev));
  }
  return out;
}

// One half of one results entry: a row, nothing (null: not run), or a warning when present but unreadable.
void readHalf(const Json& entry, const SweepRow& base, const char* key, const char* perIterKey, const char* placement,
              const std::string& ptr, Run& run, Doc& doc) {
  if (!entry.contains(key) || entry.at(key).is_null()) return;
  const Json& h = entry.at(key);
  auto t = number(h, "time") ? number(h, "time") : number(h, "cpu_time");
  auto alg = number(h, "alg_bw"), bus = number(h, "bus_bw");
  if (!t || !alg || !bus || *t < 0 || *alg < 0 || *bus < 0) {
    Warning w{0, ptr + "/" + key, "time, alg_bw or bus_bw is missing, negative or not a number", true};
    doc.warnings.push_back(w);
    run.notes.push_back(w);
    ++run.unreadable;
    return;
  }
  SweepRow row = base;
  row.placement = placement;
  row.time_us = *t;
  row.algbw_gbps = *alg;
  row.busbw_gbps = *bus;
  if (auto wrong = number(h, "nwrong"); wrong && *wrong >= 0 && *wrong < 9e18) row.wrong = static_cast<int64_t>(*wrong);
  if (entry.contains(perIterKey) && entry.at(perIterKey).is_object()) {
    const Json& pi = entry.at(perIterKey);
    row.iter_min_us = number(pi, "min_us");
    row.iter_max_us = number(pi, "max_us");
    row.iter_p50_us = number(pi, "p50_us");
    row.iter_p99_us = number(pi, "p99_us");
    run.perIter = true;
  }
  run.rows.push_back(std::move(row));
}

void readEntry(const Json& e, size_t i, Run& run, Doc& doc) {
  const std::string ptr = fmt::format("/results/{}", i);
  SweepRow base;
  auto size = unsignedOf(e, "size"), count = unsignedOf(e, "count");
  base.dtype = stringOf(e, "type");
  base.op = stringOf(e, "redop");
  // root is written as a "%6i" string ("    -1"); accept a number too.
  std::string root = stringOf(e, "root");
  std::vector<std::string> rootWords = import::tokens(root);
  std::optional<double> r = root.empty() ? number(e, "root") : std::nullopt;
  if (rootWords.size() == 1) r = import::parseNumber(rootWords[0]);
  const double rootValue = r.value_or(-2.0);  // -2: missing or unreadable
  uint64_t bytes = 0;  // a count whose bytes overflow 64 bits would wrap every later count * element size
  if (!size || !count || import::elementSize(base.dtype) == 0 ||
      __builtin_mul_overflow(*count, static_cast<uint64_t>(import::elementSize(base.dtype)), &bytes) ||
      !import::knownOp(base.op) || rootValue < -1 || rootValue > 1e7 || std::floor(rootValue) != rootValue) {
    Warning w{0, ptr, "size, count, type, redop or root is missing or not what nccl-tests writes", true};
    doc.warnings.push_back(w);
    run.notes.push_back(w);
    ++run.unreadable;
    return;
  }
  base.size_bytes = *size;
  base.count = *count;
  base.root = static_cast<int>(rootValue);
  readHalf(e, base, "out_of_place", "out_of_place_per_iter", "out", ptr, run, doc);
  readHalf(e, base, "in_place", "in_place_per_iter", "in", ptr, run, doc);
}

}  // namespace

bool isNcclTestsJson(const Json& j) {
  return j.is_object() && !j.contains("schema_version") && j.contains("version") &&
         (j.contains("results") || j.contains("config"));
}

RunReport fromNcclTestsJson(const Json& j, const std::string& name) {
  if (!isNcclTestsJson(j))
    throw UsageError(
        fmt::format("'{}' is not nccl-tests -J output (expected an object with version, config, results)", name));
  Doc doc;
  doc.name = name;
  doc.format = "json";
  Run run;
  if (j.contains("args") && j.at("args").is_array())
    for (const Json& a : j.at("args"))
      if (a.is_string() && doc.argv.size() < 1024) doc.argv.push_back(a.get<std::string>());
  // The collective: nccl-tests' program name (args[0]); a preflight-written file says "sweep <collective>".
  for (size_t i = 0; i < doc.argv.size() && run.collective.empty(); ++i) {
    run.collective = import::collectiveFromProgram(doc.argv[i]);
    if (run.collective.empty() && doc.argv[i] == "sweep" && i + 1 < doc.argv.size() &&
        import::knownCollective(doc.argv[i + 1]))
      run.collective = doc.argv[i + 1];
    if (!run.collective.empty()) run.collectiveFrom = fmt::format("args[{}]", i);
  }
  for (const char* k : {"start_time", "end_time"})
    if (std::string v = stringOf(j, k); !v.empty()) doc.toolInfo[k] = v;
  if (auto v = unsignedOf(j, "nccl_version")) doc.toolInfo["nccl_version"] = *v;
  if (auto v = unsignedOf(j, "version")) doc.toolInfo["json_version"] = *v;
  const Json empty = Json::object();
  const Json& config = j.contains("config") && j.at("config").is_object() ? j.at("config") : empty;
  run.header = headerOf(config, run.perIter);
  // util.cu writes the devices inside config; accept them at the top level too.
  run.devices = devicesOf(config.contains("devices") ? config.at("devices") : j.value("devices", Json::array()));
  if (j.contains("results") && j.at("results").is_array()) {
    const Json& results = j.at("results");
    for (size_t i = 0; i < results.size(); ++i) readEntry(results[i], i, run, doc);
  }
  if (j.contains("out_of_bounds")) {
    run.footerSeen = true;
    if (auto n = unsignedOf(j.at("out_of_bounds"), "count"); n && *n < (1ull << 62))
      run.footerOutOfBounds = static_cast<int64_t>(*n);
  }
  if (j.contains("average_bus_bandwidth")) {
    run.footerSeen = true;
    run.footerAvgBusbw = number(j.at("average_bus_bandwidth"), "bandwidth");
  }
  if (j.contains("errors") && j.at("errors").is_array()) {
    const Json& errors = j.at("errors");
    for (size_t i = 0; i < errors.size(); ++i)
      if (errors[i].is_string() && !errors[i].get<std::string>().empty())
        run.failures.push_back(
            {"nccl-tests error", errors[i].get<std::string>(), "", fmt::format("{}#/errors/{}", name, i)});
  }
  doc.runs.push_back(std::move(run));
  return import::buildReport(std::move(doc));
}

}  // namespace pf
