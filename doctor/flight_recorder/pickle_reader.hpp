// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A reader for the part of Python's pickle format that PyTorch's Flight Recorder writes: protocol 2 and later,
// holding only dicts, lists, tuples, str, bytes, int, float, bool and None. It never runs anything: every opcode
// that would import a name or call one (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ, PERSID, EXT...)
// is refused, as are the text opcodes of protocols 0 and 1, sets and out-of-band buffers, with an error naming
// the input, the byte offset and the opcode.
//
// Contract: the result is the unpickled value as JSON (tuples become arrays, dict keys that are ints become
// their decimal text). Shared references (the memo) keep Python's meaning: a container fetched from the memo is
// the same container, filled by whatever came after its first appearance. Limits: nesting deeper than
// kMaxPickleDepth, a container that contains itself, a memo fetch of an index never stored, truncated input,
// integers beyond 64 bits, and output much larger than the input (shared references repeated to blow up
// memory) are errors, never crashes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "pf/error.hpp"
#include "pf/result.hpp"

namespace pf::doctor::fr {

/// Flight Recorder dumps nest about five levels; Python's own unpickler allows about a thousand.
inline constexpr int kMaxPickleDepth = 128;

/// A pickle the reader refuses. A UsageError (exit code 2) whose message names the input, the offset and the
/// opcode; the fields let tests and callers tell the cases apart.
class PickleError : public UsageError {
 public:
  PickleError(const std::string& what, std::string input, std::size_t offset, std::string opcode)
      : UsageError(what), input_(std::move(input)), offset_(offset), opcode_(std::move(opcode)) {}
  const std::string& input() const { return input_; }
  std::size_t offset() const { return offset_; }
  /// The opcode's name ("GLOBAL", "BINUNICODE"), or "" when the error is not about one opcode (end of input).
  const std::string& opcode() const { return opcode_; }

 private:
  std::string input_;
  std::size_t offset_;
  std::string opcode_;
};

/// Unpickles `data`. `name` (a path, usually) prefixes every error message.
/// @throws PickleError for anything outside the subset or malformed.
Json readPickle(std::string_view data, const std::string& name);

/// True when `head` (the first bytes of a file) starts like a protocol 2+ pickle whose outer value is a dict.
bool looksLikePickledDict(std::string_view head);

}  // namespace pf::doctor::fr
