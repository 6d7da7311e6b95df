// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The pair row is part of the result model (pf/pair_row.hpp), read by reports and the viewer too; the check
// code knows it by its old name.
#pragma once

#include "pf/pair_row.hpp"

namespace pf::check {
using pf::PairRow;
using pf::pairRowFromJson;
}  // namespace pf::check
