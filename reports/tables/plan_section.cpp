// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The page of `preflight plan`: one section whose headline puts the plan's caveats first (bound or measured,
// single-level fabric, the algorithm a sweep reflects), then the answer: how many nodes stay above the target
// efficiency, and what the largest allocation asked about takes and costs. Every cell is a figure of the
// document (docs/result-schema.md, "Plan results").
#include <fmt/format.h>

#include <algorithm>

#include "charts/chart_model.hpp"
#include "pf/units.hpp"
#include "table_model.hpp"

namespace pf::reports::tables {
namespace {

std::string ms(double v) { return humanNumber(v); }
std::string band(const Json& row, const char* f) {
  const std::string lo = std::string(f) + "_low", hi = std::string(f) + "_high";
  const double v = row.value(f, 0.0), l = row.value(lo, v), h = row.value(hi, v);
  return l == h ? humanNumber(v) : fmt::format("{} ({}-{})", humanNumber(v), humanNumber(l), humanNumber(h));
}
std::string effBand(const Json& row) {
  const double v = row.value("efficiency", 0.0), l = row.value("efficiency_low", v),
               h = row.value("efficiency_high", v);
  return l == h ? fmt::format("{:.2f}", v) : fmt::format("{:.2f} ({:.2f}-{:.2f})", v, l, h);
}

}  // namespace

Section planSection(const Result& plan) {
  Section sec;
  if (plan.kind != Kind::kPlan || plan.rows.empty()) return sec;
  sec.title = "Capacity plan";
  const Json& m = plan.metrics;
  if (m.contains("caveats"))
    for (const Json& c : m["caveats"]) sec.headline.push_back("Caveat: " + c.get<std::string>() + ".");
  sec.headline.push_back(plan.message + ".");
  if (m.contains("nodes_at_target") && !m["nodes_at_target_low"].is_null() && !m["nodes_at_target_high"].is_null() &&
      m["nodes_at_target_low"] != m["nodes_at_target_high"])
    sec.headline.push_back(fmt::format("Within the model's band the largest node count at the target is {} to {}.",
                                       m["nodes_at_target_low"].get<int>(), m["nodes_at_target_high"].get<int>()));

  const bool train = plan.rows[0].contains("hours_to_train"), cost = plan.rows[0].contains("cost");
  Table t{"plan.allocations", "Step, throughput and efficiency by allocation", {}, {}, {}};
  t.header = {"nodes",     "GPUs", "", "step (ms)", "compute (ms)", "exposed comm (ms)", "hidden comm (ms)",
              "samples/s", "E(N)"};
  if (train) t.header.insert(t.header.end(), {"hours to train", "GPU-hours"});
  if (cost) t.header.push_back("cost");
  for (const Json& r : plan.rows) {
    std::vector<std::string> cells{std::to_string(r["nodes"].get<int>()),
                                   std::to_string(r["gpus"].get<int>()),
                                   r.value("bound", false) ? "bound" : "predicted",
                                   band(r, "step_ms"),
                                   ms(r["compute_ms"].get<double>()),
                                   ms(r["exposed_ms"].get<double>()),
                                   ms(r["hidden_ms"].get<double>()),
                                   band(r, "samples_per_s"),
                                   effBand(r)};
    if (train) cells.insert(cells.end(), {band(r, "hours_to_train"), humanNumber(r["gpu_hours"].get<double>())});
    if (cost) cells.push_back(humanNumber(r["cost"].get<double>()));
    t.rows.push_back(std::move(cells));
  }
  t.notes.push_back(
      "E(N) = compute / step, the share of the step spent computing; the band in brackets moves every collective by "
      "its level's fit error. \"bound\": a line rate with no latency term, so the step is a lower bound.");
  sec.tables.push_back(std::move(t));

  const Json& far = plan.rows.back();
  Table c{"plan.collectives", fmt::format("Collectives per step at {} nodes", far["nodes"].get<int>()), {}, {}, {}};
  c.header = {"collective",   "phase",     "of",           "ranks",      "buffer",
              "sent per GPU", "time (ms)", "exposed (ms)", "hidden (ms)"};
  for (const Json& x : far["collectives"])
    c.rows.push_back({x["collective"].get<std::string>(), x["phase"].get<std::string>(), x["what"].get<std::string>(),
                      std::to_string(x["ranks"].get<int>()), charts::binarySize(x["buffer_bytes"].get<double>()),
                      charts::binarySize(x["wire_bytes_per_gpu"].get<double>()), ms(x["time_ms"].get<double>()),
                      ms(x["exposed_ms"].get<double>()), ms(x["hidden_ms"].get<double>())});
  c.notes.push_back(
      "Sent per GPU: the ring's (n-1)/n of the buffer for a reduce-scatter or all-gather, twice that for an "
      "all-reduce (ZeRO, Rajbhandari et al. 2020; PyTorch FSDP, Zhao et al. 2023; Megatron-LM, Shoeybi et al. 2019).");
  sec.tables.push_back(std::move(c));

  if (m.contains("measured") && !m["measured"].empty()) {
    Table v{"plan.measured", "Measured (preflight scale) beside predicted", {}, {}, {}};
    v.header = {"ranks", "nodes", "measured step (ms)", "predicted step (ms)", "error", "measured E", "predicted E"};
    for (const Json& x : m["measured"])
      v.rows.push_back({std::to_string(x["ranks"].get<int>()), std::to_string(x["nodes"].get<int>()),
                        ms(x["measured_step_ms"].get<double>()), ms(x["predicted_step_ms"].get<double>()),
                        fmt::format("{:+.1f}%", 100 * x["error"].get<double>()),
                        fmt::format("{:.3f}", x["measured_efficiency"].get<double>()),
                        fmt::format("{:.3f}", x["predicted_efficiency"].get<double>())});
    sec.tables.push_back(std::move(v));
  }

  if (m.contains("buckets") && !m["buckets"].empty()) {
    Table b{"plan.buckets", fmt::format("Gradient buckets at {} nodes", m["buckets_at_nodes"].get<int>()), {}, {}, {}};
    b.header = {"size", "count", "latency part (us)", "bandwidth part (us)", "algorithm", "bound by"};
    for (const Json& x : m["buckets"])
      b.rows.push_back({charts::binarySize(x["bytes"].get<double>()), std::to_string(x["count"].get<int>()),
                        humanNumber(x["latency_us"].get<double>()), humanNumber(x["bandwidth_us"].get<double>()),
                        x["algorithm"].get<std::string>(),
                        x["level"].get<std::string>() + " " + x["bound"].get<std::string>()});
    sec.tables.push_back(std::move(b));
  }
  if (m.contains("caps")) {
    Table k{
        "plan.caps", fmt::format("Bucket cap at {} nodes (predicted)", m["buckets_at_nodes"].get<int>()), {}, {}, {}};
    k.header = {"bucket cap (MiB)", "buckets", "step (ms)"};
    for (const Json& x : m["caps"])
      k.rows.push_back({fmt::format("{:g}", x["cap_mb"].get<double>()), std::to_string(x["buckets"].get<int>()),
                        ms(x["step_ms"].get<double>())});
    const double gain = m.value("best_cap_gain", 0.0), bandRel = m.value("band_at_caps", 0.0);
    k.notes.push_back(
        m["recommend_cap"].is_null()
            ? fmt::format("No change recommended: the best cap ({:g} MiB) gains {:.1f}%, not more than the model's "
                          "band ({:.1f}%) or {:.0f}%.",
                          m["best_cap_mb"].get<double>(), 100 * gain, 100 * bandRel, 100 * m.value("min_cap_gain", 0.0))
            : fmt::format("Recommended: bucket_cap_mb = {:g} (predicted {:.1f}% faster, beyond the {:.1f}% band).",
                          m["recommend_cap"].get<double>(), 100 * gain, 100 * bandRel));
    sec.tables.push_back(std::move(k));
  }
  if (m.contains("sizes") && !m["sizes"].empty()) {
    Table z{"plan.sizes", "Predicted all-reduce busbw (compare with nccl-tests at scale)", {}, {}, {}};
    z.header = {"size", "nodes", "ranks", "busbw (GB/s)", "algorithm", ""};
    for (const Json& x : m["sizes"])
      z.rows.push_back({charts::binarySize(x["bytes"].get<double>()), std::to_string(x["nodes"].get<int>()),
                        std::to_string(x["ranks"].get<int>()), humanNumber(x["busbw_gbps"].get<double>()),
                        x["algorithm"].get<std::string>(), x.value("bound", false) ? "bound" : "predicted"});
    sec.tables.push_back(std::move(z));
  }
  return sec;
}

std::string sectionText(const Section& s) {
  std::string out;
  for (const std::string& h : s.headline) out += h + "\n";
  for (const Table& t : s.tables) {
    out += "\n" + t.title + "\n";
    std::vector<std::size_t> w(t.header.size(), 0);
    auto widen = [&](const std::vector<std::string>& r) {
      for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], r[i].size());
    };
    widen(t.header);
    for (const auto& r : t.rows) widen(r);
    auto line = [&](const std::vector<std::string>& r) {
      std::string l;
      for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) l += fmt::format("{:>{}}  ", r[i], w[i]);
      while (!l.empty() && l.back() == ' ') l.pop_back();
      return l + "\n";
    };
    out += line(t.header);
    for (const auto& r : t.rows) out += line(r);
    for (const std::string& n : t.notes) out += n + "\n";
  }
  return out;
}

}  // namespace pf::reports::tables
