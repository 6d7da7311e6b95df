// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The verifiable module: deterministic inputs whose collective results are exactly representable, and the
// comparison that counts wrong elements.
//
// Contract:
//  * inputValue(t, op, rank, n, i, seed) is a pure function, so every rank can compute every other rank's input
//    and hence the exact expected output on the host, with no communication.
//  * Values are small integers chosen per op so that any order of reduction is exact in the type: for sum and
//    avg the magnitude is bounded by (largest exact integer of the type) / n; prod multiplies by 2 on exactly
//    one rank per element (and by -1 on at most one other); max and min pick from a small range.
//    bfloat16 holds integers exactly only up to 256, so sums stay exact up to 256 ranks.
//  * Comparison is bitwise (exact), except avg on floating types, which allows 2 ulps as nccl-tests does
//    (NCCL may pre-multiply by 1/n in the reduction type).
#pragma once

#include <cstddef>
#include <cstdint>

#include "dtype.hpp"

namespace pf::collectives {

/// Input element `index` of `rank` for a collective using `op` (kNone for data-movement collectives).
double inputValue(DataType t, RedOp op, int rank, int nranks, uint64_t index, uint64_t seed);

/// The exact result of reducing element `index` over all ranks' inputs (avg: rounded as the type stores it).
double expectedReduction(DataType t, RedOp op, int nranks, uint64_t index, uint64_t seed);

/// Writes `v` as type `t` into element `i` of `buf` (rounding to nearest even for half and bfloat16).
void storeValue(DataType t, void* buf, size_t i, double v);
/// Reads element `i` of `buf` as a double.
double loadValue(DataType t, const void* buf, size_t i);

/// Number of elements of `actual` that differ from `expected`: bitwise, except avg on floating types over
/// `nranks` ranks, which may differ by avgTolerance().
int64_t countWrong(DataType t, RedOp op, int nranks, const void* actual, const void* expected, size_t count);

/// How far a correct floating-point avg over `nranks` ranks may be from the exact one. NCCL averages floats by
/// scaling every input by 1/n and summing the products (ncclAvg, PreMulSum), in an order of its own (ring,
/// tree): each product and each addition rounds, so the error grows with n, and near a zero sum it is many
/// ulps of the result. The bound is the recursive-summation one, (n + 2) u sum|x_i / n|, with sum|x_i| <= n A
/// for the inputs inputValue() makes (|x| <= A), plus one rounding of the expected value itself.
double avgTolerance(DataType t, int nranks, double expected);

/// IEEE-754 binary16 and bfloat16 conversions (round to nearest even), used by the host-side backends too.
uint16_t floatToHalf(float f);
float halfToFloat(uint16_t h);
uint16_t floatToBfloat16(float f);
float bfloat16ToFloat(uint16_t b);

}  // namespace pf::collectives
