// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/comparison_row.hpp"

#include "pf/json_field.hpp"

namespace pf {

Json toJson(const ComparisonRow& r) {
  return Json{{"new_label", r.new_label},
              {"subject", r.subject},
              {"x", r.x},
              {"item", r.item},
              {"metric", r.metric},
              {"higher_is_better", r.higher_is_better},
              {"base", r.base},
              {"value", r.value},
              {"change_pct", r.change_pct},
              {"limit_pct", r.limit_pct},
              {"bound", r.bound},
              {"note", r.note},
              {"regressed", r.regressed},
              {"base_busbw_gbps", jsonOrNull(r.base_busbw_gbps)},
              {"new_busbw_gbps", jsonOrNull(r.new_busbw_gbps)}};
}

ComparisonRow comparisonRowFromJson(const Json& j) {
  if (!j.is_object()) throw UsageError("result document: a comparison row is not an object");
  const char* w = "comparison row";
  ComparisonRow r;
  if (!j.contains("metric") || !j.contains("base") || !j.contains("value"))
    throw UsageError("result document: a comparison row needs 'metric', 'base' and 'value'");
  readField(j, "new_label", r.new_label, w);
  readField(j, "subject", r.subject, w);
  readField(j, "x", r.x, w);
  readField(j, "item", r.item, w);
  readField(j, "metric", r.metric, w);
  readField(j, "higher_is_better", r.higher_is_better, w);
  readField(j, "base", r.base, w);
  readField(j, "value", r.value, w);
  readField(j, "change_pct", r.change_pct, w);
  readField(j, "limit_pct", r.limit_pct, w);
  readField(j, "bound", r.bound, w);
  readField(j, "note", r.note, w);
  readField(j, "regressed", r.regressed, w);
  auto optional = [&](const char* name) -> std::optional<double> {
    if (!j.contains(name) || j.at(name).is_null()) return std::nullopt;
    double v = 0;
    readField(j, name, v, w);
    return v;
  };
  r.base_busbw_gbps = optional("base_busbw_gbps");
  r.new_busbw_gbps = optional("new_busbw_gbps");
  return r;
}

}  // namespace pf
