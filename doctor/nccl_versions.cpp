// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "nccl_versions.hpp"

#include <fmt/format.h>

#include <charconv>

#include "pf/error.hpp"

namespace pf::doctor {

std::optional<NcclVersion> parseNcclVersion(std::string_view text) {
  if (text.find("+hip") != std::string_view::npos) return std::nullopt;
  NcclVersion v{};
  const char* p = text.data();
  const char* end = text.data() + text.size();
  for (int i = 0; i < 3; ++i) {
    if (i > 0) {
      if (p == end || *p != '.') return std::nullopt;
      ++p;
    }
    if (p == end || *p < '0' || *p > '9') return std::nullopt;  // from_chars would take a sign
    auto [q, ec] = std::from_chars(p, end, v[static_cast<std::size_t>(i)]);
    if (ec != std::errc{} || q == p) return std::nullopt;
    p = q;
  }
  // What may follow: nothing, a build suffix ("+cuda12.1", "-1") or the end of a sentence.
  if (p != end && *p != '+' && *p != '-' && *p != ',' && *p != '.' && *p != ')') return std::nullopt;
  return v;
}

std::optional<std::string> ncclVersionFromCode(std::string_view digits) {
  int code = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), code);
  if (ec != std::errc{} || end == digits.data() || code < 2000 || code >= 100000) return std::nullopt;
  const int major = code < 10000 ? code / 1000 : code / 10000, minor = code % (code < 10000 ? 1000 : 10000) / 100;
  return fmt::format("{}.{}.{}", major, minor, code % 100);
}

std::optional<NcclRange> parseNcclRangeFact(std::string_view fact) {
  constexpr std::string_view kName = "nccl_in";
  // "nccl_in" alone or followed by a blank is the range form; another fact may start with the same letters.
  if (fact.substr(0, kName.size()) != kName || (fact.size() > kName.size() && fact[kName.size()] != ' '))
    return std::nullopt;
  auto bad = [&]() -> std::optional<NcclRange> {
    throw UsageError(
        fmt::format("fact \"{}\": expected \"nccl_in FROM BELOW\" with two NCCL versions, FROM before "
                    "BELOW (e.g. \"nccl_in 2.8.0 2.8.4\")",
                    fact));
  };
  std::string_view rest = fact.substr(kName.size());
  if (rest.empty() || rest[0] != ' ') return bad();
  rest.remove_prefix(1);
  const std::size_t sp = rest.find(' ');
  if (sp == std::string_view::npos) return bad();
  auto from = parseNcclVersion(rest.substr(0, sp)), below = parseNcclVersion(rest.substr(sp + 1));
  if (!from || !below || !(*from < *below)) return bad();
  return NcclRange{*from, *below};
}

std::vector<Evidence> ncclRangeEvidence(const NcclRange& range,
                                        const std::map<std::string, Evidence, std::less<>>& seen) {
  std::vector<Evidence> out;
  for (const auto& [text, ev] : seen) {
    auto v = parseNcclVersion(text);
    if (v && range.holds(*v)) out.push_back(ev);
  }
  return out;
}

}  // namespace pf::doctor
