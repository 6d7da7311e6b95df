// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The doctor's memory of reported failures: the development part of the corpus (tests/fixtures/doctor-corpus/,
// real failures from public threads with the cause and fix each thread settled on), embedded at build time, and
// the messages of the catalog's rules (each rule's literals as one more remembered failure, of its category).
// When a log shows a failure but no rule names its cause, the doctor still says which reported failures and rule
// messages its words are closest to, and so which category is likely, at low confidence and with their links.
// A rule matches only its exact literals; here a log that says the same in other words still comes near it.
//
// Closeness is the cosine of TF-IDF word vectors (words of three or more letters, digits and underscores,
// starting with a letter or underscore, lower-cased, and the parts of three or more letters of a word with
// underscores; a word counts once per log) of the lines that are not NCCL INFO lines (a job's set-up says little
// about what failed, and a failure in a job that logs NCCL's INFO output must not read like NCCL's failures for
// that), over the words that occur in at least two threads of the memory, so a host name or a path seen once says
// nothing. The category is the similarity-weighted vote of the k nearest reports. Measured leave-one-thread-out,
// as `doctor_accuracy.py` does through `--forget`: docs/doctor.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rule_catalog.hpp"

namespace pf::doctor {

/// Calls `fn(word)` for every word of `line` (lower-cased in a buffer reused between calls).
template <typename Fn>
void forEachWord(std::string_view line, std::string& buf, Fn&& fn) {
  auto head = [](unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  auto tail = [&](unsigned char c) { return head(c) || (c >= '0' && c <= '9'); };
  for (std::size_t i = 0; i < line.size();) {
    if (!head(static_cast<unsigned char>(line[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < line.size() && tail(static_cast<unsigned char>(line[j]))) ++j;
    if (j - i >= 3) {
      buf.assign(line.substr(i, j - i));
      for (auto& c : buf)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      fn(std::string_view(buf));
      // An identifier's parts count too (ibv_create_qp: "ibv", "create"): a log that names another verb of the
      // same library, or says the part in prose, still comes near it.
      if (buf.find('_') != std::string::npos) {
        const std::size_t whole = buf.size();
        for (std::size_t a = 0; a < whole;) {
          std::size_t z = buf.find('_', a);
          if (z == std::string::npos) z = whole;
          if (z - a >= 3 && z - a < whole) fn(std::string_view(buf).substr(a, z - a));
          a = z + 1;
        }
      }
    }
    i = j;
  }
}

/// Whether the memory reads `line`: NCCL's INFO lines are left out, in the remembered failures and in the log alike
/// (every job prints its set-up; the memory compares what went wrong, and an IB job's set-up must not make an
/// unrelated failure read like the IB ones).
inline bool memoryReads(std::string_view line) { return line.find("NCCL INFO") == std::string_view::npos; }

/// One remembered failure: a corpus case, or a rule's messages (`rule`: then `id` is the rule id, `thread` is
/// "rule:<id>", `cause` its title).
struct KnownReport {
  std::string id, category, thread, cause, fix;
  std::vector<std::string> links;  ///< the case's thread, or the rule's links
  bool rule = false;
  std::vector<std::pair<std::uint32_t, float>> vector;  ///< (word id, weight), unit length
};

struct Neighbour {
  const KnownReport* report = nullptr;
  double similarity = 0;  ///< cosine, 0..1
};

/// A category and its share of the nearest reports' similarity-weighted vote.
struct CategoryVote {
  std::string category;
  double share = 0;
  std::size_t voters = 0;          ///< how many nearest reports voted, in all categories
  std::vector<Neighbour> reports;  ///< the neighbours of this category, nearest first
};

class ReportMemory {
 public:
  /// From corpus lines (JSON Lines with `id`, `category`, `log_excerpt`, `root_cause`, `fix` and `thread`, or
  /// a URL in `source`) and the messages of `rules` (none by default; `<category>.weak-evidence` rules are left
  /// out: their words are generic by design). @throws UsageError naming the file and line of a malformed case.
  static std::shared_ptr<const ReportMemory> fromJsonLines(
      const std::vector<std::pair<std::string, std::string>>& files, const std::vector<Rule>& rules = {});
  /// The development corpus embedded in this binary, with the messages of `rules`.
  static std::shared_ptr<const ReportMemory> builtin(const std::vector<Rule>& rules);

  /// The same memory without the reports of `thread` (leave-one-thread-out measurement); vocabulary and
  /// weights are recomputed as if those reports had never been seen.
  std::shared_ptr<const ReportMemory> without(const std::string& thread) const;

  /// The id of `word` in the vocabulary, or -1.
  std::int64_t wordId(std::string_view word) const;
  std::size_t vocabularySize() const { return idf_.size(); }
  std::size_t size() const { return reports_.size(); }
  /// How many of the reports are corpus cases (the others are rules' messages).
  std::size_t cases() const;
  const std::vector<KnownReport>& reports() const { return reports_; }

  /// A report votes only when it has at least this many known words in common with the log.
  static constexpr int kMinSharedWords = 2;

  /// The categories of the `k` reports nearest to a log holding the words `ids` (each once), best first.
  /// Reports less similar than `minSimilarity`, or with fewer than kMinSharedWords words in common, do not vote:
  /// that is one or two generic words ("RuntimeError") in common.
  std::vector<CategoryVote> vote(const std::vector<std::uint32_t>& ids, std::size_t k = 9,
                                 double minSimilarity = 0.1) const;

 private:
  struct Raw {
    KnownReport report;
    std::string text;
  };
  static std::vector<Raw> parseCases(const std::vector<std::pair<std::string, std::string>>& files);
  static std::shared_ptr<const ReportMemory> make(std::vector<Raw> cases, const std::vector<Rule>& rules);
  void build(std::vector<Raw> raw);

  std::vector<Raw> raw_;  // the texts, kept for without()
  std::vector<KnownReport> reports_;
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>> vocab_;
  std::vector<float> idf_;
};

/// The words of a log that the memory knows, from a bounded sample of its lines.
class WordSample {
 public:
  /// A short log is read whole; a long one's first lines hold the launcher's and framework's start-up errors, and
  /// the failing lines the rules kept (added at the end) a failure further on. Bounded, so the cost of the
  /// memory does not grow with the log.
  static constexpr std::size_t kHeadLines = 4096;

  explicit WordSample(const ReportMemory* memory) : memory_(memory) {}
  /// Whether more head lines are wanted.
  bool wantsLines() const { return memory_ && headLines_ < kHeadLines; }
  void headLine(std::string_view line) {
    ++headLines_;
    if (memoryReads(line))
      add(line);
    else
      errorTrace_ = errorTrace_ || isNcclErrorTrace(line);
  }
  void add(std::string_view line);
  const std::vector<std::uint32_t>& ids() const { return ids_; }
  /// Whether a sampled word names the distributed stack (nccl..., c10d, gloo, dist..., torchrun, mpi...,
  /// horovod, deepspeed, libfabric, ibv_...): the memory holds distributed failures only, so a log that names none
  /// of it is not compared with them.
  bool namesTheStack() const { return stack_; }
  /// Whether a sampled line is NCCL's trace of a call that returned an error ("NCCL INFO init.cc:1277 -> 1":
  /// NCCLCHECK prints the file, line and error code of each function the error passes through, and only then).
  bool sawNcclErrorTrace() const { return errorTrace_; }
  static bool isNcclErrorTrace(std::string_view line);

 private:
  const ReportMemory* memory_;
  std::size_t headLines_ = 0;
  std::vector<std::uint32_t> ids_;
  std::vector<bool> have_;
  std::string buf_;
  bool stack_ = false;
  bool errorTrace_ = false;
};

}  // namespace pf::doctor
