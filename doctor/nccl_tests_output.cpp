// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "nccl_tests_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "fact_names.hpp"
#include "line_search.hpp"
#include "line_words.hpp"
#include "pf/import.hpp"

namespace pf::doctor {
namespace {

// A #wrong column (or, before nccl-tests 2.13, the largest error) that says the data was wrong: a count above
// zero, or an error of 1 or more, which no rounding of a correct sum reaches ("%6g" and "%.0e" print both).
bool saysWrong(std::string_view w) {
  double v = 0;
  return wordNumber(w, v) && v >= 1.0;
}

// A result row ("size count type [redop] [root] time algbw busbw #wrong time algbw busbw #wrong", -I adds four
// columns per half): whether it is one, and whether a half's #wrong says the data came back wrong.
bool readRow(std::string_view t, bool& wrong) {
  // A row starts with its size: the test spares most lines the split (and the zeroing of `w`, 384 bytes).
  const std::size_t first = t.find_first_not_of(" \t\r");
  if (first == std::string_view::npos || t[first] < '0' || t[first] > '9') return false;
  std::string_view w[24];
  const std::size_t n = splitWords(t, w);
  if (n < 3 || n > 24 || !isDigits(w[0]) || !isDigits(w[1]) || import::elementSize(std::string(w[2])) == 0)
    return false;
  std::size_t prefix = 3;
  if (n > 3 && import::knownOp(std::string(w[3]))) ++prefix;
  const std::size_t rest = n - prefix;
  if (rest % 2 == 1) ++prefix;  // a root column: the two halves have as many columns each
  const std::size_t half = (n - prefix) / 2;
  wrong = (half == 4 || half == 8) && (saysWrong(w[prefix + 3]) || saysWrong(w[prefix + half + 3]));
  return true;
}

}  // namespace

// A device listing without a header before it (a paste that starts there): its first line is the evidence.
void NcclTestsOutput::sawListing(LineEvidence& ev) {
  if (!header_ && !listing_) evidence_ = ev.get();
  listing_ = true;
}

void NcclTestsOutput::feed(std::string_view t, LineEvidence& ev) {
  if (lineHolds(t, "# nThread ") || (lineHolds(t, "nGpus ") && lineHolds(t, "minBytes "))) {
    // "# nThread 1 nGpus 2 minBytes 8 maxBytes ...", also when a paste lost its "# n" (markdown): one process
    // drives nGpus GPUs, so they are all on its host even when the log shows no "Rank N ... on HOST" lines.
    header_ = true;
    if (++headers_ == 2) secondHeader_ = ev.get();
    evidence_ = ev.get();
    gpusOneProcess_ = std::max(gpusOneProcess_, atoiView(firstWord(after(t, "nGpus "))));
  } else if (lineHolds(t, "Rank ") && lineHolds(t, " on ") && lineHolds(t, " device ") && t.rfind('#', 0) == 0) {
    // "#  Rank  0 Group  0 Pid 516704 on   gpu-0001 device  0 [...]": the host is the word after " on ".
    std::string_view w = firstWord(after(t, " on "));
    if (!w.empty()) ++devicesPerHost_[std::string(w)];
    sawListing(ev);
  } else if (lineHolds(t, "Rank ") && lineHolds(t, " uses device ")) {
    // The NCCL 1 era tests ran every GPU from one process: "   Rank  0 uses device  0 [0x05] Tesla M40 24GB".
    ++devicesOneProcess_;
    sawListing(ev);
  } else if (lineHolds(t, "Using devices")) {
    sawListing(ev);
  } else if (lineHolds(t, "Avg bus bandwidth") || lineHolds(t, "Out of bounds") || lineHolds(t, "Test CUDA failure") ||
             lineHolds(t, "Test NCCL failure") || lineHolds(t, ": Test failure") || lineHolds(t, "NCCL WARN ") ||
             lineHolds(t, "Watchdog caught")) {
    progress_ = true;
  } else if (bool wrong = false; readRow(t, wrong)) {
    progress_ = true;
    if (wrong && !wrong_) {
      wrong_ = true;
      wrongRow_ = ev.get();
    }
  }
}

void NcclTestsOutput::finish(Facts& facts, std::vector<Flag>& flags) const {
  if (headers_ > 1) {
    facts[fact::kNcclTestsSeparateWorlds].push_back(secondHeader_);
    flags.push_back({fact::kNcclTestsSeparateWorlds,
                     fmt::format("nccl-tests printed its header {} times: each process ran as its own world", headers_),
                     secondHeader_});
  }
  if (wrong_) {
    facts[fact::kNcclTestsWrongResults].push_back(wrongRow_);
    flags.push_back(
        {fact::kNcclTestsWrongResults, "an nccl-tests row reports wrong data (its #wrong column)", wrongRow_});
  }
  // The GPUs of the one host: its "Rank ... on HOST" lines or, when the paste has none, the one process's.
  int gpus = 0;
  std::string where = "from one process";
  if (devicesPerHost_.size() == 1) {
    gpus = devicesPerHost_.begin()->second;
    where = "on " + devicesPerHost_.begin()->first;
  } else if (devicesPerHost_.empty()) {
    gpus = std::max(gpusOneProcess_, devicesOneProcess_);
  }
  if ((header_ || listing_) && headers_ <= 1 && !progress_ && gpus > 1) {
    facts[fact::kNcclTestsStalled].push_back(evidence_);
    flags.push_back({fact::kNcclTestsStalled,
                     fmt::format("nccl-tests listed {} GPUs {} and then printed no result and no error", gpus, where),
                     evidence_});
  }
}

}  // namespace pf::doctor
