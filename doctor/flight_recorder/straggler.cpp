// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "flight_recorder/straggler.hpp"

#include <algorithm>
#include <cmath>

#include "flight_recorder/group_match.hpp"

namespace pf::doctor::fr {
namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double hi = v[mid];
  if (v.size() % 2 == 1) return hi;
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)) + hi) / 2;
}

// Creation times in ms of one collective's entries, sorted, with their ranks; empty unless every entry has one.
// In double: times from a damaged dump could overflow a 64-bit difference.
std::vector<std::pair<double, int>> createdMs(const Arrivals& a) {
  std::vector<std::pair<double, int>> out;
  for (const auto& [rank, e] : a.entries) {
    if (!e->timeCreatedNs) return {};
    out.push_back({static_cast<double>(*e->timeCreatedNs) / 1e6, rank});
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

double stragglerLimitMs(const std::vector<Arrivals>& all) {
  std::vector<double> offsets;
  for (const Arrivals& a : all) {
    const auto created = createdMs(a);
    if (created.size() < 2) continue;
    std::vector<double> times;
    for (const auto& c : created) times.push_back(c.first);
    const double mid = median(times);
    for (double t : times) offsets.push_back(t - mid);
  }
  const double centre = median(offsets);
  std::vector<double> deviations;
  for (double o : offsets) deviations.push_back(std::fabs(o - centre));
  const double spread = 1.4826 * median(deviations);
  return std::max(kStragglerFloorMs, kStragglerSpreads * spread);
}

std::optional<Headline> findStraggler(const std::vector<Arrivals>& all) {
  const double limit = stragglerLimitMs(all);
  std::optional<Headline> worst;
  for (const Arrivals& a : all) {
    const auto created = createdMs(a);
    if (created.size() < 2) continue;
    // The last rank against the one before it: how long the most patient of the others waited for it.
    const double late = created.back().first - created[created.size() - 2].first;
    if (late < limit || (worst && late <= *worst->lateMs)) continue;
    Headline h;
    h.kind = VerdictKind::kStraggler;
    h.seq = a.seq;
    h.ranks = {created.back().second};
    h.lateMs = late;
    h.lateLimitMs = limit;
    for (const auto& c : created)
      if (c.second != created.back().second) h.waiting.push_back(c.second);
    std::sort(h.waiting.begin(), h.waiting.end());
    for (const auto& [rank, e] : a.entries)
      if (rank == created.back().second) {
        h.op = e->profilingName;
        h.inputSizes = e->inputSizes;
        h.outputSizes = e->outputSizes;
        h.inputDtypes = e->inputDtypes;
        h.outputDtypes = e->outputDtypes;
        setCulpritCall(h, *e);
      }
    worst = std::move(h);
  }
  return worst;
}

}  // namespace pf::doctor::fr
