// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// SystemView: every file access of the probes goes through here, so a captured tree (tests/fixtures/...) and
// the live node are read by the same code. Captured trees keep sysfs's relative symlinks, which is why
// links are resolved inside the root and never through an absolute target.
#include "system_view.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>

namespace pf::probes {

namespace fs = std::filesystem;

namespace {

// The length of the valid UTF-8 sequence at s[i], or 0 (RFC 3629: no overlong forms, no surrogates, nothing
// above U+10FFFF, the same rules nlohmann::json enforces when a document is written).
size_t utf8Length(const std::string& s, size_t i) {
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

// A file of a captured tree (`--sysfs-root`) can hold any bytes, and probes copy values into documents, which
// must be valid UTF-8: a byte that does not belong to a valid sequence reads as '?'. Live sysfs is ASCII.
std::string asUtf8(std::string s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8Length(s, i);
    if (n == 0) s[i] = '?';
    i += n == 0 ? 1 : n;
  }
  return s;
}

bool isUtf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8Length(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

}  // namespace

SystemView SystemView::live() { return SystemView("/", Environment::fromProcess(), true); }

SystemView::SystemView(fs::path root, Environment env, bool live)
    : root_(std::move(root)), env_(std::move(env)), live_(live) {}

fs::path SystemView::path(std::string_view abs) const {
  std::string_view rel = abs;
  while (!rel.empty() && rel.front() == '/') rel.remove_prefix(1);
  if (rel.empty()) return root_;
  return root_ / fs::path(rel);
}

std::optional<std::string> SystemView::read(std::string_view abs) const {
  // procfs and sysfs report size 0 for most files, so read by stream rather than by file size.
  std::ifstream in(path(abs), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return std::nullopt;
  std::string s = ss.str();
  while (!s.empty() &&
         (s.back() == '\n' || s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\0'))
    s.pop_back();
  return asUtf8(std::move(s));
}

std::vector<std::string> SystemView::list(std::string_view absDir) const {
  std::vector<std::string> names;
  std::error_code ec;
  fs::directory_iterator it(path(absDir), ec);
  if (ec) return names;
  // A name that is not UTF-8 could be neither reported nor looked up again under a changed spelling: skipped.
  for (const auto& entry : it)
    if (std::string name = entry.path().filename().string(); isUtf8(name)) names.push_back(std::move(name));
  std::sort(names.begin(), names.end());
  return names;
}

bool SystemView::exists(std::string_view abs) const {
  std::error_code ec;
  // A dangling link still "exists" as an entry (e.g. a device link in a partial capture).
  return fs::exists(fs::symlink_status(path(abs), ec));
}

std::optional<std::string> SystemView::readLink(std::string_view abs) const {
  std::error_code ec;
  fs::path p = path(abs);
  if (!fs::is_symlink(fs::symlink_status(p, ec))) return std::nullopt;
  fs::path target = fs::read_symlink(p, ec);
  if (ec) return std::nullopt;
  return asUtf8(target.string());
}

std::optional<std::string> SystemView::linkName(std::string_view abs) const {
  auto target = readLink(abs);
  if (!target) return std::nullopt;
  std::string t = *target;
  while (!t.empty() && t.back() == '/') t.pop_back();
  auto slash = t.rfind('/');
  return slash == std::string::npos ? t : t.substr(slash + 1);
}

}  // namespace pf::probes
