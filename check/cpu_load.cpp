// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "cpu_load.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "pf/error.hpp"

namespace pf::check {
namespace {

std::optional<std::string> slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A process's name is whatever the program set (prctl, argv[0]): kept printable ASCII so that it reads in a
// terminal and serialises as JSON (a byte that is not UTF-8 would make the document unwritable).
std::string printable(std::string name) {
  for (char& ch : name)
    if (ch < 0x20 || ch > 0x7e) ch = '?';
  return name;
}

bool allDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

void parseProcStat(const std::string& text, CpuSnapshot& s) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "cpu") {
      // user nice system idle iowait irq softirq steal [guest guest_nice]: guest time is already in user.
      uint64_t v = 0;
      for (int i = 0; i < 8 && words >> v; ++i) {
        s.totalTicks += v;
        if (i == 3 || i == 4) s.idleTicks += v;
        if (i == 7) s.stealTicks = v;
      }
    } else if (key.rfind("cpu", 0) == 0 && key.size() > 3) {
      ++s.cpus;
    } else if (key == "procs_running") {
      words >> s.procsRunning;
    }
  }
}

std::optional<std::pair<std::string, uint64_t>> parsePidStat(const std::string& text) {
  // "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses, so it ends at the last ')'.
  const auto open = text.find('('), close = text.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  std::istringstream rest(text.substr(close + 1));
  std::vector<std::string> f;
  for (std::string w; rest >> w && f.size() < 13;) f.push_back(w);
  // Fields from STATE (field 3) on: utime is field 14, stime field 15 (proc(5)).
  if (f.size() < 13 || !allDigits(f[11]) || !allDigits(f[12])) return std::nullopt;
  try {
    return std::make_pair(printable(text.substr(open + 1, close - open - 1)), std::stoull(f[11]) + std::stoull(f[12]));
  } catch (const std::exception&) {  // out of range
    return std::nullopt;
  }
}

CpuSnapshot takeCpuSnapshot(const std::filesystem::path& root) {
  CpuSnapshot s;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  if (auto stat = slurp(root / "proc/stat")) parseProcStat(*stat, s);
  if (auto load = slurp(root / "proc/loadavg")) std::istringstream(*load) >> s.load1;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(root / "proc", ec)) {
    const std::string name = e.path().filename().string();
    if (!allDigits(name)) continue;
    // A process may exit between the listing and the read: it is then simply not counted.
    if (auto text = slurp(e.path() / "stat"))
      if (auto p = parsePidStat(*text)) s.processes[std::stoi(name)] = *p;
  }
  return s;
}

CpuLoad cpuLoadBetween(const CpuSnapshot& a, const CpuSnapshot& b, const std::set<int>& jobPids,
                       double ticksPerSecond) {
  CpuLoad c;
  c.cpus = std::max(b.cpus, 1);
  c.windowSeconds = std::max(b.seconds - a.seconds, 0.0);
  c.load1 = b.load1;
  c.runnable = b.procsRunning;
  if (b.totalTicks > a.totalTicks && b.stealTicks >= a.stealTicks)
    c.stealPct =
        100.0 * static_cast<double>(b.stealTicks - a.stealTicks) / static_cast<double>(b.totalTicks - a.totalTicks);
  if (c.windowSeconds <= 0 || ticksPerSecond <= 0) return c;
  // Per process: the busiest ones, to name them, and the job's own ranks' time. A pid in both snapshots counts
  // from its first value (kernel threads rename themselves, so the name cannot tell a new process); one whose
  // time went down was reused by a new process and counts from zero, as does one born in the window.
  double jobTicks = 0;
  for (const auto& [pid, now] : b.processes) {
    auto was = a.processes.find(pid);
    const uint64_t start = was != a.processes.end() && was->second.second <= now.second ? was->second.second : 0;
    if (now.second <= start) continue;
    const double ticks = static_cast<double>(now.second - start);
    if (jobPids.count(pid)) {
      jobTicks += ticks;
      continue;
    }
    c.top.push_back({pid, now.first, 100.0 * ticks / ticksPerSecond / c.windowSeconds});
  }
  // The share itself comes from /proc/stat, which accounts every CPU tick once (processes that came and went
  // in the window included): busy = all - idle - iowait - steal, less what the job's ranks used.
  if (b.totalTicks > a.totalTicks && b.idleTicks >= a.idleTicks) {
    const double total = static_cast<double>(b.totalTicks - a.totalTicks);
    const double busy =
        total - static_cast<double>(b.idleTicks - a.idleTicks) - static_cast<double>(b.stealTicks - a.stealTicks);
    c.othersPct = std::clamp(100.0 * (busy - jobTicks) / total, 0.0, 100.0);
  }
  std::sort(c.top.begin(), c.top.end(), [](const ProcessCpu& x, const ProcessCpu& y) { return x.cpuPct > y.cpuPct; });
  if (c.top.size() > 3) c.top.resize(3);
  return c;
}

std::string CpuLoad::describe() const {
  std::string s = fmt::format("load {:.1f} on {} CPUs, {} runnable, other processes {:.0f}% of the CPUs, steal {:.0f}%",
                              load1, cpus, runnable, othersPct, stealPct);
  for (size_t i = 0; i < top.size(); ++i)
    s += fmt::format("{}{}({}) {:.0f}%", i == 0 ? ": " : ", ", top[i].comm, top[i].pid, top[i].cpuPct);
  for (size_t i = 0; i < gpu.size(); ++i) {
    const std::string mem =
        gpu[i].usedBytes < 0 ? "memory unknown" : fmt::format("{:.1f} GiB", gpu[i].usedBytes / 1073741824.0);
    s += fmt::format("{}{}({}) {} on GPU {}", i == 0 ? "; on its GPUs: " : ", ", gpu[i].comm, gpu[i].pid, mem,
                     gpu[i].gpu);
  }
  return s;
}

void addGpuProcesses(CpuLoad& c, const std::vector<GpuProcess>& processes, const std::set<int>& jobPids,
                     const std::filesystem::path& procRoot) {
  for (const GpuProcess& p : processes) {
    if (jobPids.count(p.pid)) continue;
    std::string comm = slurp(procRoot / "proc" / std::to_string(p.pid) / "comm").value_or("?");
    while (!comm.empty() && (comm.back() == '\n' || comm.back() == '\r')) comm.pop_back();
    c.gpu.push_back({p.pid, comm.empty() ? "?" : printable(comm), p.gpu, p.usedBytes});
  }
  std::stable_sort(c.gpu.begin(), c.gpu.end(),
                   [](const ProcessGpu& a, const ProcessGpu& b) { return a.usedBytes > b.usedBytes; });
  if (c.gpu.size() > 3) c.gpu.resize(3);
}

Json toJson(const CpuLoad& c) {
  Json top = Json::array();
  for (const ProcessCpu& p : c.top) top.push_back({{"pid", p.pid}, {"comm", p.comm}, {"cpu_pct", p.cpuPct}});
  Json gpu = Json::array();
  for (const ProcessGpu& p : c.gpu)
    gpu.push_back({{"pid", p.pid}, {"comm", p.comm}, {"gpu", p.gpu}, {"used_bytes", p.usedBytes}});
  Json j = {{"host", c.host},
            {"cpus", c.cpus},
            {"window_s", c.windowSeconds},
            {"load1", c.load1},
            {"runnable", c.runnable},
            {"steal_pct", c.stealPct},
            {"others_pct", c.othersPct},
            {"top", top},
            {"gpu", gpu}};
  if (!c.gpuQuery.empty()) j["gpu_query"] = c.gpuQuery;
  return j;
}

CpuLoad cpuLoadFromJson(const Json& j) {
  CpuLoad c;
  try {
    c.host = j.at("host").get<std::string>();
    c.cpus = j.at("cpus").get<int>();
    c.windowSeconds = j.at("window_s").get<double>();
    c.load1 = j.at("load1").get<double>();
    c.runnable = j.at("runnable").get<int>();
    c.stealPct = j.at("steal_pct").get<double>();
    c.othersPct = j.at("others_pct").get<double>();
    for (const Json& p : j.at("top"))
      c.top.push_back({p.at("pid").get<int>(), p.at("comm").get<std::string>(), p.at("cpu_pct").get<double>()});
    // Documents written before the GPU processes were listed have neither field.
    for (const Json& p : j.value("gpu", Json::array()))
      c.gpu.push_back({p.at("pid").get<int>(), p.at("comm").get<std::string>(), p.at("gpu").get<int>(),
                       p.at("used_bytes").get<long long>()});
    c.gpuQuery = j.value("gpu_query", std::string());
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(fmt::format("a node's CPU load record is malformed ({})", e.what()));
  }
  return c;
}

}  // namespace pf::check
