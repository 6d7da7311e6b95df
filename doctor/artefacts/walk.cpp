// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "walk.hpp"

#include <dirent.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>

#include "pf/error.hpp"

namespace pf::doctor {
namespace {

class Walker {
 public:
  explicit Walker(InputFiles& out) : out_(out) {}

  void dir(const std::string& path, int depth) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return;
    // A directory reached again (a symbolic link to a parent, or the same tree linked twice) is read once.
    if (!seen_.insert({st.st_dev, st.st_ino}).second) {
      out_.skipped.push_back({path, "a directory already read (a symbolic link loops back to it)"});
      return;
    }
    if (depth > kMaxWalkDepth) {
      out_.skipped.push_back(
          {path, fmt::format("deeper than {} directory levels; give it as an argument", kMaxWalkDepth)});
      return;
    }
    DIR* d = ::opendir(path.c_str());
    if (!d) throw UsageError(fmt::format("cannot list directory '{}': {}", path, std::strerror(errno)));
    std::vector<std::string> names;
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    const std::string base = path + (path.back() == '/' ? "" : "/");
    for (const auto& name : names) {
      const std::string p = base + name;
      struct stat fs {};
      if (::stat(p.c_str(), &fs) != 0) {
        out_.skipped.push_back({p, fmt::format("cannot be read: {}", std::strerror(errno))});
        continue;
      }
      if (S_ISDIR(fs.st_mode)) {
        dir(p, depth + 1);
      } else if (!S_ISREG(fs.st_mode)) {
        out_.skipped.push_back({p, "not a regular file (a device, socket or pipe)"});
      } else if (files_ >= kMaxWalkFiles) {
        ++over_;
      } else {
        out_.files.push_back(p);
        ++files_;
      }
    }
  }

  std::size_t over() const { return over_; }

 private:
  InputFiles& out_;
  std::set<std::pair<dev_t, ino_t>> seen_;
  std::size_t files_ = 0, over_ = 0;
};

}  // namespace

InputFiles collectInputs(const std::vector<std::string>& args) {
  InputFiles out;
  for (const auto& a : args) {
    struct stat st {};
    if (a == "-" || ::stat(a.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      out.files.push_back(a);  // a file, stdin, or a missing path that openLog reports
      continue;
    }
    const std::size_t before = out.files.size();
    Walker w(out);
    w.dir(a, 0);
    if (w.over() > 0)
      out.skipped.push_back({a, fmt::format("{} more files past the first {} of the directory were not read; give "
                                            "the sub-directories that matter",
                                            w.over(), kMaxWalkFiles)});
    if (out.files.size() == before)
      throw UsageError(fmt::format("directory '{}' holds no regular files; give the directory of the job's logs", a));
  }
  return out;
}

}  // namespace pf::doctor
