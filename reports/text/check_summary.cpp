// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The blocks `preflight check` prints before its verdict, one per phase, so that a newcomer sees what was
// checked and against what: the probes (how many passed, what was absent and what was looked for), the quick
// all-reduce (its peak against the pair expectation and where that came from), the pair matrix (the slowest pair
// against the median) and what was skipped and why. Every figure is one of the document's.
#include "check_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "charts/chart_model.hpp"
#include "pf/pair_row.hpp"
#include "pf/sweep_row.hpp"
#include "pf/units.hpp"

namespace pf::reports {
namespace {

constexpr std::size_t kWidth = 90;   // a detail line's length before it is cut (one screen, no wrapping)
const std::string kIndent(21, ' ');  // detail lines start under the phase's text, after name and seconds

std::string cutToWidth(std::string s) {
  if (s.size() > kWidth) s = s.substr(0, kWidth - 3) + "...";
  return s;
}

std::string phaseSeconds(const RunReport& report, const std::string& name) {
  for (const Phase& p : report.phases)
    if (p.name == name) return fmt::format("{:5.1f} s", p.seconds);
  return "       ";
}

const Result* resultByKey(const RunReport& report, const std::string& key) {
  for (const Result& r : report.results)
    if (r.key == key) return &r;
  return nullptr;
}

std::optional<double> number(const Json& j, const char* name) {
  if (j.is_object() && j.contains(name) && j.at(name).is_number()) return j.at(name).get<double>();
  return std::nullopt;
}

std::string probes(const RunReport& report) {
  // Per probe key, the worst status over the nodes and the first node's message.
  std::map<std::string, const Result*> worst;
  for (const Result& r : report.results)
    if (r.kind == Kind::kProbe) {
      const Result*& w = worst[r.key];
      if (!w || static_cast<int>(r.status) > static_cast<int>(w->status)) w = &r;
    }
  if (worst.empty()) return {};
  std::map<Status, int> count;
  std::string absent;
  for (const auto& [key, r] : worst) {
    ++count[r->status];
    if (r->status == Status::kAbsent)
      absent += kIndent + cutToWidth(fmt::format("{}: {}", key.substr(key.find('.') + 1), r->message)) + "\n";
  }
  std::string line = fmt::format("probes      {}  {} pass", phaseSeconds(report, "probes"), count[Status::kPass]);
  for (Status s : {Status::kAbsent, Status::kWarn, Status::kFail, Status::kError, Status::kSkipped})
    if (count[s]) line += fmt::format(", {} {}", count[s], toString(s));
  return line + "\n" + absent;
}

std::string allReduce(const RunReport& report, const Result* pairs) {
  const Result* sweep = resultByKey(report, "sweep.all_reduce");
  if (!sweep) return {};
  const std::string head = "all-reduce  " + phaseSeconds(report, "allreduce") + "  ";
  if (sweep->status == Status::kSkipped) return head + "skipped: " + sweep->message + "\n";
  double peak = 0, peakSize = 0;
  // The sizes it ran, from its rows: the asked-for maximum is often not a step of the sweep (8 B x16 never
  // reaches 4 MiB).
  uint64_t smallest = 0, largest = 0;
  for (const Json& j : sweep->rows) {
    const SweepRow row = sweepRowFromJson(j);
    if (row.busbw_gbps > peak) peak = row.busbw_gbps, peakSize = static_cast<double>(row.size_bytes);
    smallest = smallest == 0 ? row.size_bytes : std::min(smallest, row.size_bytes);
    largest = std::max(largest, row.size_bytes);
  }
  const int ranks = sweep->params.value("ranks", 0);
  const std::string sizes = sweep->rows.empty() ? "no size measured"
                            : smallest == largest
                                ? charts::binarySize(static_cast<double>(smallest))
                                : fmt::format("{} to {}", charts::binarySize(static_cast<double>(smallest)),
                                              charts::binarySize(static_cast<double>(largest)));
  std::string out = head + fmt::format("peak busbw {:.2f} GB/s at {} on {} ({}), {}\n", peak,
                                       charts::binarySize(peakSize), counted(ranks, "rank"), sizes,
                                       sweep->metrics.value("wrong_total", 0) == 0 ? "all data correct" : "WRONG DATA");
  // The expectation is the pair test's (a ring all-reduce cannot beat its slowest link).
  const std::optional<double> expected = pairs ? number(pairs->metrics, "expected_gbps") : std::nullopt;
  const double from = sweep->params.value("bandwidth_bound_from_bytes", 0.0);
  if (expected && from > 0)
    out += kIndent +
           cutToWidth(fmt::format("expected: busbw near {:.2f} GB/s (the pair expectation) from {} up", *expected,
                                  charts::binarySize(from))) +
           "\n";
  else
    out += kIndent + "expected: none (no pair expectation: judged only for correct data)\n";
  return out;
}

std::string pairMatrix(const RunReport& report, const Result* pairs) {
  if (!pairs) return {};
  const std::string head = "pairs       " + phaseSeconds(report, "pairs") + "  ";
  if (pairs->status == Status::kSkipped) return head + "skipped: " + pairs->message + "\n";
  const PairRow* slowest = nullptr;
  std::vector<PairRow> rows;
  for (const Json& j : pairs->rows) rows.push_back(pairRowFromJson(j));
  auto bw = [](const PairRow& r) { return std::min(r.bw_a_to_b_gbps, r.bw_b_to_a_gbps); };
  for (const PairRow& r : rows)
    if (!slowest || bw(r) < bw(*slowest)) slowest = &r;
  const double median = number(pairs->metrics, "median_bw_gbps").value_or(0);
  // With several rails (check --rails) each pair has a row per rail: "6 pairs on 4 rails".
  const long long railCount = pairs->metrics.value("rails", 0);
  const long long pairCount = static_cast<long long>(rows.size()) / std::max(1LL, railCount);
  std::string out =
      head +
      fmt::format("{}{} in {}", counted(pairCount, "pair"), railCount > 0 ? " on " + counted(railCount, "rail") : "",
                  pairRoundsText(pairs->metrics.value("rounds", 0), pairs->metrics.value("confirmation_rounds", 0)));
  out += fmt::format(", median {:.3f} GB/s", median);
  if (slowest)
    out += fmt::format("; slowest {}-{}{} {:.3f} GB/s ({:.0f}% of the median)", slowest->host_a, slowest->host_b,
                       slowest->rail >= 0 ? fmt::format(" on rail {} ({})", slowest->rail, slowest->nic_a) : "",
                       bw(*slowest), median > 0 ? 100 * bw(*slowest) / median : 0.0);
  out += "\n";
  for (const Evidence& e : pairs->evidence)
    if (e.what == "expected bandwidth from") {
      const std::optional<double> expected = number(pairs->metrics, "expected_gbps");
      out += kIndent +
             cutToWidth(expected ? fmt::format("expected {:.3f} GB/s: {}", *expected, e.value.get<std::string>())
                                 : "expected: " + e.value.get<std::string>()) +
             "\n";
    }
  return out;
}

}  // namespace

std::string phaseBlocks(const RunReport& report) {
  const Result* pairs = resultByKey(report, "pairs");
  std::string out = probes(report) + allReduce(report, pairs) + pairMatrix(report, pairs);
  // Anything else that was skipped (a phase turned off, a probe that could not run), with its reason.
  for (const Result& r : report.results)
    if (r.status == Status::kSkipped && r.kind != Kind::kProbe && r.key != "pairs" && r.key != "sweep.all_reduce")
      out += "skipped     " + cutToWidth(fmt::format("{}: {}", r.key, r.message)) + "\n";
  return out;
}

}  // namespace pf::reports
