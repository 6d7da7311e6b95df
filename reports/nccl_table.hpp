// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The nccl-tests text table (nccl-tests src/util.cu's layout): the same header lines, columns, widths
// and footer, so scripts that parse all_reduce_perf output parse ours. Used both while a sweep runs (rows
// streamed as they are measured) and by the table reporter on a saved document.
#pragma once

#include <cstdint>
#include <string>

#include "pf/result.hpp"
#include "pf/sweep_row.hpp"

namespace pf::reports {

/// Header lines up to and including the column units line. Reads `params` of a sweep Result and the
/// context's extra.devices (one entry per rank: rank, host, pid, device, pci_bus_id, device_name).
std::string ncclTableHeader(const Json& params, const Json& devices, const std::string& version, bool iterColumns);
/// One data line: out-of-place and in-place halves of the same size.
std::string ncclTableRow(const SweepRow& out, const SweepRow& in, bool iterColumns);
/// The footer: out-of-bounds count, average bus bandwidth, closing lines.
std::string ncclTableFooter(const std::string& collective, int64_t outOfBounds, double avgBusbw);

}  // namespace pf::reports
