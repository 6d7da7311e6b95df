// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "similar_reports.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

namespace pf::doctor {

std::string withoutStaleNcclAdvice(const std::string& fix, const std::vector<NcclVersion>& running,
                                   std::string& dropped) {
  if (running.empty()) return fix;
  const NcclVersion oldest = *std::min_element(running.begin(), running.end());
  auto lower = [](std::string_view v) {
    std::string l(v);
    for (char& ch : l) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return l;
  };
  std::string out;
  std::size_t from = 0;
  while (from < fix.size()) {
    // A clause ends after ". " or "; " (or at the end); the separator stays with it.
    std::size_t end = fix.size();
    for (std::string_view sep : {". ", "; "})
      if (std::size_t p = fix.find(sep, from); p != std::string::npos) end = std::min(end, p + sep.size());
    const std::string clause = fix.substr(from, end - from), l = lower(clause);
    from = end;
    const bool advice = l.find("nccl") != std::string::npos &&
                        (l.find("upgrad") != std::string::npos || l.find("update") != std::string::npos ||
                         l.find("install") != std::string::npos || l.find("moved to") != std::string::npos ||
                         l.find("newer") != std::string::npos || l.find("or later") != std::string::npos ||
                         l.find(">=") != std::string::npos || l.find("fixed in") != std::string::npos);
    bool stale = false;
    std::string version;
    // The clause's versions x.y.z: advice whose every version the job already runs (or passed) is stale.
    for (std::size_t p = 0; advice && p < clause.size(); ++p) {
      if (!std::isdigit(static_cast<unsigned char>(clause[p])) ||
          (p > 0 && (std::isdigit(static_cast<unsigned char>(clause[p - 1])) || clause[p - 1] == '.')))
        continue;
      std::size_t q = p;
      while (q < clause.size() && (std::isdigit(static_cast<unsigned char>(clause[q])) || clause[q] == '.')) ++q;
      const std::string word = clause.substr(p, q - p);
      if (auto v = parseNcclVersion(word); v && std::count(word.begin(), word.end(), '.') >= 2) {
        if (*v > oldest) {
          stale = false;
          break;
        }
        stale = true;
        version = word;
      }
      p = q;
    }
    if (stale)
      dropped = version;
    else
      out += clause;
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ';')) out.pop_back();
  return out;
}

void addSimilarReports(const Catalog& catalog, LogScanner& scan, Analysis& a) {
  if (!catalog.reports || a.diagnoses.size() >= 2) return;
  const Matcher& matcher = scan.matcher();
  const auto& hits = scan.patterns();
  // The failure signs are the last group of every `<category>.weak-evidence` rule (tracebacks, NCCL WARN,
  // "timed out", a segfault...): the lines they matched are this tier's evidence, and without one it is silent.
  // A failure sign on an NCCL WARN line is not enough: NCCL warns on healthy jobs too ("Failed to open
  // libibverbs.so" on every node without InfiniBand). The program itself must say it failed (a traceback, an
  // error code, a segfault, a timeout), or NCCL must show a call that returned an error (its "file.cc:LINE -> N"
  // trace, which a healthy job never prints).
  std::map<LineKey, const Evidence*> failing;
  std::vector<bool> failureSign(hits.size(), false);
  bool failed = false;
  for (const auto& rule : catalog.rules) {
    if (!isWeakEvidence(rule) || rule.groups.empty()) continue;
    for (const auto& p : rule.groups.back())
      if (int i = matcher.indexOf(&p); i >= 0) {
        const PatternHits& h = hits[static_cast<std::size_t>(i)];
        failureSign[static_cast<std::size_t>(i)] = true;
        if (!h.haveFail) continue;
        failing.emplace(h.fail.first, &h.fail.second);
        failed = failed || h.failOutsideNccl || scan.words.sawNcclErrorTrace();
      }
  }
  if (!failed) return;
  // The words of the job's first lines (sampled while scanning) and of the first failing line (not an INFO
  // line) of every rule pattern: a late failure in a long log is among the latter.
  for (const auto& h : hits) {
    if (h.haveFail) scan.words.add(h.fail.second.text);
    if (h.haveStampedFail) scan.words.add(h.stampedFail.second.text);
  }
  // The log must also be about the distributed stack: an NCCL line, a line that a rule's pattern other than a
  // failure sign matched (each names NCCL, CUDA, a launcher, a store, a fabric...), or a sampled word that names
  // it. Every remembered failure is a distributed one, so a plain Python traceback would otherwise read like the
  // torch failures.
  bool domain = !a.info.processes().empty() || scan.words.namesTheStack();
  for (std::size_t i = 0; i < hits.size() && !domain; ++i) domain = !failureSign[i] && hits[i].count > 0;
  if (!domain) return;
  const std::vector<CategoryVote> votes = catalog.reports->vote(scan.words.ids());
  std::set<NcclVersion> runningSet;
  for (const auto& [text, ev] : a.info.ncclVersionsSeen())
    if (auto v = parseNcclVersion(text)) runningSet.insert(*v);
  const std::vector<NcclVersion> running(runningSet.begin(), runningSet.end());
  std::string runningText;
  for (const auto& v : running)
    runningText += fmt::format("{}{}.{}.{}", runningText.empty() ? "" : ", ", v[0], v[1], v[2]);
  for (const auto& v : votes) {
    if (a.diagnoses.size() >= 2 || v.share < kMinSimilarShare) break;
    if (std::any_of(a.diagnoses.begin(), a.diagnoses.end(),
                    [&](const Diagnosis& d) { return d.rule->category == v.category; }))
      continue;
    const Rule* weak = nullptr;
    for (const auto& r : catalog.rules)
      if (r.category == v.category && isWeakEvidence(r)) weak = &r;
    auto rule = std::make_unique<Rule>();
    rule->id = v.category + ".similar-reports";
    rule->category = v.category;
    rule->fallback = true;
    rule->confidence = std::round(20 * v.share) / 100;  // at most 0.2: below every rule
    rule->title =
        fmt::format("The failing lines read most like known {} failures (word similarity: weak evidence)", v.category);
    std::string near;
    for (std::size_t i = 0; i < v.reports.size() && i < 3; ++i) {
      const KnownReport& r = *v.reports[i].report;
      near += fmt::format("{}{} (similarity {:.2f}): {}", i ? " " : "",
                          r.rule ? "the messages of rule " + r.id : r.thread, v.reports[i].similarity, r.cause);
      for (const auto& l : r.links)
        if (std::find(rule->links.begin(), rule->links.end(), l) == rule->links.end()) rule->links.push_back(l);
    }
    const ReportMemory& memory = *catalog.reports;
    rule->explanation = fmt::format(
        "{:.0f}% of the similarity of the {} known failures nearest to this log's words (of {} reported failures "
        "and the messages of {} rules the doctor remembers) is in failures of the {} category. Nearest: {}",
        100 * v.share, v.voters, memory.cases(), memory.size() - memory.cases(), v.category, near);
    const KnownReport& nearest = *v.reports.front().report;
    // Advice to move to an NCCL release this job already runs (or passed) is dropped, and said so.
    std::string dropped;
    const std::string nearestFix = withoutStaleNcclAdvice(nearest.fix, running, dropped);
    std::string fix =
        nearestFix.empty()
            ? ""
            : (nearest.rule ? "The nearest rule's fix: " : "The nearest report was fixed this way: ") + nearestFix;
    if (!dropped.empty())
      fix += fmt::format(
          "{}(The nearest report moved to NCCL {}; this log already runs NCCL {}, so that part of its "
          "fix does not apply.)",
          fix.empty() ? "" : " ", dropped, runningText);
    rule->fix = fmt::format("{}{}", weak ? weak->fix + (fix.empty() ? "" : " ") : "", fix);
    if (weak) {
      rule->commands = weak->commands;
      rule->probe = weak->probe;
    }
    Diagnosis d;
    d.rule = rule.get();
    d.hits = failing.size();
    d.first = failing.begin()->first;
    for (const auto& [key, ev] : failing) {
      if (d.evidence.size() < kMaxEvidence) d.evidence.push_back(*ev);
      if (!ev->host.empty()) d.hosts.insert(ev->host);
      if (ev->rank >= 0) d.ranks.insert(ev->rank);
    }
    d.similar = v.reports;
    a.ownRules.push_back(std::move(rule));
    a.diagnoses.push_back(std::move(d));
  }
}

}  // namespace pf::doctor
