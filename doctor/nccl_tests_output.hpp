// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// nccl-tests' own output inside a log: its header, the devices it lists, its result rows and its footer. From
// these come three facts (docs/doctor-rules.md):
//   nccl_tests_stalled          several GPUs of one host listed, then no row, no footer and no error
//   nccl_tests_separate_worlds  the "# nThread" header printed more than once: every process was rank 0
//   nccl_tests_wrong_results    a result row whose #wrong column (the maximum error before nccl-tests 2.13)
//                               says the data came back wrong, even when the paste lost the FAILED footer
// Layouts read: nccl-tests 2.x ("# nThread ...", "#  Rank N Group G Pid P on HOST device D"), and the
// single-process tests of the NCCL 1 era ("Rank  0 uses device  0 [0x05] Tesla M40"), also behind markdown's
// "> " quote marks.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "evidence.hpp"

namespace pf::doctor {

class NcclTestsOutput {
 public:
  /// A line without NCCL's prefix that holds one of the extractor's taps.
  void feed(std::string_view text, LineEvidence& ev);
  /// An NCCL WARN line: something followed the header, so the run did not stall silently.
  void sawNcclWarn() { progress_ = true; }
  void finish(Facts& facts, std::vector<Flag>& flags) const;

 private:
  void sawListing(LineEvidence& ev);

  std::map<std::string, int> devicesPerHost_;  // "Rank ... on HOST device" lines
  bool header_ = false, listing_ = false, progress_ = false, wrong_ = false;
  int headers_ = 0;            // only the main process prints "# nThread": more than one means separate worlds
  int gpusOneProcess_ = 0;     // the header's nGpus: GPUs driven by one process (on one host)
  int devicesOneProcess_ = 0;  // NCCL 1 era "Rank N uses device D" lines, all from the one process
  Evidence evidence_, secondHeader_, wrongRow_;
};

}  // namespace pf::doctor
