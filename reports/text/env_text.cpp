// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight env` in the terminal: the launcher(s) found, each normalised field with the variable it came from
// (context.launcher holds what the detection read), then each check with its fix.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "text_view.hpp"

namespace pf::reports {
namespace {

class EnvText final : public TextView {
 public:
  std::string end(const RunReport& report) override {
    const Json& j = report.context.launcher;
    std::vector<std::string> launchers;
    for (const Json& l : j.value("launchers", Json::array()))
      if (l.is_string()) launchers.push_back(l.get<std::string>());
    const std::string process = j.value("launcher", std::string("none"));  // the process launcher
    std::string out =
        fmt::format("launcher: {}\n", launchers.empty() ? "none" : fmt::format("{}", fmt::join(launchers, " + ")));
    const Json sources = j.value("sources", Json::object());
    for (const char* f : {"rank", "world_size", "local_rank", "local_world_size", "node_rank", "node_count",
                          "master_addr", "master_port"}) {
      std::string from = sources.value(f, "");
      const std::string name = f;
      const bool processField = name.find("rank") != std::string::npos || name.find("world") != std::string::npos;
      if (from.empty() && processField && process != "none") from = process;
      const Json v = j.value(f, Json());
      out += fmt::format("  {:<17} {:<20} {}\n", f,
                         v.is_null()     ? "-"
                         : v.is_string() ? v.get<std::string>()
                                         : v.dump(),
                         from.empty() ? "" : "(" + from + ")");
    }
    for (const Json& n : j.value("notes", Json::array()))
      if (n.is_string()) out += "  note: " + n.get<std::string>() + "\n";
    for (const Result& r : report.results) {
      if (r.key == "env.launcher") continue;
      out += fmt::format("{:<7} {:<10} {}\n", toString(r.status), r.key.rfind("env.", 0) == 0 ? r.key.substr(4) : r.key,
                         r.message);
      if (!r.remedy.empty()) out += fmt::format("        fix: {}\n", r.remedy);
    }
    return out;
  }
};

PF_REGISTER_TEXT_VIEW(EnvText, "env");

}  // namespace
}  // namespace pf::reports
