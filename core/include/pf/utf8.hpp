// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// UTF-8 validity, for text that comes from outside (logs, captured trees) and goes into documents: nlohmann::json
// refuses to write a string that is not valid UTF-8 (type_error 316), so every such string is checked or mended
// on its way in. Header-only, so the fuzz targets that compile a reader's sources alone need nothing more.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace pf {

/// The length of the well-formed UTF-8 sequence that starts at s[i], or 0 when none does (RFC 3629: no
/// overlong forms, no surrogates, nothing above U+10FFFF; the rules nlohmann::json applies).
inline size_t utf8SequenceLength(std::string_view s, size_t i) {
  const auto at = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = at(i);
  if (c < 0x80) return 1;
  const size_t len = c >= 0xC2 && c <= 0xDF ? 2 : (c & 0xF0) == 0xE0 ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k)
    if ((at(i + k) & 0xC0) != 0x80) return 0;
  const unsigned char d = at(i + 1);
  if ((c == 0xE0 && d < 0xA0) || (c == 0xED && d >= 0xA0) || (c == 0xF0 && d < 0x90) || (c == 0xF4 && d >= 0x90))
    return 0;
  return len;
}

inline bool isValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8SequenceLength(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

/// `s` with every byte that does not belong to a well-formed sequence replaced by '?'.
inline std::string toValidUtf8(std::string s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8SequenceLength(s, i);
    if (n == 0) s[i] = '?';
    i += n == 0 ? 1 : n;
  }
  return s;
}

}  // namespace pf
