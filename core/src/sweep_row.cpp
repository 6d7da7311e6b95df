// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/sweep_row.hpp"

#include <fmt/format.h>

#include "pf/error.hpp"

namespace pf {

namespace {
template <typename T>
Json orNull(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

template <typename T>
void readOptional(const Json& j, const char* name, std::optional<T>& out) {
  if (j.contains(name) && !j.at(name).is_null()) out = j.at(name).get<T>();
}
}  // namespace

Json toJson(const SweepRow& r) {
  return Json{{"collective", r.collective},
              {"size_bytes", r.size_bytes},
              {"count", r.count},
              {"dtype", r.dtype},
              {"op", r.op},
              {"root", r.root},
              {"placement", r.placement},
              {"time_us", r.time_us},
              {"algbw_gbps", r.algbw_gbps},
              {"busbw_gbps", r.busbw_gbps},
              {"wrong", orNull(r.wrong)},
              {"iter_min_us", orNull(r.iter_min_us)},
              {"iter_p50_us", orNull(r.iter_p50_us)},
              {"iter_p99_us", orNull(r.iter_p99_us)},
              {"iter_max_us", orNull(r.iter_max_us)},
              {"rank_skew", orNull(r.rank_skew)},
              {"slowest_rank", orNull(r.slowest_rank)}};
}

SweepRow sweepRowFromJson(const Json& j) {
  SweepRow r;
  try {
    r.collective = j.at("collective").get<std::string>();
    r.size_bytes = j.at("size_bytes").get<uint64_t>();
    r.count = j.at("count").get<uint64_t>();
    r.dtype = j.at("dtype").get<std::string>();
    r.op = j.at("op").get<std::string>();
    r.root = j.value("root", -1);
    r.placement = j.at("placement").get<std::string>();
    r.time_us = j.at("time_us").get<double>();
    r.algbw_gbps = j.at("algbw_gbps").get<double>();
    r.busbw_gbps = j.at("busbw_gbps").get<double>();
    readOptional(j, "wrong", r.wrong);
    readOptional(j, "iter_min_us", r.iter_min_us);
    readOptional(j, "iter_p50_us", r.iter_p50_us);
    readOptional(j, "iter_p99_us", r.iter_p99_us);
    readOptional(j, "iter_max_us", r.iter_max_us);
    readOptional(j, "rank_skew", r.rank_skew);
    readOptional(j, "slowest_rank", r.slowest_rank);
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(fmt::format("a sweep row is missing a field or has the wrong type ({})", e.what()));
  }
  return r;
}

}  // namespace pf
