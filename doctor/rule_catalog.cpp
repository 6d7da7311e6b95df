// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "rule_catalog.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "fact_names.hpp"
#include "multi_literal.hpp"
#include "pf/error.hpp"
#include "pf/report_io.hpp"
#include "pf/result.hpp"
#include "report_memory.hpp"

namespace pf::doctor {
namespace {

struct Where {
  std::string_view file;
  std::string rule;
  [[noreturn]] void fail(const std::string& what) const {
    throw UsageError(fmt::format("doctor rules {}: rule '{}': {} (see docs/doctor-rules.md)", file,
                                 rule.empty() ? "?" : rule, what));
  }
};

std::vector<std::string> stringList(const Json& j, const Where& w, const char* field) {
  std::vector<std::string> out;
  if (j.is_string()) return {j.get<std::string>()};
  if (!j.is_array()) w.fail(fmt::format("'{}' must be a string or a list of strings", field));
  for (const auto& e : j) {
    if (!e.is_string()) w.fail(fmt::format("'{}' must hold strings only", field));
    out.push_back(e.get<std::string>());
  }
  return out;
}

void checkLiterals(const std::vector<std::string>& lits, const Where& w) {
  for (const auto& l : lits) {
    if (l.size() < MultiLiteral::kMinLiteral && lits.size() == 1)
      w.fail(
          fmt::format("literal \"{}\" is shorter than {} bytes; add surrounding words", l, MultiLiteral::kMinLiteral));
    if (l.empty()) w.fail("empty literal");
  }
}

// A pattern is "literal", ["lit", "lit"] (same line) , {"all": [...], "none": [...]} or {"fact": "name"}.
LinePattern parsePattern(const Json& j, const Where& w) {
  LinePattern p;
  if (j.is_string() || j.is_array()) {
    p.all = stringList(j, w, "pattern");
  } else if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      if (k == "all")
        p.all = stringList(v, w, "all");
      else if (k == "none")
        p.none = stringList(v, w, "none");
      else if (k == "fact" && v.is_string())
        p.fact = v.get<std::string>();
      else
        w.fail(fmt::format("unknown pattern field '{}'", k));
    }
  } else {
    w.fail("a pattern must be a string, a list of strings or an object");
  }
  if (p.fact.empty() == p.all.empty()) w.fail("a pattern needs either literals ('all') or a 'fact', not both");
  try {
    p.ncclRange = parseNcclRangeFact(p.fact);
  } catch (const UsageError& e) {
    w.fail(e.what());
  }
  if (!p.fact.empty() && !p.ncclRange && !fact::known(p.fact))
    w.fail(fmt::format("unknown fact '{}'; the doctor derives {}, or 'nccl_in FROM BELOW'", p.fact,
                       fmt::join(fact::kAll, ", ")));
  if (!p.all.empty()) {
    checkLiterals(p.all, w);
    if (p.anchor().size() < MultiLiteral::kMinLiteral)
      w.fail(fmt::format("the longest literal of [{}] is shorter than {} bytes", fmt::join(p.all, ", "),
                         MultiLiteral::kMinLiteral));
  }
  return p;
}

Rule parseRule(const Json& j, std::string_view file, const std::string& category) {
  // Every field's type is checked before it is read: nlohmann's get<>/value() throw their own type_error,
  // which would escape as a crash instead of a UsageError naming the rule (found by fuzz_rules).
  Where w{file, j.is_object() && j.contains("id") && j["id"].is_string() ? j["id"].get<std::string>() : ""};
  if (!j.is_object()) w.fail("each rule must be an object");
  Rule r;
  r.category = category;
  static const std::set<std::string> known = {"id",     "title",    "explanation", "fix",         "commands",
                                              "links",  "probe",    "confidence",  "fallback",    "match",
                                              "unless", "captures", "note",        "consequence", "explained_by"};
  for (const auto& [k, v] : j.items())
    if (!known.count(k)) w.fail(fmt::format("unknown field '{}'", k));
  auto str = [&](const char* f, bool required) {
    if (!j.contains(f)) {
      if (required) w.fail(fmt::format("missing '{}'", f));
      return std::string();
    }
    if (!j[f].is_string()) w.fail(fmt::format("'{}' must be a string", f));
    return j[f].get<std::string>();
  };
  r.id = str("id", true);
  if (r.id.rfind(category + ".", 0) != 0) w.fail(fmt::format("id must start with '{}.'", category));
  r.title = str("title", true);
  r.explanation = str("explanation", true);
  r.fix = str("fix", true);
  r.probe = str("probe", false);
  if (j.contains("commands")) r.commands = stringList(j["commands"], w, "commands");
  if (j.contains("links")) r.links = stringList(j["links"], w, "links");
  for (const auto& l : r.links)
    if (l.rfind("https://", 0) != 0) w.fail(fmt::format("link '{}' must be an https URL", l));
  if (!j.contains("confidence") || !j["confidence"].is_number()) w.fail("'confidence' must be a number");
  r.confidence = j["confidence"].get<double>();
  if (!(r.confidence > 0 && r.confidence <= 1)) w.fail("'confidence' must be in (0, 1]");
  if (j.contains("fallback") && !j["fallback"].is_boolean()) w.fail("'fallback' must be true or false");
  r.fallback = j.contains("fallback") && j["fallback"].get<bool>();
  if (j.contains("consequence") && !j["consequence"].is_boolean()) w.fail("'consequence' must be true or false");
  r.consequence = j.contains("consequence") && j["consequence"].get<bool>();
  if (j.contains("explained_by")) r.explainedBy = stringList(j["explained_by"], w, "explained_by");
  if (!j.contains("match") || !j["match"].is_array() || j["match"].empty())
    w.fail("'match' must be a non-empty list of groups");
  for (const auto& g : j["match"]) {
    if (!g.is_array() || g.empty()) w.fail("each group in 'match' must be a non-empty list of patterns");
    std::vector<LinePattern> group;
    for (const auto& p : g) group.push_back(parsePattern(p, w));
    r.groups.push_back(std::move(group));
  }
  if (j.contains("unless")) {
    if (!j["unless"].is_array()) w.fail("'unless' must be a list of patterns");
    for (const auto& p : j["unless"]) r.unless.push_back(parsePattern(p, w));
  }
  if (j.contains("captures")) {
    if (!j["captures"].is_array()) w.fail("'captures' must be a list");
    for (const auto& c : j["captures"]) {
      if (!c.is_object() || !c.contains("name") || !c.contains("after")) w.fail("a capture needs 'name' and 'after'");
      if (!c["name"].is_string() || !c["after"].is_string() || (c.contains("until") && !c["until"].is_string()))
        w.fail("a capture's 'name', 'after' and 'until' must be strings");
      Capture cap{c["name"].get<std::string>(), c["after"].get<std::string>()};
      if (c.contains("until")) cap.until = c["until"].get<std::string>();
      r.captures.push_back(cap);
    }
  }
  return r;
}

}  // namespace

const std::vector<std::string>& categories() {
  static const std::vector<std::string> c = {
      "network-interface", "ib-verbs",     "efa-libfabric",   "p2p",  "shm", "cuda", "rendezvous",
      "version-mismatch",  "timeout-hang", "resource-limits", "other"};
  return c;
}

const std::string& LinePattern::anchor() const {
  // Phrases that NCCL prints at every rank's start-up when nothing is wrong (its INFO lines of the network
  // chosen, the plugin search, the socket and IB interfaces): a literal one of them holds is a poor anchor on a
  // large job's log.
  static constexpr std::string_view kHealthy[] = {
      "NCCL INFO NET/Plugin : Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file "
      "or directory",
      "NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB ib0:10.0.0.1<0>",
      "NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>",
      "NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>",
      "NCCL INFO Using network IB",
  };
  auto common = [](const std::string& lit) {
    return std::any_of(std::begin(kHealthy), std::end(kHealthy),
                       [&](std::string_view h) { return h.find(lit) != std::string_view::npos; });
  };
  auto longer = [](const std::string* a, const std::string& b) { return !a || a->size() < b.size(); };
  const std::string *best = nullptr, *bestRare = nullptr;
  for (const auto& l : all) {
    if (longer(best, l)) best = &l;
    if (l.size() >= MultiLiteral::kMinLiteral && !common(l) && longer(bestRare, l)) bestRare = &l;
  }
  return bestRare ? *bestRare : *best;
}

std::vector<Rule> parseRulesFile(std::string_view fileName, std::string_view text) {
  Where w{fileName, ""};
  Json j;
  try {
    j = Json::parse(text);
  } catch (const std::exception& e) {
    w.fail(fmt::format("not valid JSON: {}", e.what()));
  }
  if (!j.is_object() || !j.contains("category") || !j["category"].is_string() || !j.contains("rules") ||
      !j["rules"].is_array())
    w.fail("the file must be an object with 'category' (string) and 'rules' (list)");
  std::string category = j["category"].get<std::string>();
  const auto& cats = categories();
  if (std::find(cats.begin(), cats.end(), category) == cats.end())
    w.fail(fmt::format("unknown category '{}' (known: {})", category, fmt::join(cats, ", ")));
  std::string stem = std::filesystem::path(std::string(fileName)).stem().string();
  if (stem != category) w.fail(fmt::format("category '{}' must live in {}.json", category, category));
  std::vector<Rule> rules;
  for (const auto& r : j["rules"]) rules.push_back(parseRule(r, fileName, category));
  return rules;
}

namespace {
Catalog finish(std::vector<Rule> all) {
  std::set<std::string> ids;
  for (const auto& r : all)
    if (!ids.insert(r.id).second) throw UsageError(fmt::format("doctor rules: duplicate rule id '{}'", r.id));
  for (const auto& r : all)
    for (const auto& by : r.explainedBy)
      if (by == r.id || !ids.count(by))
        throw UsageError(fmt::format("doctor rules: rule '{}': 'explained_by' names {} '{}' (give other rules' ids)",
                                     r.id, by == r.id ? "the rule itself," : "no rule", by));
  // A consequence's cause is ranked first: a cycle of explanations would have no first.
  std::map<std::string, const Rule*> byId;
  for (const auto& r : all) byId[r.id] = &r;
  for (const auto& r : all) {
    std::vector<const std::string*> todo;
    std::set<std::string> seen;
    for (const auto& by : r.explainedBy) todo.push_back(&by);
    while (!todo.empty()) {
      const std::string& id = *todo.back();
      todo.pop_back();
      if (id == r.id)
        throw UsageError(fmt::format("doctor rules: rule '{}' explains itself through 'explained_by' (a cycle)", r.id));
      if (seen.insert(id).second)
        for (const auto& next : byId[id]->explainedBy) todo.push_back(&next);
    }
  }
  auto reports = ReportMemory::builtin(all);
  return Catalog{std::move(all), std::move(reports)};
}
}  // namespace

Catalog builtinCatalog() {
  std::vector<Rule> all;
  for (const auto& [name, text] : embeddedRuleFiles()) {
    auto rules = parseRulesFile(name, text);
    all.insert(all.end(), rules.begin(), rules.end());
  }
  return finish(std::move(all));
}

Catalog loadCatalogDir(const std::string& dir) {
  std::vector<Rule> all;
  for (const auto& c : categories()) {
    std::string path = (std::filesystem::path(dir) / (c + ".json")).string();
    if (!std::filesystem::exists(path))
      throw UsageError(fmt::format("doctor rules: {} is missing (every category needs its file)", path));
    auto rules = parseRulesFile(path, readTextFile(path));
    all.insert(all.end(), rules.begin(), rules.end());
  }
  return finish(std::move(all));
}

}  // namespace pf::doctor
