// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/pair_row.hpp"

#include <fmt/format.h>

#include "pf/error.hpp"
#include "pf/json_field.hpp"
#include "pf/units.hpp"

namespace pf {
namespace {

template <typename T>
T field(const Json& j, const char* name) {
  return requiredField<T>(j, name);
}

std::optional<double> optField(const Json& j, const char* name) {
  if (!j.contains(name) || j.at(name).is_null()) return std::nullopt;
  return field<double>(j, name);
}

}  // namespace

Json toJson(const PairRow& r) {
  Json j{{"round", r.round},
         {"node_a", r.node_a},
         {"node_b", r.node_b},
         {"host_a", r.host_a},
         {"host_b", r.host_b},
         {"rank_a", r.rank_a},
         {"rank_b", r.rank_b},
         {"engine", r.engine},
         {"size_bytes", r.size_bytes},
         {"bw_a_to_b_gbps", r.bw_a_to_b_gbps},
         {"bw_b_to_a_gbps", r.bw_b_to_a_gbps},
         {"bw_gbps", r.bwGbps()},
         {"lat_us", r.lat_us},
         {"lat_size_bytes", r.lat_size_bytes},
         {"seconds", r.seconds},
         {"measurements", r.measurements},
         {"expected_gbps", jsonOrNull(r.expected_gbps)},
         {"pct_of_expected", jsonOrNull(r.pct_of_expected)},
         {"expected_lat_us", jsonOrNull(r.expected_lat_us)},
         {"bw_robust_z", jsonOrNull(r.bw_robust_z)},
         {"status", toString(r.status)},
         {"reason", r.reason}};
  if (r.rail >= 0) {
    j["rail"] = r.rail;
    j["nic_a"] = r.nic_a;
    j["nic_b"] = r.nic_b;
  }
  return j;
}

PairRow pairRowFromJson(const Json& j) {
  if (!j.is_object()) throw UsageError("pair row: not an object");
  PairRow r;
  r.round = field<int>(j, "round");
  r.node_a = field<int>(j, "node_a");
  r.node_b = field<int>(j, "node_b");
  r.host_a = field<std::string>(j, "host_a");
  r.host_b = field<std::string>(j, "host_b");
  r.rank_a = field<int>(j, "rank_a");
  r.rank_b = field<int>(j, "rank_b");
  r.engine = field<std::string>(j, "engine");
  r.size_bytes = field<uint64_t>(j, "size_bytes");
  r.bw_a_to_b_gbps = field<double>(j, "bw_a_to_b_gbps");
  r.bw_b_to_a_gbps = field<double>(j, "bw_b_to_a_gbps");
  r.lat_us = field<double>(j, "lat_us");
  r.lat_size_bytes = field<uint64_t>(j, "lat_size_bytes");
  r.seconds = field<double>(j, "seconds");
  r.measurements = j.contains("measurements") ? field<int>(j, "measurements") : 1;  // absent before v0.1.1
  if (j.contains("rail")) {  // only rows of a run over several rails have it
    r.rail = field<int>(j, "rail");
    r.nic_a = field<std::string>(j, "nic_a");
    r.nic_b = field<std::string>(j, "nic_b");
  }
  r.expected_gbps = optField(j, "expected_gbps");
  r.pct_of_expected = optField(j, "pct_of_expected");
  r.expected_lat_us = optField(j, "expected_lat_us");
  r.bw_robust_z = optField(j, "bw_robust_z");
  r.status = statusFromString(field<std::string>(j, "status"));
  r.reason = field<std::string>(j, "reason");
  return r;
}

std::string pairRoundsText(long long rounds, long long confirmation) {
  std::string s = counted(rounds, "round");
  if (confirmation > 0) s += ", then " + counted(confirmation, "confirmation round");
  return s;
}

}  // namespace pf
