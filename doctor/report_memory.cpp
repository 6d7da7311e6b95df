// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "report_memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "pf/error.hpp"
#include "pf/result.hpp"

namespace pf::doctor {

// Generated from the development corpus by doctor/CMakeLists.txt: (file name, JSON Lines).
const std::vector<std::pair<std::string_view, std::string_view>>& embeddedReportFiles();

namespace {

std::string threadOf(const Json& j) {
  if (j.contains("thread") && j["thread"].is_string()) return j["thread"].get<std::string>();
  // The 30 first cases name their thread in `source`: "owner/repo#N https://...".
  const std::string source = j.value("source", "");
  const std::size_t p = source.find("https://");
  if (p == std::string::npos) return j.value("id", "");
  return source.substr(p, source.find_first_of(" \t", p) - p);
}

}  // namespace

std::vector<ReportMemory::Raw> ReportMemory::parseCases(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<Raw> raw;
  for (const auto& [name, text] : files) {
    std::size_t lineNo = 0;
    for (std::size_t b = 0; b < text.size();) {
      std::size_t e = text.find('\n', b);
      if (e == std::string::npos) e = text.size();
      const std::string_view line(text.data() + b, e - b);
      b = e + 1;
      ++lineNo;
      if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      try {
        const Json j = Json::parse(line);
        Raw r;
        r.report.id = j.at("id").get<std::string>();
        r.report.category = j.at("category").get<std::string>();
        r.report.cause = j.at("root_cause").get<std::string>();
        r.report.fix = j.at("fix").get<std::string>();
        r.report.thread = threadOf(j);
        r.report.links = {r.report.thread};
        r.text = j.at("log_excerpt").get<std::string>();
        raw.push_back(std::move(r));
      } catch (const std::exception& ex) {
        throw UsageError(
            fmt::format("doctor reports {}:{}: {} (each line is one case: id, category, log_excerpt, "
                        "root_cause, fix)",
                        name, lineNo, ex.what()));
      }
    }
  }
  return raw;
}

std::shared_ptr<const ReportMemory> ReportMemory::make(std::vector<Raw> raw, const std::vector<Rule>& rules) {
  for (const auto& rule : rules) {
    if (isWeakEvidence(rule)) continue;
    Raw r;
    r.report.id = rule.id;
    r.report.category = rule.category;
    r.report.thread = "rule:" + rule.id;
    r.report.cause = rule.title;
    r.report.fix = rule.fix;
    r.report.links = rule.links;
    r.report.rule = true;
    // The literals a line must hold, one per line (never `none` or `unless`: those say what the failure is not).
    for (const auto& group : rule.groups)
      for (const auto& p : group)
        for (const auto& lit : p.all) r.text += lit + "\n";
    raw.push_back(std::move(r));
  }
  auto m = std::make_shared<ReportMemory>();
  m->build(std::move(raw));
  return m;
}

std::shared_ptr<const ReportMemory> ReportMemory::fromJsonLines(
    const std::vector<std::pair<std::string, std::string>>& files, const std::vector<Rule>& rules) {
  return make(parseCases(files), rules);
}

std::shared_ptr<const ReportMemory> ReportMemory::builtin(const std::vector<Rule>& rules) {
  // The embedded cases are parsed once per process; the rules are the catalog's (built-in or --rules DIR).
  static const std::vector<Raw> cases = [] {
    std::vector<std::pair<std::string, std::string>> files;
    for (const auto& [name, text] : embeddedReportFiles()) files.emplace_back(name, text);
    return parseCases(files);
  }();
  return make(cases, rules);
}

std::size_t ReportMemory::cases() const {
  return static_cast<std::size_t>(
      std::count_if(reports_.begin(), reports_.end(), [](const KnownReport& r) { return !r.rule; }));
}

std::shared_ptr<const ReportMemory> ReportMemory::without(const std::string& thread) const {
  std::vector<Raw> kept;
  for (const auto& r : raw_)
    if (r.report.thread != thread) kept.push_back(r);
  return make(std::move(kept), {});  // the rules' messages are among raw_ already
}

void ReportMemory::build(std::vector<Raw> raw) {
  raw_ = std::move(raw);
  // Document frequency by thread: one thread's several cases (rare) count once.
  std::vector<std::set<std::string>> words(raw_.size());
  std::map<std::string, std::set<std::string>, std::less<>> threadsOf;
  std::string buf;
  for (std::size_t i = 0; i < raw_.size(); ++i) {
    const std::string& text = raw_[i].text;
    for (std::size_t b = 0; b <= text.size();) {
      std::size_t e = text.find('\n', b);
      if (e == std::string::npos) e = text.size();
      const std::string_view line(text.data() + b, e - b);
      b = e + 1;
      if (!memoryReads(line)) continue;
      forEachWord(line, buf, [&](std::string_view w) {
        if (words[i].emplace(w).second) threadsOf[std::string(w)].insert(raw_[i].report.thread);
      });
    }
  }
  std::set<std::string> threads;
  for (const auto& r : raw_) threads.insert(r.report.thread);
  const double n = static_cast<double>(threads.size());
  for (const auto& [w, ts] : threadsOf) {
    if (ts.size() < 2) continue;  // seen in one thread only: a host name, a path, that reporter's model
    vocab_.emplace(w, static_cast<std::uint32_t>(idf_.size()));
    idf_.push_back(static_cast<float>(std::log((n + 1) / (static_cast<double>(ts.size()) + 1))));
  }
  for (std::size_t i = 0; i < raw_.size(); ++i) {
    KnownReport r = raw_[i].report;
    double norm = 0;
    for (const auto& w : words[i]) {
      auto it = vocab_.find(w);
      if (it == vocab_.end()) continue;
      r.vector.emplace_back(it->second, idf_[it->second]);
      norm += double(idf_[it->second]) * idf_[it->second];
    }
    std::sort(r.vector.begin(), r.vector.end());
    for (auto& [id, x] : r.vector) x = static_cast<float>(x / std::sqrt(norm));
    reports_.push_back(std::move(r));
  }
}

std::int64_t ReportMemory::wordId(std::string_view word) const {
  auto it = vocab_.find(word);
  // Not `? -1 : it->second`: the conditional's type would be unsigned, and -1 would become 4294967295.
  if (it == vocab_.end()) return -1;
  return it->second;
}

std::vector<CategoryVote> ReportMemory::vote(const std::vector<std::uint32_t>& ids, std::size_t k,
                                             double minSimilarity) const {
  std::vector<std::uint32_t> q(ids);
  std::sort(q.begin(), q.end());
  q.erase(std::unique(q.begin(), q.end()), q.end());
  double norm = 0;
  for (auto id : q) norm += double(idf_[id]) * idf_[id];
  if (norm <= 0) return {};
  const double queryLength = std::sqrt(norm);
  std::vector<Neighbour> near;
  for (const auto& r : reports_) {
    // Both lists are sorted by word id: one merge.
    double dot = 0;
    int shared = 0;
    auto a = q.begin();
    for (auto b = r.vector.begin(); a != q.end() && b != r.vector.end();) {
      if (*a < b->first) {
        ++a;
      } else if (b->first < *a) {
        ++b;
      } else {
        dot += double(idf_[*a]) * b->second;
        ++shared;
        ++a;
        ++b;
      }
    }
    // One word in common is a coincidence (a rule's two-word literal and "state" in a traceback).
    const double similarity = dot / queryLength;
    if (shared >= kMinSharedWords && similarity >= minSimilarity) near.push_back({&r, similarity});
  }
  std::stable_sort(near.begin(), near.end(), [](const auto& x, const auto& y) { return x.similarity > y.similarity; });
  if (near.size() > k) near.resize(k);
  std::vector<CategoryVote> votes;
  double total = 0;
  for (const auto& nb : near) {
    total += nb.similarity;
    auto it =
        std::find_if(votes.begin(), votes.end(), [&](const auto& v) { return v.category == nb.report->category; });
    if (it == votes.end()) it = votes.insert(votes.end(), CategoryVote{nb.report->category, 0, 0, {}});
    it->share += nb.similarity;
    it->reports.push_back(nb);
  }
  for (auto& v : votes) {
    v.share /= total;
    v.voters = near.size();
  }
  std::stable_sort(votes.begin(), votes.end(), [](const auto& x, const auto& y) { return x.share > y.share; });
  return votes;
}

namespace {

bool isStackWord(std::string_view w) {
  static constexpr std::string_view kPrefixes[] = {"nccl", "rccl",    "c10d",      "gloo",      "dist", "torchrun",
                                                   "mpi",  "horovod", "deepspeed", "libfabric", "ibv_", "efa"};
  for (auto p : kPrefixes)
    if (w.substr(0, p.size()) == p) return true;
  return false;
}

}  // namespace

bool WordSample::isNcclErrorTrace(std::string_view line) {
  if (line.find("NCCL INFO ") == std::string_view::npos) return false;
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (std::size_t at = line.find(" -> "); at != std::string_view::npos; at = line.find(" -> ", at + 1)) {
    // After the arrow, a non-zero error code that ends the line or a word ("-> 1 [Async thread]"); before it,
    // "file.cc:LINE". A ring or channel line ("0[0] -> 1[1] via P2P/IPC", "Ring 00 : 3 -> 0 [receive]") names
    // no file and line before its arrow.
    std::size_t e = at + 4;
    while (e < line.size() && digit(line[e])) ++e;
    if (e == at + 4 || line[at + 4] == '0' || (e < line.size() && line[e] != ' ' && line[e] != '\r')) continue;
    std::size_t colon = at;
    while (colon > 0 && digit(line[colon - 1])) --colon;
    if (colon == at || colon == 0 || line[--colon] != ':') continue;
    const std::size_t space = line.rfind(' ', colon);  // npos + 1 is 0: the file starts the line
    if (line.substr(space + 1, colon - (space + 1)).find('.') != std::string_view::npos) return true;
  }
  return false;
}

void WordSample::add(std::string_view line) {
  if (!memory_) return;
  if (have_.empty()) have_.assign(memory_->vocabularySize(), false);
  forEachWord(line, buf_, [&](std::string_view w) {
    stack_ = stack_ || isStackWord(w);
    const std::int64_t id = memory_->wordId(w);
    if (id < 0 || have_[static_cast<std::size_t>(id)]) return;
    have_[static_cast<std::size_t>(id)] = true;
    ids_.push_back(static_cast<std::uint32_t>(id));
  });
}

}  // namespace pf::doctor
