// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "p2p_sample_output.hpp"

#include <fmt/format.h>

#include "fact_names.hpp"
#include "line_words.hpp"

namespace pf::doctor {
namespace {

constexpr int kMaxGpus = 64;

}  // namespace

void P2pSampleOutput::feed(std::string_view t, LineEvidence& ev) {
  const bool enabled = lineHolds(t, "P2P=Enabled");
  if ((!enabled && !lineHolds(t, "P2P=Disabled")) || !lineHolds(t, "Matrix")) return;
  const Kind kind = lineHolds(t, "Latency")         ? kLatency
                    : lineHolds(t, "Bidirectional") ? kBidirectional
                                                    : kUnidirectional;
  // A second run of the sample in the same log starts its matrices afresh; the last complete one counts.
  current_ = &matrices_[kind][enabled ? 1 : 0];
  *current_ = Matrix{};
  current_->title = ev.get();
  currentEnabled_ = enabled;
  columns_ = 0;
  linesLeft_ = kMaxGpus + 3;  // blank lines, the header, the rows
}

void P2pSampleOutput::nextLine(std::string_view t) {
  if (!current_ || linesLeft_ <= 0) return;
  --linesLeft_;
  std::string_view w[kMaxGpus + 2];
  const std::size_t n = splitWords(t, w);
  if (n == 0) return;  // a blank line between the title and the header
  if (columns_ == 0) {
    // "   D\D     0      1      2" (bandwidth) or "   GPU     0      1      2" (latency): one column per GPU.
    if ((w[0] != "D\\D" && w[0] != "GPU") || n < 3 || n > kMaxGpus + 1) {
      linesLeft_ = 0;
      return;
    }
    columns_ = static_cast<int>(n) - 1;
    return;
  }
  // "     0 673.49   2.60   1.58": the row's GPU, then one figure per column. Anything else (the latency
  // matrix's "CPU" half, the next title, a prompt) ends the matrix.
  if (static_cast<int>(n) != columns_ + 1 || !isDigits(w[0])) {
    linesLeft_ = 0;
    return;
  }
  const int row = atoiView(w[0]);
  double values[kMaxGpus];
  for (int c = 0; c < columns_; ++c)
    if (!wordNumber(w[c + 1], values[c]) || values[c] < 0) {
      linesLeft_ = 0;
      return;
    }
  for (int c = 0; c < columns_; ++c) {
    if (c == row) continue;
    current_->pairSum += values[c];
    ++current_->pairs;
  }
  if (++current_->rows == columns_) linesLeft_ = 0;
}

void P2pSampleOutput::finish(Facts& facts, std::vector<Flag>& flags) const {
  static constexpr const char* kNames[kKinds] = {"unidirectional bandwidth", "bidirectional bandwidth", "latency"};
  for (int k = 0; k < kKinds; ++k) {
    const Matrix& off = matrices_[k][0];
    const Matrix& on = matrices_[k][1];
    if (off.pairs == 0 || on.pairs == 0) continue;
    const bool latency = k == kLatency;
    // Peer writes that lose to copies staged through host memory: the peer path is translated or detoured.
    const bool slower = latency ? on.mean() > 5.0 * off.mean() : on.mean() < 0.8 * off.mean();
    if (!slower) continue;
    facts[fact::kP2pSlowerThanHostCopies].push_back(on.title);
    flags.push_back({fact::kP2pSlowerThanHostCopies,
                     fmt::format("p2pBandwidthLatencyTest: GPU-pair {} with P2P enabled {:.3g} {} against {:.3g} "
                                 "with P2P disabled (staged through host memory)",
                                 kNames[k], on.mean(), latency ? "us" : "GB/s", off.mean()),
                     on.title});
    break;
  }
  // The matrix printed last (the one whose rows were read last): an enabled one with no row under it means the
  // sample hung in its first peer-to-peer copies.
  if (current_ && currentEnabled_ && current_->rows == 0) {
    facts[fact::kP2pTestStalled].push_back(current_->title);
    flags.push_back({fact::kP2pTestStalled,
                     "p2pBandwidthLatencyTest printed a P2P=Enabled matrix title and no figure after it",
                     current_->title});
  }
}

}  // namespace pf::doctor
