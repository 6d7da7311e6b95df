// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight probe` in the terminal. Ranks that agree are one group (the probe command stores the groups it
// found in context.extra.probe_groups, as lists of ranks, largest first), so a 64-node run with one odd node
// prints one table and one difference, not 64 copies: the largest group's probe statuses, then for every other
// group only the probes that differ, with the evidence values that changed, then each remedy once per group,
// then the cross-node differences (results keyed "consistency.*").
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "text_view.hpp"

namespace pf::reports {
namespace {

struct Member {
  int rank = 0;
  std::string host;
  std::vector<const Result*> results;
};

std::string label(const std::vector<Member>& all, const Member& m) {
  const auto sameHost = std::count_if(all.begin(), all.end(), [&](const Member& o) { return o.host == m.host; });
  return sameHost <= 1 ? m.host : fmt::format("{} (rank {})", m.host, m.rank);
}

std::string groupNames(const std::vector<Member>& all, const std::vector<const Member*>& group) {
  std::vector<std::string> names;
  for (const Member* m : group) {
    if (names.size() == 6) {
      names.push_back(fmt::format("and {} more", group.size() - 6));
      break;
    }
    names.push_back(label(all, *m));
  }
  return fmt::format("{}", fmt::join(names, ", "));
}

const Result* memberResult(const Member& m, const std::string& key) {
  for (const Result* r : m.results)
    if (r->key == key) return r;
  return nullptr;
}

/// The evidence values that differ between the majority's result and another's, one "what: a -> b" line each.
std::string evidenceDiff(const Result& base, const Result& other) {
  std::map<std::string, Json> before;
  for (const Evidence& e : base.evidence) before[e.what] = e.value;
  std::string out;
  for (const Evidence& e : other.evidence) {
    auto it = before.find(e.what);
    if (it != before.end() && it->second == e.value) continue;
    out +=
        fmt::format("      {}: {} -> {}\n", e.what, it == before.end() ? "(none)" : it->second.dump(), e.value.dump());
  }
  return out;
}

std::string line(const Result& r) {
  return fmt::format("  {:<7} {:<16} {}\n", toString(r.status), r.key.substr(r.key.find('.') + 1), r.message);
}

class ProbeText final : public TextView {
 public:
  std::string end(const RunReport& report) override {
    std::vector<Member> members;
    std::vector<const Result*> diffs;
    std::map<int, size_t> byRank;
    for (const Result& r : report.results) {
      if (r.key.rfind("consistency.", 0) == 0) {
        diffs.push_back(&r);
        continue;
      }
      auto [it, added] = byRank.emplace(r.rank, members.size());
      if (added) members.push_back({r.rank, r.host, {}});
      members[it->second].results.push_back(&r);
    }
    if (members.empty()) return "no probe results\n";
    std::vector<std::vector<const Member*>> groups = readGroups(members, report.context.extra);
    std::string out;
    const Member& base = *groups[0][0];
    out += fmt::format("{} ({} rank{}){}:\n", groupNames(members, groups[0]), groups[0].size(),
                       groups[0].size() == 1 ? "" : "s", groups.size() > 1 ? ", the majority" : "");
    for (const Result* r : base.results) out += line(*r);
    for (size_t g = 1; g < groups.size(); ++g) {
      const Member& other = *groups[g][0];
      out += fmt::format("\n{} ({} rank{}) differ:\n", groupNames(members, groups[g]), groups[g].size(),
                         groups[g].size() == 1 ? "" : "s");
      for (const Result* r : other.results) {
        const Result* b = memberResult(base, r->key);
        if (b && b->status == r->status && b->message == r->message) continue;
        out += line(*r);
        if (b) out += evidenceDiff(*b, *r);
      }
    }
    // Remedies once per group, so the reader knows what to do without scrolling the JSON.
    std::string fixes;
    for (const auto& group : groups)
      for (const Result* r : group[0]->results)
        if ((r->status == Status::kWarn || r->status == Status::kFail) && !r->remedy.empty())
          fixes +=
              fmt::format("  [{}] {} on {}: {}\n", toString(r->status), r->key, groupNames(members, group), r->remedy);
    if (!fixes.empty()) out += "\nTo fix:\n" + fixes;
    if (!diffs.empty()) {
      out += "\nNodes that differ from the majority:\n";
      for (const Result* d : diffs)
        out += fmt::format("  [{}] {}\n      fix: {}\n", toString(d->status), d->message, d->remedy);
    }
    return out;
  }

 private:
  // The groups the probe command found; without them (an older document) every rank is its own group.
  static std::vector<std::vector<const Member*>> readGroups(const std::vector<Member>& members, const Json& extra) {
    std::map<int, const Member*> byRank;
    for (const Member& m : members) byRank[m.rank] = &m;
    std::vector<std::vector<const Member*>> groups;
    const Json g = extra.value("probe_groups", Json::array());
    for (const Json& list : g) {
      std::vector<const Member*> group;
      for (const Json& rank : list)
        if (rank.is_number_integer() && byRank.count(rank.get<int>())) group.push_back(byRank[rank.get<int>()]);
      if (!group.empty()) groups.push_back(std::move(group));
    }
    if (groups.empty())
      for (const Member& m : members) groups.push_back({&m});
    return groups;
  }
};

PF_REGISTER_TEXT_VIEW(ProbeText, "probe");

}  // namespace
}  // namespace pf::reports
