// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "allreduce_verdict.hpp"

#include <fmt/format.h>

#include "pf/sweep_row.hpp"
#include "pf/units.hpp"

namespace pf::check {

double bandwidthBoundBytes(const Expectation& e, const AllReduceLimits& l) {
  if (!e.bwGbps || !e.latUs || *e.bwGbps <= 0) return 0;
  return l.bandwidthBoundFactor * (*e.bwGbps * 1e9) * (*e.latUs * 1e-6);
}

AllReduceSizes allReduceSizes(const std::optional<double>& linkGbps, const AllReduceLimits& l, bool quick) {
  AllReduceSizes s;
  // The grid from 8 B = 2^3: full steps x16 reach 2^(3+4k), quick's 3 sizes 8 B, 2^(3+m), 2^(3+2m).
  const int stepBits = quick ? 2 : 4;
  double target = 0;
  if (linkGbps && *linkGbps > 0) target = l.bandwidthBoundFactor * (*linkGbps * 1e9) * (kRdmaLatencyUs * 1e-6);
  int bits = 19;  // 512 KiB, the largest size without a link rate
  while ((uint64_t{1} << bits) < target && (uint64_t{1} << (bits + stepBits)) <= kMaxAllReduceBytes) bits += stepBits;
  s.maxBytes = uint64_t{1} << bits;
  s.stepFactor = quick ? uint64_t{1} << ((bits - 3) / 2) : 16;
  if (target <= 0)
    s.why = "no link rate known: 512 KiB";
  else
    s.why =
        fmt::format("{} x the bandwidth-delay product of {:.1f} GB/s links at {:g} us = {}, on the size grid{}",
                    l.bandwidthBoundFactor, *linkGbps, kRdmaLatencyUs, Bytes{static_cast<uint64_t>(target)},
                    static_cast<double>(s.maxBytes) < target ? fmt::format(" (capped at {})", Bytes{s.maxBytes}) : "");
  return s;
}

AllReduceSizes agreeAllReduceSizes(Bootstrap& boot, const std::vector<NodeLinks>& links, const AllReduceLimits& l,
                                   bool quick) {
  std::string mine;
  if (boot.rank() == 0) {
    const AllReduceSizes s = allReduceSizes(expectFromLinks(links, 1), l, quick);
    mine = Json{{"max", s.maxBytes}, {"step", s.stepFactor}, {"why", s.why}}.dump();
  }
  const Json j = Json::parse(boot.allGather(mine).at(0));
  AllReduceSizes s;
  s.maxBytes = j.at("max").get<uint64_t>();
  s.stepFactor = j.at("step").get<uint64_t>();
  s.why = j.at("why").get<std::string>();
  return s;
}

namespace {
std::string rowName(const SweepRow& r) {
  return fmt::format("all_reduce {} {} {}", Bytes{r.size_bytes}, r.dtype,
                     r.placement == "in" ? "in-place" : "out-of-place");
}
}  // namespace

std::vector<Finding> judgeAllReduce(const Result& sweep, const Expectation& e, int nodes, const AllReduceLimits& l) {
  std::vector<Finding> out;
  std::vector<SweepRow> rows;
  for (const Json& j : sweep.rows) rows.push_back(sweepRowFromJson(j));
  int64_t wrong = 0;
  for (const SweepRow& row : rows) wrong += row.wrong.value_or(0);
  if (wrong > 0) {
    Finding f;
    f.check = "allreduce.correctness";
    f.message = fmt::format("all_reduce returned {} wrong elements: data is corrupted on the way", wrong);
    f.remedy =
        "rerun `preflight sweep all_reduce -c 5 --json ar.json` to see which sizes, then check the nodes' "
        "memory (ECC errors in dmesg / edac-util) and NICs; do not train on this allocation";
    for (const SweepRow& row : rows)
      if (row.wrong.value_or(0) > 0)
        f.evidence.push_back({"wrong elements, " + rowName(row), *row.wrong, "", sweep.key});
    out.push_back(std::move(f));
  }
  if (!sweep.rows.empty() && sweep.status == Status::kError) {
    Finding f;
    f.check = "allreduce.run";
    f.message = "all_reduce did not complete: " + sweep.message;
    f.remedy = "run `preflight sweep all_reduce` alone on this allocation to see the error";
    out.push_back(std::move(f));
  }
  if (!e.relative || !e.bwGbps || !e.latUs || nodes < 2) return out;
  const double boundAt = bandwidthBoundBytes(e, l);
  for (const SweepRow& row : rows) {
    if (row.placement != "out") continue;
    const double size = static_cast<double>(row.size_bytes), busbw = row.busbw_gbps, time = row.time_us;
    Finding f;
    f.status = Status::kWarn;
    f.evidence.push_back({"busbw, " + rowName(row), busbw, "GB/s", sweep.key});
    f.evidence.push_back({"time, " + rowName(row), time, "us", sweep.key});
    if (size >= boundAt) {
      // A node profile's expect.allreduce_busbw_gbs replaces the pair expectation as the reference.
      const double expected = l.declaredBusbwGbps.value_or(*e.bwGbps);
      const double limit = l.bwWarnFraction * expected;
      if (busbw >= limit) continue;
      f.check = "allreduce.bandwidth";
      f.message =
          fmt::format("all_reduce at {} (bandwidth-bound): busbw {:.3f} GB/s is below {:.0f}% of {} {:.3f} GB/s",
                      Bytes{static_cast<uint64_t>(size)}, busbw, 100 * l.bwWarnFraction,
                      l.declaredBusbwGbps ? "the profile's all-reduce expectation (" + l.declaredSource + ")"
                                          : std::string("the pair expectation"),
                      expected);
    } else {
      const double limit = l.latWarnFactor * 2 * (nodes - 1) * *e.latUs;
      if (time <= limit) continue;
      f.check = "allreduce.latency";
      f.message = fmt::format(
          "all_reduce at {} (latency-bound): {:.1f} us exceeds {:.1f} us ({} x 2(n-1) pair "
          "latencies of {:.1f} us)",
          Bytes{static_cast<uint64_t>(size)}, time, limit, l.latWarnFactor, *e.latUs);
    }
    f.remedy =
        "the pair matrix names slow nodes; if every pair is healthy, look at the MPI/NCCL configuration "
        "(transport selection, interface variables) with `preflight sweep all_reduce`";
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace pf::check
