// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "verify.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace pf::collectives {

namespace {

// A cheap, well-mixed hash of (seed, rank, index): splitmix64's finaliser.
uint64_t mix(uint64_t seed, int rank, uint64_t index) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(rank) * 0xBF58476D1CE4E5B9ull + index;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Largest integer magnitude the type holds exactly (capped: inputs stay small anyway).
double exactLimit(DataType t) {
  switch (t) {
    case DataType::kInt8: return 127;
    case DataType::kUint8: return 255;
    case DataType::kHalf: return 2048;
    case DataType::kBfloat16: return 256;
    default: return 1 << 20;
  }
}

// The unit roundoff of a floating type: half the distance from 1 to the next value.
double unitRoundoff(DataType t) {
  switch (t) {
    case DataType::kHalf: return std::ldexp(1.0, -11);
    case DataType::kBfloat16: return std::ldexp(1.0, -8);
    case DataType::kFloat: return std::ldexp(1.0, -24);
    default: return std::ldexp(1.0, -53);
  }
}

// The largest input magnitude inputValue() gives sum and avg on `nranks` ranks.
double sumInputLimit(DataType t, int nranks) {
  return static_cast<double>(std::clamp<int64_t>(static_cast<int64_t>(exactLimit(t) / std::max(nranks, 1)), 1, 31));
}

}  // namespace

double inputValue(DataType t, RedOp op, int rank, int nranks, uint64_t index, uint64_t seed) {
  uint64_t h = mix(seed, rank, index);
  bool sgn = isSigned(t);
  switch (op) {
    case RedOp::kSum:
    case RedOp::kAvg: {
      const auto a = static_cast<int64_t>(sumInputLimit(t, nranks));
      if (sgn) return static_cast<double>(static_cast<int64_t>(h % static_cast<uint64_t>(2 * a + 1)) - a);
      return static_cast<double>(h % static_cast<uint64_t>(a + 1));
    }
    case RedOp::kProd: {
      // Exactly one rank contributes 2 (negative for half of the elements of signed types) and, for signed
      // types, the next rank contributes -1 on every third element; everyone else contributes 1. The product
      // is therefore +-2 or 2 for every element: exact in every type, whatever the order of reduction.
      int owner = static_cast<int>(index % static_cast<uint64_t>(nranks));
      if (rank == owner) return (sgn && (index / nranks) % 2) ? -2.0 : 2.0;
      if (sgn && nranks > 1 && rank == (owner + 1) % nranks && index % 3 == 0) return -1.0;
      return 1.0;
    }
    case RedOp::kMax:
    case RedOp::kMin:
      return sgn ? static_cast<double>(static_cast<int64_t>(h % 100) - 50) : static_cast<double>(h % 100);
    case RedOp::kNone:
    default: return sgn ? static_cast<double>(static_cast<int64_t>(h % 97) - 48) : static_cast<double>(h % 97);
  }
}

double expectedReduction(DataType t, RedOp op, int nranks, uint64_t index, uint64_t seed) {
  double acc = inputValue(t, op, 0, nranks, index, seed);
  for (int r = 1; r < nranks; ++r) {
    double v = inputValue(t, op, r, nranks, index, seed);
    switch (op) {
      case RedOp::kSum:
      case RedOp::kAvg: acc += v; break;
      case RedOp::kProd: acc *= v; break;
      case RedOp::kMax: acc = std::max(acc, v); break;
      case RedOp::kMin: acc = std::min(acc, v); break;
      default: break;
    }
  }
  if (op == RedOp::kAvg) {
    // Integer avg divides the sum and truncates toward zero (C semantics), as NCCL does for integer types.
    if (!isFloating(t)) return std::trunc(acc / nranks);
    return acc / nranks;
  }
  return acc;
}

void storeValue(DataType t, void* buf, size_t i, double v) {
  char* p = static_cast<char*>(buf);
  switch (t) {
    case DataType::kInt8: reinterpret_cast<int8_t*>(p)[i] = static_cast<int8_t>(v); break;
    case DataType::kUint8: reinterpret_cast<uint8_t*>(p)[i] = static_cast<uint8_t>(v); break;
    case DataType::kInt32: reinterpret_cast<int32_t*>(p)[i] = static_cast<int32_t>(v); break;
    case DataType::kUint32: reinterpret_cast<uint32_t*>(p)[i] = static_cast<uint32_t>(v); break;
    case DataType::kInt64: reinterpret_cast<int64_t*>(p)[i] = static_cast<int64_t>(v); break;
    case DataType::kUint64: reinterpret_cast<uint64_t*>(p)[i] = static_cast<uint64_t>(v); break;
    case DataType::kHalf: reinterpret_cast<uint16_t*>(p)[i] = floatToHalf(static_cast<float>(v)); break;
    case DataType::kBfloat16: reinterpret_cast<uint16_t*>(p)[i] = floatToBfloat16(static_cast<float>(v)); break;
    case DataType::kFloat: reinterpret_cast<float*>(p)[i] = static_cast<float>(v); break;
    case DataType::kDouble: reinterpret_cast<double*>(p)[i] = v; break;
  }
}

double loadValue(DataType t, const void* buf, size_t i) {
  const char* p = static_cast<const char*>(buf);
  switch (t) {
    case DataType::kInt8: return reinterpret_cast<const int8_t*>(p)[i];
    case DataType::kUint8: return reinterpret_cast<const uint8_t*>(p)[i];
    case DataType::kInt32: return reinterpret_cast<const int32_t*>(p)[i];
    case DataType::kUint32: return reinterpret_cast<const uint32_t*>(p)[i];
    case DataType::kInt64: return static_cast<double>(reinterpret_cast<const int64_t*>(p)[i]);
    case DataType::kUint64: return static_cast<double>(reinterpret_cast<const uint64_t*>(p)[i]);
    case DataType::kHalf: return halfToFloat(reinterpret_cast<const uint16_t*>(p)[i]);
    case DataType::kBfloat16: return bfloat16ToFloat(reinterpret_cast<const uint16_t*>(p)[i]);
    case DataType::kFloat: return reinterpret_cast<const float*>(p)[i];
    case DataType::kDouble: return reinterpret_cast<const double*>(p)[i];
  }
  return 0;
}

double avgTolerance(DataType t, int nranks, double expected) {
  const double u = unitRoundoff(t);
  return (nranks + 2) * u * sumInputLimit(t, nranks) + 2 * u * std::fabs(expected);
}

int64_t countWrong(DataType t, RedOp op, int nranks, const void* actual, const void* expected, size_t count) {
  const size_t es = sizeOf(t);
  const char* a = static_cast<const char*>(actual);
  const char* e = static_cast<const char*>(expected);
  int64_t wrong = 0;
  if (op == RedOp::kAvg && isFloating(t)) {
    for (size_t i = 0; i < count; ++i) {
      const double want = loadValue(t, e, i), got = loadValue(t, a, i);
      if (!(std::fabs(got - want) <= avgTolerance(t, nranks, want))) ++wrong;  // a NaN is wrong too
    }
    return wrong;
  }
  // Fast path: whole-buffer compare, then per element only when something differs.
  if (std::memcmp(a, e, count * es) == 0) return 0;
  for (size_t i = 0; i < count; ++i)
    if (std::memcmp(a + i * es, e + i * es, es) != 0) ++wrong;
  return wrong;
}

uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t mant = x & 0x7fffff;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xff);
  if (exp == 0xff) return static_cast<uint16_t>(sign | 0x7c00 | (mant ? 0x200 : 0));  // inf / nan
  int32_t e = exp - 127 + 15;
  if (e >= 0x1f) return static_cast<uint16_t>(sign | 0x7c00);  // overflow -> inf
  if (e <= 0) {                                                // subnormal or zero
    if (e < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(e) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1))) ++half;  // may carry into the exponent: still correct
  return static_cast<uint16_t>(half);
}

float halfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  uint32_t x;
  if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while (!(mant & 0x400));
      x = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3ff) << 13);
    }
  } else if (exp == 0x1f) {
    x = sign | 0x7f800000 | (mant << 13);
  } else {
    x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t floatToBfloat16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffff) > 0x7f800000) return static_cast<uint16_t>((x >> 16) | 0x40);  // quiet NaN
  x += 0x7fff + ((x >> 16) & 1);                                                      // round to nearest even
  return static_cast<uint16_t>(x >> 16);
}

float bfloat16ToFloat(uint16_t b) {
  uint32_t x = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

}  // namespace pf::collectives
