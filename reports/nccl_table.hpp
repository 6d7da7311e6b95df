// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The nccl-tests text table (the layout of nccl-tests' src/util.cu): the same header lines, columns, widths
// and footer, so scripts that parse all_reduce_perf output parse ours. Used both while a sweep runs (rows
// streamed as they are measured) and by the table reporter on a saved document.
#pragma once

#include <cstdint>
#include <string>

#include "pf/result.hpp"
#include "pf/sweep_row.hpp"

namespace pf::reports {

/// Header lines up to and including the column units line. `devices` is the context's extra.devices (one
/// entry per rank: rank, host, pid, device, pci_bus_id, device_name).
/// `tool` names what measured it in the first line ("preflight", or "nccl-tests" for an imported run).
std::string ncclTableHeader(const SweepParams& params, const Json& devices, const std::string& version,
                            bool iterColumns, const std::string& tool = "preflight");
/// One data line: out-of-place and in-place halves of the same size.
std::string ncclTableRow(const SweepRow& out, const SweepRow& in, bool iterColumns);
/// The same with a half that was not measured (imported outputs can lack one): N/A in each of its columns.
/// At least one of `out` and `in` is not null.
std::string ncclTableRow(const SweepRow* out, const SweepRow* in, bool iterColumns);
/// The footer: out-of-bounds count, average bus bandwidth, closing lines.
std::string ncclTableFooter(const std::string& collective, int64_t outOfBounds, double avgBusbw);

}  // namespace pf::reports
