// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "dtype.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>

#include "pf/error.hpp"

namespace pf::collectives {

namespace {
constexpr std::array<DataType, 10> kAllTypes = {
    DataType::kInt8,   DataType::kUint8, DataType::kInt32,    DataType::kUint32, DataType::kInt64,
    DataType::kUint64, DataType::kHalf,  DataType::kBfloat16, DataType::kFloat,  DataType::kDouble};
constexpr std::array<RedOp, 5> kAllOps = {RedOp::kSum, RedOp::kProd, RedOp::kMax, RedOp::kMin, RedOp::kAvg};

template <typename T, size_t N>
std::vector<T> parseNamed(const std::string& text, const std::array<T, N>& all, const char* what,
                          std::initializer_list<std::pair<const char*, T>> aliases) {
  if (text == "all") return {all.begin(), all.end()};
  for (T v : all)
    if (text == name(v)) return {v};
  for (auto& [alias, v] : aliases)
    if (text == alias) return {v};
  std::vector<std::string> names;
  for (T v : all) names.push_back(name(v));
  throw UsageError(fmt::format("unknown {} '{}': use one of {} or all", what, text, fmt::join(names, ", ")));
}
}  // namespace

const char* name(DataType t) {
  static const char* kNames[] = {"int8",   "uint8", "int32",    "uint32", "int64",
                                 "uint64", "half",  "bfloat16", "float",  "double"};
  return kNames[static_cast<int>(t)];
}

const char* name(RedOp op) {
  static const char* kNames[] = {"sum", "prod", "max", "min", "avg", "none"};
  return kNames[static_cast<int>(op)];
}

size_t sizeOf(DataType t) {
  switch (t) {
    case DataType::kInt8:
    case DataType::kUint8: return 1;
    case DataType::kHalf:
    case DataType::kBfloat16: return 2;
    case DataType::kInt32:
    case DataType::kUint32:
    case DataType::kFloat: return 4;
    default: return 8;
  }
}

bool isFloating(DataType t) {
  return t == DataType::kHalf || t == DataType::kBfloat16 || t == DataType::kFloat || t == DataType::kDouble;
}

bool isSigned(DataType t) {
  return t == DataType::kInt8 || t == DataType::kInt32 || t == DataType::kInt64 || isFloating(t);
}

std::vector<DataType> parseDataTypes(const std::string& text) {
  // nccl-tests also accepts these C-style spellings.
  return parseNamed(text, kAllTypes, "data type",
                    {{"char", DataType::kInt8},
                     {"int", DataType::kInt32},
                     {"fp16", DataType::kHalf},
                     {"bf16", DataType::kBfloat16},
                     {"fp32", DataType::kFloat},
                     {"fp64", DataType::kDouble}});
}

std::vector<RedOp> parseRedOps(const std::string& text) { return parseNamed(text, kAllOps, "reduction op", {}); }

}  // namespace pf::collectives
