// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Data types and reduction operations of the sweeps, with the names nccl-tests uses on its command line.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace pf::collectives {

enum class DataType { kInt8, kUint8, kInt32, kUint32, kInt64, kUint64, kHalf, kBfloat16, kFloat, kDouble };
enum class RedOp { kSum, kProd, kMax, kMin, kAvg, kNone };

const char* name(DataType t);
const char* name(RedOp op);
size_t sizeOf(DataType t);
bool isFloating(DataType t);
bool isSigned(DataType t);

/// Parses one name or "all" (every type / every op). @throws UsageError listing the valid names.
std::vector<DataType> parseDataTypes(const std::string& text);
std::vector<RedOp> parseRedOps(const std::string& text);

}  // namespace pf::collectives
