// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "import_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include "pf/error.hpp"

namespace pf::import {

bool knownCollective(const std::string& name) {
  static const std::set<std::string> kNames = {"all_reduce", "all_gather", "broadcast", "reduce_scatter",
                                               "reduce",     "alltoall",   "alltoallv", "scatter",
                                               "gather",     "sendrecv",   "hypercube"};
  return kNames.count(name) > 0;
}

std::string collectiveFromProgram(const std::string& program) {
  std::string base = program.substr(program.find_last_of('/') == std::string::npos ? 0 : program.find_last_of('/') + 1);
  // "all_reduce_perf", "all_reduce_perf_mpi" (nccl-tests' NAME_SUFFIX), "all_reduce_perf.exe".
  size_t at = base.find("_perf");
  if (at == std::string::npos || at == 0) return {};
  std::string name = base.substr(0, at);
  return knownCollective(name) ? name : std::string();
}

int elementSize(const std::string& t) {
  // nccl-tests' test_typenames (and the NCCL 1 names "char" and "int" of its oldest versions).
  static const std::map<std::string, int> kSizes = {
      {"int8", 1},  {"uint8", 1},  {"char", 1}, {"f8e4m3", 1}, {"f8e5m2", 1}, {"half", 2},   {"bfloat16", 2},
      {"int32", 4}, {"uint32", 4}, {"int", 4},  {"float", 4},  {"int64", 8},  {"uint64", 8}, {"double", 8}};
  auto it = kSizes.find(t);
  return it == kSizes.end() ? 0 : it->second;
}

bool knownOp(const std::string& op) {
  static const std::set<std::string> kOps = {"sum", "prod", "max", "min", "avg", "mulsum", "none"};
  return kOps.count(op) > 0;
}

std::optional<double> parseNumber(const std::string& token) {
  if (token.empty() || token.size() > 64) return std::nullopt;
  // strtod alone would accept "inf", "nan" and hex floats; nccl-tests prints none of those as data.
  for (char c : token)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E'))
      return std::nullopt;
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(token.c_str(), &end);
  if (end != token.c_str() + token.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<uint64_t> parseUnsigned(const std::string& token) {
  if (token.empty() || token.size() > 20) return std::nullopt;
  uint64_t v = 0;
  for (char c : token) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

std::vector<Run> splitCycles(Run run) {
  // nccl-tests' -N loop repeats the sizes inside one table (TimeTest in common.cu), inside the type/op
  // loops, so the n-th time a (type, op, root, size) point shows up it belongs to cycle n.
  std::map<std::tuple<std::string, std::string, int, uint64_t, std::string>, int> seen;
  std::vector<std::vector<SweepRow>> byCycle;
  for (SweepRow& r : run.rows) {
    int c = seen[{r.dtype, r.op, r.root, r.size_bytes, r.placement}]++;
    if (static_cast<size_t>(c) >= byCycle.size()) byCycle.resize(c + 1);
    byCycle[c].push_back(std::move(r));
  }
  std::vector<Run> out;
  if (byCycle.size() <= 1) {
    run.rows = byCycle.empty() ? std::vector<SweepRow>{} : std::move(byCycle[0]);
    out.push_back(std::move(run));
    return out;
  }
  for (size_t c = 0; c < byCycle.size(); ++c) {
    Run part;
    part.collective = run.collective;
    part.collectiveFrom = run.collectiveFrom;
    part.line = run.line;
    part.header = run.header;
    part.devices = run.devices;
    part.perIter = run.perIter;
    part.rows = std::move(byCycle[c]);
    part.cycle = static_cast<int>(c) + 1;
    part.cycles = static_cast<int>(byCycle.size());
    part.footerSeen = run.footerSeen;
    // The footer, the skipped lines and a failure belong to the whole table: the last cycle carries them,
    // since that is where the output stopped.
    if (c + 1 == byCycle.size()) {
      part.footerOutOfBounds = run.footerOutOfBounds;
      part.unreadable = run.unreadable;
      part.failures = run.failures;
      part.notes = run.notes;
    }
    out.push_back(std::move(part));
  }
  return out;
}

std::string guessCollective(const Run& run) {
  if (run.rows.empty()) return {};
  const SweepRow& r0 = run.rows.front();
  bool reduces = r0.op != "none";
  bool rooted = r0.root >= 0;
  // size == count * element size for every row: one buffer per rank (all_reduce, reduce, broadcast);
  // size a larger multiple: the total of a split buffer (reduce_scatter, all_gather, alltoall ...).
  bool perRank = true, split = true;
  for (const SweepRow& r : run.rows) {
    const uint64_t es = static_cast<uint64_t>(elementSize(r.dtype));
    uint64_t bytes = 0;  // the readers refuse such counts; checked again since a wrap to 0 would divide by it
    if (es == 0 || r.count == 0 || __builtin_mul_overflow(r.count, es, &bytes) || bytes == 0) return {};
    perRank = perRank && r.size_bytes == bytes;
    split = split && r.size_bytes > bytes && r.size_bytes % bytes == 0;
  }
  if (reduces && !rooted && perRank) return "all_reduce";
  if (reduces && !rooted && split) return "reduce_scatter";
  if (reduces && rooted && perRank) return "reduce";
  if (!reduces && rooted && perRank) return "broadcast";
  return {};  // all_gather, alltoall, sendrecv, gather, scatter share their shapes: do not guess
}

}  // namespace pf::import
