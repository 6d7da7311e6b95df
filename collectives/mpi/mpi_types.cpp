// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "mpi_types.hpp"

#include <algorithm>
#include <cstdint>

#include "../verify.hpp"
#include "mpi_bootstrap.hpp"

namespace pf::collectives {

namespace {

struct HalfFormat {
  static float load(uint16_t v) { return halfToFloat(v); }
  static uint16_t store(float f) { return floatToHalf(f); }
};
struct Bf16Format {
  static float load(uint16_t v) { return bfloat16ToFloat(v); }
  static uint16_t store(float f) { return floatToBfloat16(f); }
};

struct Sum {
  static float apply(float a, float b) { return a + b; }
};
struct Prod {
  static float apply(float a, float b) { return a * b; }
};
struct Max {
  static float apply(float a, float b) { return std::max(a, b); }
};
struct Min {
  static float apply(float a, float b) { return std::min(a, b); }
};

// MPI user-op signature: inout[i] = in[i] (op) inout[i].
template <typename Format, typename Op>
void reduce16(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* a = static_cast<const uint16_t*>(in);
  auto* b = static_cast<uint16_t*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = Format::store(Op::apply(Format::load(a[i]), Format::load(b[i])));
}

template <typename Format>
void createOps(MPI_Op (&ops)[4]) {
  PF_MPI_CHECK(MPI_Op_create(&reduce16<Format, Sum>, 1, &ops[0]));
  PF_MPI_CHECK(MPI_Op_create(&reduce16<Format, Prod>, 1, &ops[1]));
  PF_MPI_CHECK(MPI_Op_create(&reduce16<Format, Max>, 1, &ops[2]));
  PF_MPI_CHECK(MPI_Op_create(&reduce16<Format, Min>, 1, &ops[3]));
}

template <typename T>
void divideTyped(void* buf, size_t count, int n) {
  auto* p = static_cast<T*>(buf);
  for (size_t i = 0; i < count; ++i) p[i] = static_cast<T>(p[i] / static_cast<T>(n));
}

}  // namespace

MpiTypes::MpiTypes() {
  PF_MPI_CHECK(MPI_Type_contiguous(2, MPI_BYTE, &twoBytes_));
  PF_MPI_CHECK(MPI_Type_commit(&twoBytes_));
  createOps<HalfFormat>(userOps_[0]);
  createOps<Bf16Format>(userOps_[1]);
}

MpiTypes::~MpiTypes() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (auto& row : userOps_)
    for (MPI_Op& op : row)
      if (op != MPI_OP_NULL && op != MPI_Op{}) MPI_Op_free(&op);
  if (twoBytes_ != MPI_DATATYPE_NULL) MPI_Type_free(&twoBytes_);
}

MPI_Datatype MpiTypes::type(DataType t) const {
  switch (t) {
    case DataType::kInt8: return MPI_INT8_T;
    case DataType::kUint8: return MPI_UINT8_T;
    case DataType::kInt32: return MPI_INT32_T;
    case DataType::kUint32: return MPI_UINT32_T;
    case DataType::kInt64: return MPI_INT64_T;
    case DataType::kUint64: return MPI_UINT64_T;
    case DataType::kFloat: return MPI_FLOAT;
    case DataType::kDouble: return MPI_DOUBLE;
    default: return twoBytes_;
  }
}

MPI_Op MpiTypes::op(DataType t, RedOp op) const {
  int idx = 0;
  switch (op) {
    case RedOp::kProd: idx = 1; break;
    case RedOp::kMax: idx = 2; break;
    case RedOp::kMin: idx = 3; break;
    default: idx = 0; break;  // sum, avg (sum then divide)
  }
  if (t == DataType::kHalf) return userOps_[0][idx];
  if (t == DataType::kBfloat16) return userOps_[1][idx];
  static const MPI_Op kBuiltin[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN};
  return kBuiltin[idx];
}

void divideInPlace(DataType t, void* buf, size_t count, int n) {
  switch (t) {
    case DataType::kInt8: divideTyped<int8_t>(buf, count, n); break;
    case DataType::kUint8: divideTyped<uint8_t>(buf, count, n); break;
    case DataType::kInt32: divideTyped<int32_t>(buf, count, n); break;
    case DataType::kUint32: divideTyped<uint32_t>(buf, count, n); break;
    case DataType::kInt64: divideTyped<int64_t>(buf, count, n); break;
    case DataType::kUint64: divideTyped<uint64_t>(buf, count, n); break;
    case DataType::kFloat: divideTyped<float>(buf, count, n); break;
    case DataType::kDouble: divideTyped<double>(buf, count, n); break;
    case DataType::kHalf:
    case DataType::kBfloat16:
      for (size_t i = 0; i < count; ++i) storeValue(t, buf, i, static_cast<float>(loadValue(t, buf, i)) / n);
      break;
  }
}

}  // namespace pf::collectives
