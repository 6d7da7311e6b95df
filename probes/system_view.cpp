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

#include "pf/utf8.hpp"

namespace pf::probes {

namespace fs = std::filesystem;

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
  // A file of a captured tree (`--sysfs-root`) can hold any bytes, and probes copy values into documents.
  return toValidUtf8(std::move(s));
}

std::vector<std::string> SystemView::list(std::string_view absDir) const {
  std::vector<std::string> names;
  std::error_code ec;
  fs::directory_iterator it(path(absDir), ec);
  if (ec) return names;
  // A name that is not UTF-8 could be neither reported nor looked up again under a changed spelling: skipped.
  for (const auto& entry : it)
    if (std::string name = entry.path().filename().string(); isValidUtf8(name)) names.push_back(std::move(name));
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
  return toValidUtf8(target.string());
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
