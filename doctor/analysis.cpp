// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "analysis.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "matcher.hpp"

namespace pf::doctor {
namespace {

// Line numbers for ascending offsets, counting newlines incrementally (one pass over the text in total).
class LineCounter {
 public:
  explicit LineCounter(std::string_view text) : text_(text) {}
  std::size_t lineOf(std::size_t offset) {
    if (offset < pos_) {
      pos_ = 0;
      line_ = 1;
    }
    line_ += static_cast<std::size_t>(
        std::count(text_.begin() + static_cast<long>(pos_), text_.begin() + static_cast<long>(offset), '\n'));
    pos_ = offset;
    return line_;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0, line_ = 1;
};

struct LineInfo {
  NormLine norm;
  Evidence ev;
};

LineInfo describe(const Source& src, std::size_t begin, std::size_t lineNo) {
  auto [b, e] = lineBounds(src.text, begin);
  LineInfo li;
  li.norm = normalizeLine(std::string_view(src.text).substr(b, e - b));
  li.ev.file = validUtf8(src.name);
  li.ev.line = lineNo;
  li.ev.text = utf8Prefix(li.norm.text, 400);
  li.ev.host = li.norm.host;
  li.ev.rank = rankOfLine(li.norm);
  li.ev.timestamp = li.norm.timestamp;
  return li;
}

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

Analysis analyze(const Catalog& catalog, const std::vector<Source>& sources) {
  Analysis a;
  Matcher matcher(catalog, InfoExtractor::taps());
  const auto& patterns = matcher.patterns();
  // Every line a pattern matched, as (input index, line start); each distinct line is normalised once.
  using Key = std::pair<std::size_t, std::size_t>;
  std::vector<std::vector<Key>> hits(patterns.size());
  std::map<Key, LineInfo> lines;
  std::vector<WatchdogEntry> watchdog;
  int maxRank = -1;
  ScanResult scan;
  for (std::size_t si = 0; si < sources.size(); ++si) {
    const Source& src = sources[si];
    a.bytes += src.text.size();
    a.lines += static_cast<std::size_t>(std::count(src.text.begin(), src.text.end(), '\n')) +
               (!src.text.empty() && src.text.back() != '\n');
    scan.clear();
    matcher.scan(src.text, scan);
    // Line numbers for every line of interest, in one counting pass.
    std::vector<std::size_t> offs(scan.tapLines);
    for (const auto& v : scan.patternLines) offs.insert(offs.end(), v.begin(), v.end());
    std::sort(offs.begin(), offs.end());
    offs.erase(std::unique(offs.begin(), offs.end()), offs.end());
    std::vector<std::size_t> nums(offs.size());
    LineCounter counter(src.text);
    for (std::size_t i = 0; i < offs.size(); ++i) nums[i] = counter.lineOf(offs[i]);
    auto lineNo = [&](std::size_t off) {
      return nums[static_cast<std::size_t>(std::lower_bound(offs.begin(), offs.end(), off) - offs.begin())];
    };
    for (std::size_t off : scan.tapLines) {
      LineInfo li = describe(src, off, lineNo(off));
      a.info.feed(li.norm, li.ev);
    }
    for (std::size_t p = 0; p < patterns.size(); ++p) {
      for (std::size_t off : scan.patternLines[p]) {
        hits[p].emplace_back(si, off);
        auto [it, fresh] = lines.try_emplace(Key{si, off});
        if (!fresh) continue;
        it->second = describe(src, off, lineNo(off));
        const LineInfo& li = it->second;
        maxRank = std::max(maxRank, li.ev.rank);
        WatchdogEntry w;
        if (parseWatchdog(li.norm, w)) {
          w.evidence = li.ev;
          watchdog.push_back(w);
        }
      }
    }
  }
  a.info.finish();
  const auto& facts = a.info.facts();
  auto matched = [&](const LinePattern& p) {
    if (!p.fact.empty()) {
      auto it = facts.find(p.fact);
      return it != facts.end() && !it->second.empty();
    }
    return !hits[static_cast<std::size_t>(matcher.indexOf(&p))].empty();
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
    // The rule's lines: the union over its matched patterns, in input order; facts add their own evidence.
    // Group by group, so the first group's lines (the failure itself) lead and context lines follow.
    std::set<Key> seen;
    std::vector<Key> keys;
    std::vector<Evidence> factEvidence;
    for (const auto& g : rule.groups) {
      std::vector<Key> groupKeys;
      for (const auto& p : g) {
        if (!p.fact.empty()) {
          auto it = facts.find(p.fact);
          if (it != facts.end()) factEvidence.insert(factEvidence.end(), it->second.begin(), it->second.end());
          continue;
        }
        const auto& h = hits[static_cast<std::size_t>(matcher.indexOf(&p))];
        groupKeys.insert(groupKeys.end(), h.begin(), h.end());
      }
      std::sort(groupKeys.begin(), groupKeys.end());
      for (const auto& k : groupKeys)
        if (seen.insert(k).second) keys.push_back(k);
    }
    // A fact's lines are often the same lines a literal pattern matched: count and show each line once.
    std::set<std::pair<std::string, std::size_t>> where;
    for (const auto& k : keys) where.emplace(lines.at(k).ev.file, lines.at(k).ev.line);
    factEvidence.erase(std::remove_if(factEvidence.begin(), factEvidence.end(),
                                      [&](const Evidence& e) { return !where.emplace(e.file, e.line).second; }),
                       factEvidence.end());
    d.hits = keys.size() + factEvidence.size();
    for (const auto& k : keys)
      if (lines.at(k).norm.level != "INFO") d.first = std::min(d.first, k);
    for (const auto& k : keys) {
      const Evidence& e = lines.at(k).ev;
      if (!e.host.empty()) d.hosts.insert(e.host);
      if (e.rank >= 0) d.ranks.insert(e.rank);
      if (d.evidence.size() < kMaxEvidence) d.evidence.push_back(e);
    }
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
  // Failing lines for the per-rank analysis: diagnosis evidence that is not an INFO line (context such as
  // "NCCL_SOCKET_IFNAME set by environment" is evidence, not a failure), in input order.
  std::set<Key> failing;
  for (const auto& d : found) {
    for (const auto& g : d.rule->groups)
      for (const auto& p : g)
        if (p.fact.empty())
          for (const auto& k : hits[static_cast<std::size_t>(matcher.indexOf(&p))])
            if (lines.at(k).norm.level != "INFO") failing.insert(k);
  }
  std::vector<Evidence> failures;
  for (const auto& k : failing) failures.push_back(lines.at(k).ev);
  a.ranks = analyzeRanks(failures, std::move(watchdog), a.info, maxRank);
  a.diagnoses = std::move(found);
  return a;
}

}  // namespace pf::doctor
