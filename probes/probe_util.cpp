// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "probe_util.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "pf/environment.hpp"

namespace pf::probes {

std::vector<std::string> splitList(std::string_view s, std::string_view seps) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find_first_of(seps, start);
    if (end == std::string_view::npos) end = s.size();
    if (end > start) out.emplace_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::optional<long long> parseInt(std::string_view s) {
  std::string t = trim(s);
  if (t.empty()) return std::nullopt;
  long long v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
  return v;
}

std::string readText(const SystemView& sys, std::string_view abs) {
  auto v = sys.read(abs);
  return v ? trim(*v) : "";
}

std::optional<long long> readInt(const SystemView& sys, std::string_view abs) {
  auto text = sys.read(abs);
  if (!text) return std::nullopt;
  return parseInt(*text);
}

std::string nodeName(const SystemView& sys) {
  if (sys.isLive()) return hostName();
  for (const char* f : {"/proc/sys/kernel/hostname", "/etc/hostname"}) {
    auto v = sys.read(f);
    if (v && !trim(*v).empty()) return trim(*v);
  }
  return "unknown";
}

void Findings::add(Status s, std::string message, std::string remedy) {
  items_.push_back({s, std::move(message), std::move(remedy)});
}

Status Findings::worstStatus() const {
  Status w = Status::kPass;
  for (const auto& i : items_) w = worst(w, i.status);
  return w;
}

void Findings::apply(Result& r, const std::string& passMessage) const {
  r.status = worstStatus();
  if (items_.empty()) {
    r.message = passMessage;
    return;
  }
  std::vector<const Item*> ordered;
  for (const auto& i : items_) ordered.push_back(&i);
  std::stable_sort(ordered.begin(), ordered.end(), [](const Item* a, const Item* b) {
    return static_cast<int>(a->status) > static_cast<int>(b->status);
  });
  std::string msg, remedy;
  for (const Item* i : ordered) {
    msg += (msg.empty() ? "" : "; ") + i->message;
    if (!i->remedy.empty() && remedy.find(i->remedy) == std::string::npos)
      remedy += (remedy.empty() ? "" : "; ") + i->remedy;
  }
  r.message = msg;
  r.remedy = remedy;
}

}  // namespace pf::probes
