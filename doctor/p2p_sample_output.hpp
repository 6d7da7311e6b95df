// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The CUDA sample that people run first when GPUs of one node hang or crawl, p2pBandwidthLatencyTest, pasted
// into a log. It measures every GPU pair twice, with peer access disabled (copies staged through host memory)
// and enabled (direct PCIe/NVLink writes), and prints one matrix per measurement:
//
//   Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)
//      D\D     0      1
//        0 673.49   2.60
//        1   2.12 672.33
//
// A working peer path is faster than the staged one; when the IOMMU translates peer writes or ACS sends them
// up to the root complex, the enabled figures collapse below the disabled ones (or the latencies grow by
// orders of magnitude), and when the path is broken the test hangs at the first enabled matrix. Facts:
//   p2p_slower_than_host_copies  enabled bandwidth below 0.8x the disabled one (mean of the GPU pairs), or
//                                enabled latency above 5x the disabled one
//   p2p_test_stalled             the last matrix printed is a P2P=Enabled one with no row under it
// The matrix rows hold no literal the scanner can look for, so after a title the reader asks for the lines
// that follow (wantsNextLine), up to a header and 64 rows.
#pragma once

#include <string_view>
#include <vector>

#include "evidence.hpp"

namespace pf::doctor {

class P2pSampleOutput {
 public:
  /// A line without NCCL's prefix that holds one of the extractor's taps (a matrix title).
  void feed(std::string_view text, LineEvidence& ev);
  /// Whether the next line is wanted though it holds no tap: the header or a row of the current matrix.
  bool wantsNextLine() const { return linesLeft_ > 0; }
  void nextLine(std::string_view text);
  void finish(Facts& facts, std::vector<Flag>& flags) const;

 private:
  enum Kind { kUnidirectional, kBidirectional, kLatency, kKinds };
  struct Matrix {
    int rows = 0, pairs = 0;
    double pairSum = 0;  // off the diagonal: GPU pairs, not a GPU's copies within its own memory
    Evidence title;
    double mean() const { return pairs > 0 ? pairSum / pairs : 0.0; }
  };
  Matrix matrices_[kKinds][2];  // [kind][P2P enabled]
  Matrix* current_ = nullptr;   // the matrix whose title came last (its rows are read while linesLeft_ > 0)
  bool currentEnabled_ = false;
  int columns_ = 0, linesLeft_ = 0;
};

}  // namespace pf::doctor
