// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Where a diagnosis, a flag or a fact comes from: the input file, the line number, the normalised text and
// who printed it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "pf/json_field.hpp"
#include "pf/result.hpp"

namespace pf::doctor {

/// Evidence lines shown per diagnosis (and kept per rule pattern while scanning).
inline constexpr std::size_t kMaxEvidence = 6;

struct Evidence {
  std::string file;
  std::size_t line = 0;   ///< 1-based
  std::string text;       ///< normalised message (prefixes removed), cut to 400 bytes
  std::string host;       ///< "" when the line does not say
  int rank = -1;          ///< -1 when the line does not say
  std::string timestamp;  ///< as printed; "" when absent
  /// For a line without a timestamp: the stamps of the nearest stamped lines the scan read before and after it in
  /// the same input ("" when none). Lines of one input are in time order, so it was printed between the two.
  std::string notEarlierThan, notLaterThan;
  long pid = -1;  ///< from NCCL's "host:pid:tid" prefix, -1 when absent (not in the JSON: `rank` says who)
  std::string where() const { return file + ":" + std::to_string(line); }
  Json toJson() const;
};

/// The evidence for the line being analysed, built only when someone keeps it: the INFO extractor counts most
/// of the lines it sees and keeps a handful, so building every line's Evidence up front would cost more than
/// the extraction itself. `make` fills an Evidence on the first get().
class LineEvidence {
 public:
  using Maker = void (*)(const void* ctx, Evidence& out);
  LineEvidence(const std::string& file, Maker make, const void* ctx) : file_(file), make_(make), ctx_(ctx) {}
  /// An evidence already built (tests).
  explicit LineEvidence(const Evidence& ready) : file_(ready.file), ev_(ready) {}
  const std::string& file() const { return file_; }
  const Evidence& get() {
    if (!ev_) {
      ev_.emplace();
      make_(ctx_, *ev_);
    }
    used_ = true;
    return *ev_;
  }
  /// get() into `dst`, reusing its strings' buffers: a field overwritten at every change (a process's network
  /// line, printed at each init) then allocates nothing once its buffers are large enough.
  void copyTo(Evidence& dst) {
    used_ = true;
    if (ev_)
      dst = *ev_;
    else
      make_(ctx_, dst);
  }
  /// Whether get() or copyTo() was called: the line's evidence may be kept somewhere.
  bool used() const { return used_; }
  /// A fact counted this line without keeping its evidence (past its cap): the scanner notes which rule
  /// patterns the line also matched, so that the line is not counted twice for a rule.
  void countedForFact(const char* fact) { pastFact_ = fact; }
  const char* pastFact() const { return pastFact_; }

 private:
  const std::string& file_;
  Maker make_ = nullptr;
  const void* ctx_ = nullptr;
  bool used_ = false;
  const char* pastFact_ = nullptr;
  // Empty until get(): most lines never need one, and even an empty Evidence's strings cost their
  // construction and destruction on every line.
  std::optional<Evidence> ev_;
};

/// A finding reported beside the diagnoses (doctor.info's `flags`): what was seen, in words, and where.
struct Flag {
  std::string id;  ///< "socket_fallback_with_rdma", ...
  std::string message;
  Evidence evidence;
};

/// Facts derived from the whole log (docs/doctor-rules.md), by name, with the lines they rest on.
using Facts = std::map<std::string, std::vector<Evidence>>;

inline Json Evidence::toJson() const {
  Json j = Json::object();
  j["file"] = file;
  j["line"] = line;
  j["text"] = text;
  j["host"] = jsonOrNull(host);
  j["rank"] = rank < 0 ? Json() : Json(rank);
  if (!timestamp.empty()) j["timestamp"] = timestamp;
  if (!notEarlierThan.empty()) j["not_earlier_than"] = notEarlierThan;
  if (!notLaterThan.empty()) j["not_later_than"] = notLaterThan;
  return j;
}

}  // namespace pf::doctor
