// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "timeline.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <map>

#include "clock.hpp"

namespace pf::doctor {

InputPlanner ArtefactSession::planner() {
  return [this](const std::string& name, std::string_view head) {
    InputPlan p;
    std::string why;
    const ArtefactKind* kind = recogniseArtefact(head, why);
    if (!kind) {
      skipped_.push_back({name, why});
      p.scan = false;
      return p;
    }
    inputs_.push_back({name, kind->key(), kind->description()});
    p.scan = kind->readsAsLog();
    auto state = jobStates_.find(kind->key());
    if (state == jobStates_.end()) state = jobStates_.emplace(kind->key(), kind->jobState()).first;
    current_ = state->second ? kind->openInJob(name, *state->second) : kind->open(name);
    ArtefactReader* r = current_.get();
    p.tap = [r](std::string_view block) { r->block(block); };
    if (r->takesMarkedLines())
      p.tapMarked = [r](std::string_view block, const std::vector<std::size_t>& starts, std::size_t newlines) {
        r->markedLines(block, starts, newlines);
      };
    // Each reader finishes as its file ends, so a document's text is not held past its own file.
    p.done = [this] {
      current_->finish(out_);
      current_.reset();
    };
    return p;
  };
}

namespace {

// The year for a month and day printed without one: the year that puts it nearest to a full date seen elsewhere
// (a log written across New Year's Eve keeps its December in the old year).
int tlYearNear(const Stamp& s, const Stamp& ref) {
  const int64_t refDay = daysFromCivil(ref.year, ref.month, ref.day);
  int best = ref.year;
  int64_t bestGap = INT64_MAX;
  for (int y = ref.year - 1; y <= ref.year + 1; ++y) {
    const int64_t gap = std::llabs(daysFromCivil(y, s.month, s.day) - refDay);
    if (gap < bestGap) best = y, bestGap = gap;
  }
  return best;
}

const char* tlClockName(Clock c) {
  switch (c) {
    case Clock::kUtc: return "UTC (epoch or ISO 8601 with a zone)";
    case Clock::kWall: return "local wall clock with a date (NCCL, Slurm, dmesg -T, torchrun)";
    case Clock::kWallNoYear: return "local wall clock without a year (PyTorch, syslog)";
    case Clock::kBoot: return "kernel boot offsets";
    case Clock::kNone: break;
  }
  return "no time";
}

}  // namespace

std::vector<OrderedEvent> orderEvents(const std::vector<TimelineEvent>& events, const TimelineOptions& o,
                                      std::vector<std::string>& notes) {
  std::map<Clock, std::size_t> clocks;
  const Stamp* ref = nullptr;
  for (const auto& e : events) {
    ++clocks[e.stamp.clock];
    if (!ref && (e.stamp.clock == Clock::kWall || e.stamp.clock == Clock::kUtc)) ref = &e.stamp;
  }
  // With no full date anywhere, no event has a UTC time, and the stamps without a year (PyTorch's, syslog's) can
  // only be compared with each other: as if of one year. A leap year, so that a "Feb 29" stamp reads.
  constexpr int kOneAssumedYear = 2000;
  std::vector<OrderedEvent> out;
  std::size_t unanchoredBoot = 0, noYear = 0;
  for (const auto& e : events) {
    OrderedEvent oe{&e, std::nullopt, std::nullopt};
    const int year = e.stamp.clock == Clock::kWallNoYear && ref ? tlYearNear(e.stamp, *ref) : 0;
    oe.utcUs = oe.orderUs = toUtcUs(e.stamp, o.localOffsetMin, year);
    if (e.stamp.clock == Clock::kBoot) ++unanchoredBoot;
    if (e.stamp.clock == Clock::kWallNoYear && !ref) {
      ++noYear;
      oe.orderUs = toUtcUs(e.stamp, o.localOffsetMin, kOneAssumedYear);
    }
    out.push_back(oe);
  }
  // At one time, a line that took its stamp from the next stamped line comes before that line.
  std::stable_sort(out.begin(), out.end(), [](const OrderedEvent& x, const OrderedEvent& y) {
    if (x.orderUs.has_value() != y.orderUs.has_value()) return x.orderUs.has_value();
    if (!x.orderUs || *x.orderUs != *y.orderUs) return x.orderUs && *x.orderUs < *y.orderUs;
    return x.event->stampOfNextLine && !y.event->stampOfNextLine;
  });
  std::vector<std::string> seen;
  for (const auto& [c, n] : clocks)
    if (c != Clock::kNone) seen.push_back(fmt::format("{} {}", n, tlClockName(c)));
  if (!seen.empty()) notes.push_back("times read: " + fmt::format("{}", fmt::join(seen, "; ")));
  if (clocks.count(Clock::kWall) || clocks.count(Clock::kWallNoYear)) {
    const int h = std::abs(o.localOffsetMin) / 60, m = std::abs(o.localOffsetMin) % 60;
    notes.push_back(
        fmt::format("local wall-clock times {} UTC{}{:02}:{:02}{}", o.offsetGiven ? "converted at" : "taken as",
                    o.localOffsetMin < 0 ? '-' : '+', h, m,
                    o.offsetGiven ? "" : " (no artefact says the nodes' zone; give --utc-offset if it differs)"));
  }
  if (clocks.count(Clock::kWallNoYear) && ref)
    notes.push_back(
        fmt::format("the year of stamps printed without one ({}) is taken from the nearest full date, "
                    "e.g. {} ({})",
                    clocks[Clock::kWallNoYear], ref->text, ref->year));
  if (noYear)
    notes.push_back(
        fmt::format("{} event(s) printed without a year and no artefact gave one: ordered among themselves as if of "
                    "one year, with no UTC time",
                    noYear));
  std::size_t borrowed = 0;
  for (const auto& e : events) borrowed += e.stampOfNextLine ? 1 : 0;
  if (borrowed)
    notes.push_back(fmt::format(
        "{} failing line(s) without a stamp of their own placed at the next stamped line of their file (printed no "
        "later)",
        borrowed));
  if (unanchoredBoot)
    notes.push_back(
        fmt::format("{} kernel event(s) with boot offsets only (no line of the same log gives the wall time "
                    "too, e.g. syslog's \"kernel: [12345.678901]\" or dmesg -T): left unordered",
                    unanchoredBoot));
  if (clocks.count(Clock::kNone))
    notes.push_back(
        fmt::format("{} event(s) carry no time at all (RAS reports, log lines without a timestamp): listed "
                    "after the ordered ones",
                    clocks[Clock::kNone]));
  return out;
}

}  // namespace pf::doctor
