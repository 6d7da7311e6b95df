// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "analysis.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <span>

#include "artefacts/artefact.hpp"
#include "artefacts/head_source.hpp"
#include "block_pipeline.hpp"
#include "confirm.hpp"
#include "log_scanner.hpp"
#include "log_source.hpp"
#include "matcher.hpp"
#include "nccl_versions.hpp"
#include "similar_reports.hpp"

namespace pf::doctor {
namespace {

void capture(Diagnosis& d) {
  for (const auto& c : d.rule->captures) {
    for (const auto& e : d.evidence) {
      std::size_t p = e.text.find(c.after);
      if (p == std::string::npos) continue;
      p += c.after.size();
      std::size_t q = e.text.find_first_of(c.until, p);
      std::string v = e.text.substr(p, q == std::string::npos ? std::string::npos : q - p);
      if (!v.empty()) {
        d.captures[c.name] = v;
        break;
      }
    }
  }
}

}  // namespace

std::string Diagnosis::fixText() const {
  std::string out = rule->fix;
  for (const auto& [k, v] : captures) {
    const std::string key = "{" + k + "}";
    for (std::size_t p; (p = out.find(key)) != std::string::npos;) out.replace(p, key.size(), v);
  }
  // A placeholder the log did not fill reads as "<name>", the way the commands write what the user supplies.
  for (std::size_t b; (b = out.find('{')) != std::string::npos;) {
    std::size_t e = out.find('}', b);
    if (e == std::string::npos) break;
    out[b] = '<';
    out[e] = '>';
  }
  return out;
}

namespace {

// One line, one cause: a diagnosis whose evidence lines are all lines of diagnoses of the same category ranked above
// it, which together matched at least as many lines and are each either a more specific signature (more independent
// groups: the failure and the context that tells which kind it is) or, as a named cause (confidence 0.5 or more), of
// higher confidence, reads the same failure less specifically and is folded into the first of them. NCCL's
// "completion ... error 12" read as a retry timeout, then as any completion error, then as a failed verbs call, is one
// cause; so are a retry timeout and the flushed requests after it, both also read as "a completion error". Another
// category's reading of the same line stays: it is a different cause to check; so do low-confidence candidates of one
// generic line, each with the check that tells it apart.
void foldSameLines(std::vector<Diagnosis>& ranked) {
  std::vector<Diagnosis> kept;
  for (auto& d : ranked) {
    auto readsMoreSpecifically = [&](const Diagnosis& k) {
      const bool moreSpecific = k.rule->groups.size() > d.rule->groups.size() ||
                                (k.rule->confidence >= 0.5 && k.rule->confidence > d.rule->confidence);
      return k.rule->category == d.rule->category && moreSpecific;
    };
    auto holds = [](const Diagnosis& k, const Evidence& e) {
      return std::any_of(k.evidence.begin(), k.evidence.end(),
                         [&](const Evidence& f) { return f.file == e.file && f.line == e.line; });
    };
    std::vector<std::size_t> readers;  // indices (into kept, which is in rank order) of those holding one of d's lines
    bool allHeld = !d.evidence.empty();
    for (const auto& e : d.evidence) {
      bool held = false;
      for (std::size_t i = 0; i < kept.size(); ++i) {
        if (!readsMoreSpecifically(kept[i]) || !holds(kept[i], e)) continue;
        held = true;
        if (std::find(readers.begin(), readers.end(), i) == readers.end()) readers.push_back(i);
      }
      allHeld = allHeld && held;
    }
    std::size_t theirHits = 0;
    for (auto i : readers) theirHits += kept[i].hits;
    if (allHeld && d.hits <= theirHits) {
      kept[*std::min_element(readers.begin(), readers.end())].alsoMatched.push_back(d.rule->id);
    } else {
      kept.push_back(std::move(d));
    }
  }
  ranked = std::move(kept);
}

// A consequence ranked after a cause follows from it unless it was shown to be printed before the cause's first
// failure: by both lines' times, or by their order in one file. A cause with no time (an NCCL before 2.26 stamps no
// line) still explains the timed watchdog timeouts of other files.
void linkConsequences(std::vector<Diagnosis>& ranked) {
  const auto cause = std::find_if(ranked.begin(), ranked.end(),
                                  [](const Diagnosis& d) { return !d.rule->consequence && !d.rule->fallback; });
  if (cause == ranked.end()) return;
  for (auto& d : ranked)
    if (d.rule->consequence && d.haveFirstFailing && cause->haveFirstFailing &&
        !knownPrintedEarlier(d.firstFailing, cause->firstFailing))
      d.consequenceOf = cause->rule;
}

// Rule evaluation, ranking and the per-rank analysis over what the scan kept.
Analysis evaluate(const Catalog& catalog, LogScanner& scan, const RankLookup& rankOf = {}) {
  Analysis a;
  a.bytes = scan.bytes;
  a.lines = scan.lines;
  scan.info.finish();
  const Matcher& matcher = scan.matcher();
  const auto& hits = scan.patterns();
  // Facts named by an NCCL version range (nccl_versions.hpp) hold against the versions this log names.
  Facts facts = scan.info.facts();
  auto addRangeFact = [&](const LinePattern& p) {
    if (p.ncclRange && !facts.count(p.fact))
      facts.emplace(p.fact, ncclRangeEvidence(*p.ncclRange, scan.info.ncclVersionsSeen()));
  };
  for (const auto& rule : catalog.rules) {
    for (const auto& g : rule.groups) std::for_each(g.begin(), g.end(), addRangeFact);
    std::for_each(rule.unless.begin(), rule.unless.end(), addRangeFact);
  }
  auto hitsOf = [&](const LinePattern& p) -> const PatternHits& {
    return hits[static_cast<std::size_t>(matcher.indexOf(&p))];
  };
  auto matched = [&](const LinePattern& p) {
    if (!p.fact.empty()) {
      auto it = facts.find(p.fact);
      return it != facts.end() && !it->second.empty();
    }
    return hitsOf(p).count > 0;
  };
  std::vector<Diagnosis> found, fallbacks;
  for (const auto& rule : catalog.rules) {
    bool ok = true;
    for (const auto& g : rule.groups) {
      ok = std::any_of(g.begin(), g.end(), matched);
      if (!ok) break;
    }
    if (!ok || std::any_of(rule.unless.begin(), rule.unless.end(), matched)) continue;
    Diagnosis d;
    d.rule = &rule;
    const auto ruleIndex = static_cast<std::size_t>(&rule - catalog.rules.data());
    // The rule's lines: the union over its matched patterns, in input order; facts add their own evidence.
    // Group by group, so the first group's lines (the failure itself) lead and context lines follow. Each
    // pattern kept its first kMaxEvidence lines, which is all the evidence list can show.
    std::set<LineKey> seen;
    std::vector<const std::pair<LineKey, Evidence>*> keys;
    std::vector<Evidence> factEvidence;
    for (const auto& g : rule.groups) {
      std::vector<const std::pair<LineKey, Evidence>*> groupKeys;
      for (const auto& p : g) {
        if (!p.fact.empty()) {
          auto it = facts.find(p.fact);
          if (it != facts.end()) factEvidence.insert(factEvidence.end(), it->second.begin(), it->second.end());
          continue;
        }
        const PatternHits& h = hitsOf(p);
        for (const auto& f : h.first) groupKeys.push_back(&f);
        if (h.haveFail) d.first = std::min(d.first, h.fail.first);
        for (const auto* f :
             {h.haveFail ? &h.fail.second : nullptr, h.haveStampedFail ? &h.stampedFail.second : nullptr,
              h.haveBoundedFail ? &h.boundedFail.second : nullptr})
          if (f && (!d.haveFirstFailing || printedEarlier(*f, d.firstFailing))) {
            d.firstFailing = *f;
            d.haveFirstFailing = true;
          }
        d.hosts.insert(h.hosts.begin(), h.hosts.end());
        d.ranks.insert(h.ranks.begin(), h.ranks.end());
      }
      std::sort(groupKeys.begin(), groupKeys.end(), [](auto* x, auto* y) { return x->first < y->first; });
      for (const auto* k : groupKeys)
        if (seen.insert(k->first).second) keys.push_back(k);
    }
    // A fact's lines are often the same lines a literal pattern matched: count and show each line once.
    std::set<std::pair<std::string, std::size_t>> where;
    factEvidence.erase(std::remove_if(factEvidence.begin(), factEvidence.end(),
                                      [&](const Evidence& e) {
                                        return scan.keptLineMatchesRule(e.file, e.line, ruleIndex) ||
                                               !where.emplace(e.file, e.line).second;
                                      }),
                       factEvidence.end());
    d.hits = scan.ruleLines()[ruleIndex] + factEvidence.size();
    // A fact's lines past the extractor's cap were counted without their evidence (a line the rule's own patterns
    // matched counts once).
    std::set<std::string_view> factsOfRule;
    for (const auto& g : rule.groups)
      for (const auto& p : g)
        if (!p.fact.empty()) factsOfRule.insert(p.fact);
    for (std::string_view f : factsOfRule)
      if (auto it = scan.info.factLinesNotKept().find(f); it != scan.info.factLinesNotKept().end())
        d.hits += it->second - scan.pastFactLinesMatchingRule(f, ruleIndex);
    for (const auto* k : keys)
      if (d.evidence.size() < kMaxEvidence) d.evidence.push_back(k->second);
    for (const auto& e : factEvidence) {
      if (!e.host.empty()) d.hosts.insert(e.host);
      if (d.evidence.size() < kMaxEvidence) d.evidence.push_back(e);
    }
    capture(d);
    (rule.fallback ? fallbacks : found).push_back(std::move(d));
  }
  if (found.empty()) found = std::move(fallbacks);
  // Most likely first. The chain of events: a consequence (a watchdog timeout, a peer that went away) ranks
  // after any diagnosis that names a cause, since the cause came first and the consequence followed it. Then
  // confidence, then more independent groups matched (a more specific signature), then the earlier failure.
  const bool haveCause = std::any_of(found.begin(), found.end(),
                                     [](const Diagnosis& d) { return !d.rule->consequence && !d.rule->fallback; });
  std::stable_sort(found.begin(), found.end(), [&](const Diagnosis& x, const Diagnosis& y) {
    const bool xc = haveCause && x.rule->consequence, yc = haveCause && y.rule->consequence;
    if (xc != yc) return yc;
    if (x.rule->confidence != y.rule->confidence) return x.rule->confidence > y.rule->confidence;
    if (x.rule->groups.size() != y.rule->groups.size()) return x.rule->groups.size() > y.rule->groups.size();
    return x.first < y.first;
  });
  foldSameLines(found);
  linkConsequences(found);
  // Failing lines for the per-rank analysis: diagnosis evidence that is not an INFO line (context such as
  // "NCCL_SOCKET_IFNAME set by environment" is evidence, not a failure), in input order. The analysis takes
  // the first one, or the earliest-stamped: each pattern kept both of its own, which covers every answer.
  std::map<LineKey, std::pair<const Evidence*, const Rule*>> failing;
  for (const auto& d : found) {
    for (const auto& g : d.rule->groups)
      for (const auto& p : g)
        if (p.fact.empty()) {
          const PatternHits& h = hitsOf(p);
          if (h.haveFail) failing.emplace(h.fail.first, std::make_pair(&h.fail.second, d.rule));
          if (h.haveStampedFail) failing.emplace(h.stampedFail.first, std::make_pair(&h.stampedFail.second, d.rule));
          if (h.haveBoundedFail)  // with its time bounds
            failing[h.boundedFail.first] = std::make_pair(&h.boundedFail.second, d.rule);
        }
  }
  // A failing line of NCCL's own names no rank; its process's Init line does (a per-rank NCCL_DEBUG_FILE log has
  // no launcher prefix to say it either), else another artefact that lists the process (RAS).
  int world = 0;
  for (const auto& [id, c] : scan.info.comms()) world = std::max(world, c.nranks);
  std::vector<Evidence> failures;
  for (const auto& [k, e] : failing) {
    Evidence ev = *e.first;
    if (ev.rank < 0) ev.rank = scan.info.worldRankOf(ev.host, ev.pid, world);
    if (ev.rank < 0 && ev.pid > 0 && rankOf) ev.rank = rankOf(ev.host, ev.pid);
    failures.push_back(ev);
    a.failingLines.push_back({std::move(ev), e.second});
  }
  for (const auto& h : hits)
    for (const auto& [k, e] : h.first) noteLogSettings(e.text, a.settings);
  a.ranks = analyzeRanks(failures, scan.watchdog(), scan.info, scan.maxRank, scan.ranksSeen());
  // An empty file given as a rank's log reads as that rank's log not given; say which inputs were empty, so a user
  // does not go looking for a log they did give.
  if (const auto& empty = scan.emptyInputs; !empty.empty()) {
    constexpr std::size_t kNamed = 8;  // a folder of thousands of empty files still gets one short sentence
    const auto named = std::span(empty).first(std::min(empty.size(), kNamed));
    a.ranks.notes.push_back(fmt::format("{} input{} empty (0 bytes): {}{}", empty.size(),
                                        empty.size() == 1 ? " is" : "s are", fmt::join(named, ", "),
                                        empty.size() > kNamed ? ", ..." : ""));
  }
  a.info = std::move(scan.info);
  a.diagnoses = std::move(found);
  addSimilarReports(catalog, scan, a);
  return a;
}

}  // namespace

Analysis analyze(const Catalog& catalog, const std::vector<Source>& sources, std::size_t blockSize) {
  LogScanner scan(catalog);
  for (const auto& src : sources) {
    auto bytes = memorySource(src.text, src.name);
    LineBlockReader reader(*bytes, blockSize);
    scan.beginInput(src.name);
    for (std::string_view block; reader.next(block);) scan.block(block);
    scan.endInput();
  }
  return evaluate(catalog, scan);
}

Analysis analyzeFiles(const Catalog& catalog, const std::vector<std::string>& paths, std::size_t blockSize,
                      const InputPlanner& plan, const RankLookup& rankOf) {
  LogScanner scan(catalog);
  for (const auto& path : paths) {
    const std::string name = path == "-" ? "<stdin>" : path;
    std::unique_ptr<ByteSource> bytes = openLog(path);
    InputPlan p;
    if (plan) {
      auto head = std::make_unique<HeadSource>(std::move(bytes), kHeadBytes);
      p = plan(name, head->head());
      bytes = std::move(head);
    }
    std::size_t read = 0;
    if (p.scan) {
      // The rules' scan reads ahead on worker threads (block_pipeline.hpp); the per-line work stays in order here.
      scan.beginInput(name);
      readPrepared(*bytes, blockSize, scan, [&](std::string_view block, const PreparedBlock& prep) {
        scan.consume(block, prep);
        if (p.tapMarked)
          p.tapMarked(block, prep.scan.markerLines, prep.newlines);
        else if (p.tap)
          p.tap(block);
        if (p.progress) p.progress(read += block.size());
      });
      scan.endInput();
    } else {
      LineBlockReader reader(*bytes, blockSize);
      for (std::string_view block; reader.next(block);) {
        if (p.tap) p.tap(block);
        if (p.progress) p.progress(read += block.size());
      }
    }
    if (p.done) p.done();
  }
  return evaluate(catalog, scan, rankOf);
}

}  // namespace pf::doctor
