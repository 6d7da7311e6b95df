// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Where a diagnosis, a flag or a fact comes from: the input file, the line number, the normalised text and
// who printed it.
#pragma once

#include <string>

#include "pf/result.hpp"

namespace pf::doctor {

struct Evidence {
  std::string file;
  std::size_t line = 0;   ///< 1-based
  std::string text;       ///< normalised message (prefixes removed), cut to 400 bytes
  std::string host;       ///< "" when the line does not say
  int rank = -1;          ///< -1 when the line does not say
  std::string timestamp;  ///< as printed; "" when absent
  std::string where() const { return file + ":" + std::to_string(line); }
  Json toJson() const;
};

inline Json Evidence::toJson() const {
  Json j = Json::object();
  j["file"] = file;
  j["line"] = line;
  j["text"] = text;
  j["host"] = host.empty() ? Json() : Json(host);
  j["rank"] = rank < 0 ? Json() : Json(rank);
  if (!timestamp.empty()) j["timestamp"] = timestamp;
  return j;
}

}  // namespace pf::doctor
