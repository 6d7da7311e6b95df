// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The comparison document: for each NEW run, each result of BASE matched by key (and host, for per-node
// results) and compared by its kind's rule (compare.hpp). A result missing from NEW is a warning: a gate
// must not pass because the figure it guards disappeared.
#include "compare.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "pf/error.hpp"
#include "pf/run_setup.hpp"
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

/// How far a row moved the wrong way, in percent (negative: it improved).
double wrongWay(const ComparisonRow& r) { return r.higher_is_better ? -r.change_pct : r.change_pct; }

/// @param notJudged non-empty when the runs' setups differ so that no change is a regression (the reason)
Result summarise(const Result& base, const std::string& label, Outcome o, const CompareOptions& opt,
                 const std::string& notJudged) {
  Result r;
  r.key = "compare." + base.key;
  r.kind = Kind::kComparison;
  r.host = base.host;
  for (auto& row : o.rows) row.new_label = label;
  r.params = {{"base_key", base.key},
              {"base_kind", toString(base.kind)},
              {"new", label},
              {"threshold_pct", opt.thresholdPct},
              {"latency_slack_us", opt.latencySlackUs},
              {"noise_k", opt.noiseK},
              {"basis", o.basis}};
  if (!notJudged.empty())
    for (auto& row : o.rows) {
      row.regressed = false;
      row.note = "not judged";
    }
  const auto regressed = std::count_if(o.rows.begin(), o.rows.end(), [](const auto& x) { return x.regressed; });
  r.metrics = {{"compared", o.rows.size()}, {"regressed", regressed}, {"limit_pct", o.limitPct}};
  // "Worst" is the largest move the wrong way among the flagged regressions when there are any: a bigger
  // change within the noise or the latency slack is not what a user must act on, so it never outranks one.
  const ComparisonRow* worst = nullptr;
  for (const auto& row : o.rows) {
    if (regressed > 0 && !row.regressed) continue;
    if (!worst || wrongWay(row) > wrongWay(*worst)) worst = &row;
    if (row.regressed) r.evidence.push_back({"regressed", describe(row), "", label});
  }
  const std::string limit =
      o.limitPct > opt.thresholdPct
          ? fmt::format("limit {:.1f}%: the runs' own noise, above --threshold {:g}%", o.limitPct, opt.thresholdPct)
          : fmt::format("limit {:g}%", opt.thresholdPct);
  if (!o.rows.empty() && !notJudged.empty()) {
    r.status = Status::kWarn;
    r.message = fmt::format("{}: {} figures of {} listed, none judged ({}); largest move the wrong way: {}", base.key,
                            o.rows.size(), label, notJudged, describe(*worst));
    r.remedy = "compare runs of the same world size and node count to gate on regressions";
  } else if (o.rows.empty()) {
    r.status = Status::kWarn;
    r.message =
        fmt::format("{}: nothing in {} to compare with (no common sizes, pairs or world sizes)", base.key, label);
    r.remedy = "run the same command with the same sizes (or hosts, world sizes) on both sides";
  } else if (regressed > 0) {
    r.status = Status::kFail;
    r.message = fmt::format("{}: {} of {} figures regressed in {} ({}); worst regression: {}", base.key, regressed,
                            o.rows.size(), label, limit, describe(*worst));
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
    r.message = fmt::format("{}: no regression in {} of {} figures ({}); {}", base.key, label, o.rows.size(), limit,
                            wrongWay(*worst) > 0 ? "largest move the wrong way (not a regression): " + describe(*worst)
                                                 : std::string("none moved the wrong way"));
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

// What BASE and NEW ran with, before any figure is compared. Refused (UsageError, exit 2, naming both files):
//  - a different backend: NCCL against MPI (host memory) or another library measures the software, not the
//    fabric; no threshold turns that difference into a regression, and no figure of one stands for the other;
//  - no collective, data type or reduction op in common: there is no figure to compare, and a warning (exit 0)
//    would let a gate pass on nothing.
// Warned about (this result, status warn, first in the document):
//  - a different world size or node count: busbw and times depend on both (rings and trees change with the
//    rank count, NVLink within a node against the network between nodes), so the sweeps' changes are listed,
//    as a scaling comparison is worth seeing, but none is called a regression ("not judged"; --strict fails);
//  - collectives, data types or ops only partly in common: the common ones are compared, the rest named here.
// Pairs (matched by host names) and scaling runs (matched per world size) do not depend on the document's
// world size, so they are judged whatever it is.
Result setupCheck(const Labelled& base, const Labelled& next) {
  Result r;
  r.key = "compare.setup";
  r.kind = Kind::kComparison;
  r.status = Status::kPass;
  r.params = {{"new", next.label}};
  std::vector<std::string> warnings, scaleDiffs;
  for (const SetupDifference& d : setupDifferences(runSetupOf(base.report), runSetupOf(next.report))) {
    const bool refuse = d.what == "backend" || (d.nothingInCommon && d.what != "world size" && d.what != "node count");
    if (refuse)
      throw UsageError(fmt::format(
          "cannot compare {} with {}: {} ({} has {}, {} has {}); compare runs of the same backend, collective, "
          "data type and op",
          base.label, next.label, d.what, base.label, d.base, next.label, d.next));
    (d.what == "world size" || d.what == "node count" ? scaleDiffs : warnings).push_back(describe(d));
  }
  if (!scaleDiffs.empty()) {
    const std::string why = fmt::format("{}", fmt::join(scaleDiffs, ", "));
    r.params["not_judged"] = why;
    warnings.insert(warnings.begin(),
                    why + " (busbw and times depend on it: sweep changes are listed, not judged as regressions)");
  }
  if (warnings.empty()) return r;
  r.status = Status::kWarn;
  r.message = fmt::format("{} and {} ran differently: {}", base.label, next.label, fmt::join(warnings, "; "));
  r.remedy = "compare runs of the same world size, node count, collectives, data types and ops to gate on them";
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
  // Every NEW's setup first, so a refusal comes before any output and the warnings are the first results
  // (the first lines a reader sees, in every format).
  std::vector<std::string> notJudged;
  for (const Labelled& n : news) {
    Result setup = setupCheck(base, n);
    notJudged.push_back(setup.params.value("not_judged", std::string()));
    if (setup.status != Status::kPass) out.results.push_back(std::move(setup));
  }
  for (std::size_t i = 0; i < news.size(); ++i) {
    const Labelled& n = news[i];
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
        case Kind::kSweep:
          out.results.push_back(summarise(b, n.label, compareSweep(b, *q, opt), opt, notJudged[i]));
          break;
        case Kind::kPairs: out.results.push_back(summarise(b, n.label, comparePairs(b, *q, opt), opt, "")); break;
        case Kind::kScale: out.results.push_back(summarise(b, n.label, compareScale(b, *q, opt), opt, "")); break;
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
