// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Turns one raw log line, as users paste it, into the message NCCL or PyTorch printed plus who printed it.
//
// Handles, in any nesting: ANSI colour codes (also the "[0m" left when the escape byte was lost), timestamps
// (NCCL_DEBUG_TIMESTAMP_FORMAT's default "[%F %T] ", ISO 8601 as Kubernetes and Azure write it, optionally
// followed by the CRI "stdout F " tag), torchrun's "[default3]:" / "[rank3]:" tags, Slurm `srun -l` "12: ",
// Open MPI's "[1,3]<stdout>:", Ray's "(pid=123) ", pdsh's "host: " before an NCCL line, and finally NCCL's own
// "host:pid:tid [dev] " prefix with its level (INFO/WARN) and optional "file.cc:line " source location.
#pragma once

#include <cstring>
#include <string>
#include <string_view>

namespace pf::doctor {

struct NormView;

/// `s == lit` for a literal: the length first, then the bytes compared inline. string_view's == calls memcmp
/// with a run-time length, which showed in profiles of the per-line and per-word checks on large logs.
template <std::size_t N>
bool equals(std::string_view s, const char (&lit)[N]) {
  return s.size() == N - 1 && std::memcmp(s.data(), lit, N - 1) == 0;
}

struct NormLine {
  std::string text;       ///< the message with every prefix removed
  std::string host;       ///< from the NCCL prefix ("" when absent)
  long pid = -1;          ///< from the NCCL prefix
  int device = -1;        ///< the "[dev]" CUDA device of the NCCL prefix
  int launcherRank = -1;  ///< from "[rank3]:", "[default3]:", "3: " (srun -l) or "[1,3]<stdout>:"
  std::string level;      ///< "INFO", "WARN", "TRACE" for NCCL lines, else ""
  std::string timestamp;  ///< the leading timestamp as written ("" when absent)
  /// A stable name for the process that printed the line: "host:pid", else "rank N", else "".
  std::string who() const;
  /// The same fields as views into this line's strings.
  NormView view() const;
};

/// A NormLine whose fields are views into the raw line: the doctor's fast path for the millions of INFO lines
/// of a large job, which it reads without copying.
struct NormView {
  std::string_view text, host;
  long pid = -1;
  int device = -1;
  int launcherRank = -1;
  std::string_view level, timestamp;
  std::string who() const;
};

/// Normalises one line (without its trailing newline).
NormLine normalizeLine(std::string_view raw);

/// Whether `s` holds no escape byte and no byte >= 0x80: what normalizeView can read without copies.
bool plainAscii(std::string_view s);

/// The same as normalizeLine(raw).view(), without copies, for lines of printable ASCII only (no escapes, no
/// bytes >= 0x80); false (and `out` unspecified) for any other line, which then needs normalizeLine.
/// `knownPlain`: the caller found plainAscii() true for a text that holds the line (a whole block at once).
bool normalizeView(std::string_view raw, NormView& out, bool knownPlain = false);

/// `s` with every byte that is not part of a well-formed UTF-8 sequence replaced by U+FFFD, so log text can go
/// into JSON (which must be UTF-8) whatever encoding the log was in.
std::string validUtf8(std::string_view s);

/// The longest prefix of `s` of at most `max` bytes that does not cut a UTF-8 sequence.
std::string utf8Prefix(const std::string& s, std::size_t max);

/// Removes ANSI escape sequences (ESC [ ... final byte) and orphaned "[0m"-style codes at the start.
std::string stripAnsi(std::string_view s);

/// [begin, end) of the line that contains `offset` in `text` (end excludes the newline and a trailing '\r').
std::pair<std::size_t, std::size_t> lineBounds(std::string_view text, std::size_t offset);

}  // namespace pf::doctor
