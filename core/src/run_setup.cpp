// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/run_setup.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>

namespace pf {
namespace {

std::string joined(const std::set<std::string>& s) { return fmt::format("{}", fmt::join(s, ", ")); }

std::string plural(int n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

// Sets are compared only when both sides name something: an imported file may not say which ops it ran.
void compareSets(const char* what, const std::set<std::string>& a, const std::set<std::string>& b,
                 std::vector<SetupDifference>& out) {
  if (a.empty() || b.empty() || a == b) return;
  std::vector<std::string> common;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
  out.push_back({what, joined(a), joined(b), common.empty()});
}

// A field of a document read by hand (an edited or imported one may hold anything): "" or 0 when absent or
// of another type, so an odd document is compared on what it does say.
std::string textOf(const Json& j, const char* key) {
  return j.is_object() && j.contains(key) && j.at(key).is_string() ? j.at(key).get<std::string>() : "";
}
int intOf(const Json& j, const char* key) {
  return j.is_object() && j.contains(key) && j.at(key).is_number_integer() ? j.at(key).get<int>() : 0;
}

}  // namespace

RunSetup runSetupOf(const RunReport& doc) {
  RunSetup s;
  for (const Result& r : doc.results) {
    if (r.kind != Kind::kSweep) continue;
    s.hasSweeps = true;
    if (s.backend.empty()) s.backend = textOf(r.params, "backend");
    if (s.worldSize == 0) s.worldSize = intOf(r.params, "ranks");
    for (const Json& row : r.rows) {
      if (auto c = textOf(row, "collective"); !c.empty()) s.collectives.insert(c);
      if (auto t = textOf(row, "dtype"); !t.empty()) s.dtypes.insert(t);
      if (auto o = textOf(row, "op"); !o.empty() && o != "none") s.ops.insert(o);
    }
  }
  if (!s.hasSweeps) return s;
  // The sweep's own rank count first (the context's world size reads 1 when a document leaves it out).
  if (s.worldSize == 0) s.worldSize = doc.context.world_size;
  s.nodeCount = doc.context.node_count;
  if (doc.context.extra.is_object() && doc.context.extra.contains("backend"))
    if (auto b = textOf(doc.context.extra.at("backend"), "backend"); !b.empty()) s.backend = b;
  return s;
}

std::vector<SetupDifference> setupDifferences(const RunSetup& a, const RunSetup& b) {
  std::vector<SetupDifference> out;
  if (!a.hasSweeps || !b.hasSweeps) return out;
  if (a.worldSize > 0 && b.worldSize > 0 && a.worldSize != b.worldSize)
    out.push_back({"world size", plural(a.worldSize, "rank", "ranks"), plural(b.worldSize, "rank", "ranks"), true});
  if (a.nodeCount > 0 && b.nodeCount > 0 && a.nodeCount != b.nodeCount)
    out.push_back({"node count", plural(a.nodeCount, "node", "nodes"), plural(b.nodeCount, "node", "nodes"), true});
  if (!a.backend.empty() && !b.backend.empty() && a.backend != b.backend)
    out.push_back({"backend", a.backend, b.backend, true});
  compareSets("collective", a.collectives, b.collectives, out);
  compareSets("data type", a.dtypes, b.dtypes, out);
  compareSets("reduction op", a.ops, b.ops, out);
  return out;
}

std::string describe(const SetupDifference& d) { return fmt::format("{} {} vs {}", d.what, d.base, d.next); }

}  // namespace pf
