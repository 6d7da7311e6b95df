// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "nccl_table.hpp"

#include <fmt/format.h>

#include <array>

#include "pf/units.hpp"

namespace pf::reports {

namespace {

std::string half(const SweepRow& r, bool iterColumns) {
  std::string s = fmt::format("  {:>7}  {:>6}  {:>6}", fitNumber(r.time_us, 7), fitNumber(r.algbw_gbps, 6),
                              fitNumber(r.busbw_gbps, 6));
  // #wrong is printed with %6g, or N/A when the check was off.
  s += r.wrong ? fmt::format("  {:>6}", fmt::format("{:g}", static_cast<double>(*r.wrong))) : "     N/A";
  if (iterColumns) {
    auto col = [](const std::optional<double>& v, int w) { return v ? fitNumber(*v, w) : std::string("N/A"); };
    s += fmt::format("  {:>7}  {:>7}  {:>5}", col(r.iter_p50_us, 7), col(r.iter_p99_us, 7), col(r.rank_skew, 5));
  }
  return s;
}

}  // namespace

std::string ncclTableHeader(const SweepParams& p, const Json& devices, const std::string& version, bool iterColumns,
                            const std::string& tool) {
  const std::string coll = p.collective.empty() ? "?" : p.collective;
  const uint64_t factor = p.step_factor;
  bool geometric = factor > 1;
  std::string s;
  s += fmt::format("# {} {} sweep, backend {}\n", tool,
                   version.empty() && tool != "preflight" ? "(version not printed)" : version,
                   p.backend.empty() ? "?" : p.backend);
  s += fmt::format("# Collective test starting: {}_perf\n", coll);
  s += fmt::format(
      "# nThread 1 nGpus 1 minBytes {} maxBytes {} step: {}({}) warmup iters: {} iters: {} agg iters: 1 "
      "validation: {} graph: 0 unalign: 0\n",
      p.min_bytes, p.max_bytes, geometric ? factor : p.step_bytes, geometric ? "factor" : "bytes", p.warmup_iters,
      p.iters, p.check_iters > 0 ? 1 : 0);
  s += "#\n# Using devices\n";
  for (const Json& d : devices) {
    // An imported device line may lack its pid (very old nccl-tests): null prints as 0 rather than failing.
    s += fmt::format("#  Rank {:2} Group  0 Pid {:6} on {:>10} device {:>2} [{}] {}\n", d.value("rank", 0),
                     d.contains("pid") && d.at("pid").is_number_integer() ? d.at("pid").get<int>() : 0,
                     d.value("host", std::string("?")), d.value("device", std::string("-")),
                     d.value("pci_bus_id", std::string("host")), d.value("device_name", std::string("")));
  }
  // Widths reproduce util.cu's header byte for byte (nccl-tests' src/util.cu), trailing spaces included.
  std::string extraNames, extraUnits;
  if (iterColumns) {
    extraNames = fmt::format("  {:>7}  {:>7}  {:>5}", "i_p50", "i_p99", "skew");
    extraUnits = fmt::format("  {:>7}  {:>7}  {:>5}", "(us)", "(us)", "");
  }
  const size_t e = extraNames.size();
  s += "#\n";
  s += fmt::format("#{:>74}{:>{}}{}\n", "out-of-place", "in-place", 31 + e, std::string(10 + e, ' '));
  // Column titles, then units: prefix columns, then the same four columns (+ extras) for each half.
  const std::array<std::array<const char*, 9>, 2> cols = {
      {{"size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong"},
       {"(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", ""}}};
  for (int i = 0; i < 2; ++i) {
    const auto& c = cols[i];
    std::string halfCols =
        fmt::format("  {:>7}  {:>6}  {:>6}  {:>6}{}", c[5], c[6], c[7], c[8], i == 0 ? extraNames : extraUnits);
    s += fmt::format("# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}{}{} \n", c[0], c[1], c[2], c[3], c[4], halfCols, halfCols);
  }
  return s;
}

std::string ncclTableRow(const SweepRow& out, const SweepRow& in, bool iterColumns) {
  return ncclTableRow(&out, &in, iterColumns);
}

std::string ncclTableRow(const SweepRow* out, const SweepRow* in, bool iterColumns) {
  const SweepRow& r = out ? *out : *in;
  auto missing = [&] {
    std::string s = fmt::format("  {:>7}  {:>6}  {:>6}  {:>6}", "N/A", "N/A", "N/A", "N/A");
    if (iterColumns) s += fmt::format("  {:>7}  {:>7}  {:>5}", "N/A", "N/A", "N/A");
    return s;
  };
  return fmt::format("{:>12}  {:>12}  {:>8}  {:>6}  {:>6}", r.size_bytes, r.count, r.dtype, r.op, r.root) +
         (out ? half(*out, iterColumns) : missing()) + (in ? half(*in, iterColumns) : missing()) + "\n";
}

std::string ncclTableFooter(const std::string& collective, int64_t outOfBounds, double avgBusbw) {
  std::string s;
  s += fmt::format("# {:<20} : {} {}\n", "Out of bounds values", outOfBounds, outOfBounds ? "FAILED" : "OK");
  // nccl-tests prints OK/FAILED after the average only with NCCL_TESTS_MIN_BW; without it, a trailing space.
  s += fmt::format("# {:<20} : {:g} \n", "Avg bus bandwidth", avgBusbw);
  s += "#\n";
  s += fmt::format("# Collective test concluded: {}_perf\n", collective);
  return s;
}

}  // namespace pf::reports
