// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The doctor's "doctor.artefacts" result in the terminal: which files were read as what and which were skipped,
// the first failure across them, the timeline's head, the findings of RAS / DIAG / Slurm, what was not given and
// how the clocks were reconciled.
#pragma once

#include <string>

#include "pf/result.hpp"

namespace pf::reports {

/// The section's text ("" when the result holds nothing to say). `verbose` shows the whole kept timeline.
std::string doctorArtefactsText(const Result& r, bool verbose);

/// What leads the doctor's text before the diagnoses: a failing Flight Recorder verdict (the rank and the
/// collective), "" when there is none.
std::string doctorArtefactsLead(const Result& r);

}  // namespace pf::reports
