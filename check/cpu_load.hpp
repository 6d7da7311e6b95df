// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// How busy a node's CPUs were with work other than this job while the pair test ran: the evidence that tells
// CPU contention from a slow network. A pair test moves data through the ranks' CPUs (MPI over TCP copies
// every byte; even RDMA needs a core to post and poll), so a stray process from the previous job, a data
// loader or a noisy neighbour on the hypervisor (steal time) slows a pair exactly as a bad cable would.
//
// Two snapshots of procfs, at the start and the end of the window: /proc/stat (all CPUs' time, steal, the
// run queue), /proc/loadavg, and every process's CPU time from /proc/PID/stat. The job's own ranks are left
// out by pid. The parsers take text, so the tests feed them captured files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "pf/nvml.hpp"
#include "pf/result.hpp"

namespace pf::check {

struct ProcessCpu {
  int pid = 0;
  std::string comm;   ///< the name in /proc/PID/stat
  double cpuPct = 0;  ///< of one CPU over the window (a busy loop: ~100)
};

/// Another process's compute context on one of the node's GPUs (NVML): a job that did not end still holds its
/// GPUs' memory and SMs, and slows or breaks the next job's collectives.
struct ProcessGpu {
  int pid = 0;
  std::string comm;          ///< /proc/PID/comm; "?" when the pid is not visible here (another pid namespace)
  int gpu = 0;               ///< NVML's device index
  long long usedBytes = -1;  ///< device memory held; -1 when NVML cannot tell
};

struct CpuLoad {
  std::string host;
  int cpus = 0;
  double windowSeconds = 0;
  double load1 = 0;             ///< /proc/loadavg, 1 minute
  int runnable = 0;             ///< procs_running at the end of the window
  double stealPct = 0;          ///< share of all CPU time the hypervisor gave to others
  double othersPct = 0;         ///< CPU time of processes outside this job, % of the node's capacity (all CPUs)
  std::vector<ProcessCpu> top;  ///< the busiest of those processes, largest first (up to 3)
  std::vector<ProcessGpu> gpu;  ///< processes outside this job on the node's GPUs, most memory first (up to 3)
  std::string gpuQuery;         ///< why `gpu` could not be asked ("" when NVML answered): no driver, no NVML

  /// Busy enough to slow a pair: others used at least a quarter of the node, or steal took a tenth.
  bool contended() const { return othersPct >= 25 || stealPct >= 10; }
  /// "load 3.1 on 2 CPUs, 2 runnable, other processes 96% of the CPUs, steal 0%: yes(4242) 99%, ...", then
  /// "; on its GPUs: python(777) 30.0 GiB on GPU 0" when other processes hold its GPUs
  std::string describe() const;
};

Json toJson(const CpuLoad& c);
/// @throws UsageError when a field has the wrong type
CpuLoad cpuLoadFromJson(const Json& j);

struct CpuSnapshot {
  double seconds = 0;       ///< steady clock
  uint64_t totalTicks = 0;  ///< all CPUs: user..steal
  uint64_t stealTicks = 0;
  uint64_t idleTicks = 0;  ///< idle + iowait
  int cpus = 0;
  int procsRunning = 0;
  double load1 = 0;
  std::map<int, std::pair<std::string, uint64_t>> processes;  ///< pid -> (comm, utime + stime ticks)
};

/// Parses /proc/stat into `s` (totals, steal, CPU count, run queue). Missing lines leave fields at zero.
void parseProcStat(const std::string& text, CpuSnapshot& s);
/// Parses one /proc/PID/stat line: (comm, utime + stime), or nullopt when it is malformed.
std::optional<std::pair<std::string, uint64_t>> parsePidStat(const std::string& text);

/// Reads the snapshot from procfs under `root` ("/" on a live node).
CpuSnapshot takeCpuSnapshot(const std::filesystem::path& root = "/");

/// What happened between two snapshots. @param jobPids the ranks of this job, left out of "others"
/// @param ticksPerSecond sysconf(_SC_CLK_TCK)
CpuLoad cpuLoadBetween(const CpuSnapshot& before, const CpuSnapshot& after, const std::set<int>& jobPids,
                       double ticksPerSecond);

/// Fills `c.gpu` from NVML's compute processes: those of this job (`jobPids`) left out, names read from
/// `procRoot`/proc/PID/comm, most memory first, up to 3.
void addGpuProcesses(CpuLoad& c, const std::vector<GpuProcess>& processes, const std::set<int>& jobPids,
                     const std::filesystem::path& procRoot);

}  // namespace pf::check
