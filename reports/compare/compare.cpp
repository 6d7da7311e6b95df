// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The comparison document: for each NEW run, each result of BASE matched by key (and host, for per-node
// results) and compared by its kind's rule (compare.hpp). A result missing from NEW is a warning: a gate
// must not pass because the figure it guards disappeared.
#include "compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "pf/timer.hpp"

namespace pf::reports::compare {
namespace {

std::string matchKey(const Result& r) { return r.host.empty() ? r.key : r.key + "@" + r.host; }

const Result* find(const RunReport& doc, const Result& like) {
  for (const Result& r : doc.results)
    if (matchKey(r) == matchKey(like)) return &r;
  return nullptr;
}

std::string describe(const ComparisonRow& r) {
  const std::string what = r.subject.empty() ? r.item : r.subject + " " + r.item;
  return fmt::format("{} {} {:.4g} -> {:.4g} ({:+.1f}%{})", what, r.metric, r.base, r.value, r.change_pct,
                     r.note.empty() ? "" : ", " + r.note);
}

Result summarise(const Result& base, const std::string& label, Outcome o, const CompareOptions& opt) {
  Result r;
  r.key = "compare." + base.key;
  r.kind = Kind::kComparison;
  r.host = base.host;
  for (auto& row : o.rows) row.new_label = label;
  const auto regressed = std::count_if(o.rows.begin(), o.rows.end(), [](const auto& x) { return x.regressed; });
  r.params = {{"base_key", base.key},
              {"base_kind", toString(base.kind)},
              {"new", label},
              {"threshold_pct", opt.thresholdPct},
              {"latency_slack_us", opt.latencySlackUs},
              {"noise_k", opt.noiseK},
              {"basis", o.basis}};
  r.metrics = {{"compared", o.rows.size()}, {"regressed", regressed}, {"limit_pct", o.limitPct}};
  const ComparisonRow* worst = nullptr;
  for (const auto& row : o.rows) {
    const double worse = row.higher_is_better ? -row.change_pct : row.change_pct;
    if (!worst || worse > (worst->higher_is_better ? -worst->change_pct : worst->change_pct)) worst = &row;
    if (row.regressed) r.evidence.push_back({"regressed", describe(row), "", label});
  }
  const std::string limit =
      o.limitPct > opt.thresholdPct
          ? fmt::format("limit {:.1f}%: the runs' own noise, above --threshold {:g}%", o.limitPct, opt.thresholdPct)
          : fmt::format("limit {:g}%", opt.thresholdPct);
  if (o.rows.empty()) {
    r.status = Status::kWarn;
    r.message =
        fmt::format("{}: nothing in {} to compare with (no common sizes, pairs or world sizes)", base.key, label);
    r.remedy = "run the same command with the same sizes (or hosts, world sizes) on both sides";
  } else if (regressed > 0) {
    r.status = Status::kFail;
    r.message = fmt::format("{}: {} of {} figures regressed in {} ({}); worst: {}", base.key, regressed, o.rows.size(),
                            label, limit, describe(*worst));
    r.remedy = base.kind == Kind::kPairs ? "run `preflight pairs` again; a pair that stays slow names its link"
                                         : "run both again, with -N 3 if they were one pass, to rule out noise; if it "
                                           "persists, `preflight check` on the NEW nodes names the slow node or link";
  } else {
    // A pass at a limit far above the one asked for would read as "no 5% regression" when the runs could
    // not have shown one: say so, as a warning (exit 0 unless --strict).
    const bool tooNoisy = o.limitPct > 2 * opt.thresholdPct;
    r.status = tooNoisy ? Status::kWarn : Status::kPass;
    if (tooNoisy)
      r.remedy = fmt::format(
          "the runs are too noisy to judge at {:g}%: compare runs on quiet nodes, or with more "
          "passes (-N 3) and iterations (-n), before trusting a pass",
          opt.thresholdPct);
    const double worse = worst->higher_is_better ? -worst->change_pct : worst->change_pct;
    r.message = fmt::format(
        "{}: no regression in {} of {} figures ({}); {}", base.key, label, o.rows.size(), limit,
        worse > 0 ? "largest move the wrong way: " + describe(*worst) : std::string("none moved the wrong way"));
  }
  for (const auto& row : o.rows) r.rows.push_back(toJson(row));
  return r;
}

/// A probe, check, env or doctor result whose status got worse.
Result statusChange(const Result& base, const Result& next, const std::string& label) {
  Result r;
  r.key = "compare." + base.key;
  r.kind = Kind::kComparison;
  r.host = base.host;
  ComparisonRow row;
  row.new_label = label;
  row.item = matchKey(base);
  row.metric = "status";
  row.higher_is_better = false;
  row.base = static_cast<int>(base.status);
  row.value = static_cast<int>(next.status);
  row.note = fmt::format("{} -> {}", toString(base.status), toString(next.status));
  row.regressed = worst(base.status, next.status) == next.status && next.status != base.status &&
                  worst(next.status, Status::kWarn) == next.status;
  r.status = row.regressed ? Status::kFail : Status::kPass;
  r.params = {{"base_key", base.key}, {"base_kind", toString(base.kind)}, {"new", label}};
  r.message = fmt::format("{}: {} in {}: {}", matchKey(base), row.note, label, next.message);
  r.remedy = row.regressed ? next.remedy : "";
  r.rows.push_back(toJson(row));
  return r;
}

}  // namespace

double changePct(double base, double value) { return base == 0 ? 0 : (value - base) / base * 100; }

double noiseLimitPct(const std::vector<double>& changesPct, const CompareOptions& o) {
  if (changesPct.size() < 6) return o.thresholdPct;
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
  };
  const double mid = median(changesPct);
  std::vector<double> dev;
  for (double c : changesPct) dev.push_back(std::fabs(c - mid));
  return std::max(o.thresholdPct, o.noiseK * 1.4826 * median(dev));
}

RunReport compareDocuments(const Labelled& base, const std::vector<Labelled>& news, const CompareOptions& opt) {
  RunReport out;
  out.context.command = "compare";
  out.context.start_time = utcNowIso8601();
  out.context.hostname = base.report.context.hostname;
  Json labels = Json::array();
  for (const auto& n : news) labels.push_back(n.label);
  out.context.extra = {{"base", base.label},
                       {"base_command", base.report.context.command},
                       {"base_tool", base.report.context.tool},
                       {"new", labels},
                       {"threshold_pct", opt.thresholdPct}};
  for (const Labelled& n : news) {
    for (const Result& b : base.report.results) {
      if (b.kind == Kind::kComparison) continue;
      const Result* q = find(n.report, b);
      if (!q) {
        Result missing;
        missing.key = "compare." + b.key;
        missing.kind = Kind::kComparison;
        missing.host = b.host;
        missing.status = Status::kWarn;
        missing.params = {{"base_key", b.key}, {"base_kind", toString(b.kind)}, {"new", n.label}};
        missing.message = fmt::format("{} is in {} but not in {}", matchKey(b), base.label, n.label);
        missing.remedy = "compare runs of the same command and options";
        out.results.push_back(std::move(missing));
        continue;
      }
      switch (b.kind) {
        case Kind::kSweep: out.results.push_back(summarise(b, n.label, compareSweep(b, *q, opt), opt)); break;
        case Kind::kPairs: out.results.push_back(summarise(b, n.label, comparePairs(b, *q, opt), opt)); break;
        case Kind::kScale: out.results.push_back(summarise(b, n.label, compareScale(b, *q, opt), opt)); break;
        default: break;
      }
      // Whatever the figures say, a result whose own verdict got worse (wrong elements in a sweep, a probe
      // that now fails) is reported, and is a regression when it is now warn or worse.
      if (q->status != b.status) out.results.push_back(statusChange(b, *q, n.label));
    }
  }
  out.context.end_time = utcNowIso8601();
  return out;
}

}  // namespace pf::reports::compare
