// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Scaling runs compared per world size. The document holds each size's spread over repetitions, so a drop
// counts only when it passes the threshold and the two runs' min-max ranges no longer overlap: the spread
// is the noise, measured, rather than estimated across sizes.
#include <map>

#include "compare.hpp"
#include "pf/scale_row.hpp"

namespace pf::reports::compare {
namespace {

ComparisonRow spreadRow(const char* subject, const char* metric, int ranks, const SpreadStat& b, const SpreadStat& n,
                        double thresholdPct) {
  ComparisonRow r;
  r.subject = subject;
  r.metric = metric;
  r.x = ranks;
  r.item = std::to_string(ranks) + " ranks";
  r.base = b.median;
  r.value = n.median;
  r.change_pct = changePct(b.median, n.median);
  r.limit_pct = thresholdPct;
  const bool beyond = -r.change_pct > thresholdPct;
  const bool apart = n.max < b.min;  // every NEW repetition below every BASE one
  r.regressed = beyond && apart;
  if (beyond && !apart) r.note = "repetition ranges overlap";
  return r;
}

}  // namespace

Outcome compareScale(const Result& base, const Result& next, const CompareOptions& o) {
  std::map<int, ScaleRow> n;
  for (const ScaleRow& r : scaleSummaryFromResult(next).rows) n[r.ranks] = r;
  Outcome out{{}, o.thresholdPct, "median of repetitions"};
  for (const ScaleRow& b : scaleSummaryFromResult(base).rows) {
    auto q = n.find(b.ranks);
    if (q == n.end()) continue;
    out.rows.push_back(
        spreadRow("throughput", "throughput_sps", b.ranks, b.throughput_sps, q->second.throughput_sps, o.thresholdPct));
    out.rows.push_back(
        spreadRow("efficiency", "efficiency", b.ranks, b.efficiency, q->second.efficiency, o.thresholdPct));
  }
  return out;
}

}  // namespace pf::reports::compare
