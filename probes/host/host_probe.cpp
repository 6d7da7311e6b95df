// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// host: CPU model and sockets, NUMA nodes, kernel, transparent huge pages, memory; the limits that break NCCL (memlock
// for RDMA registration, open files, an unlimited stack), /dev/shm size and free space, and systemd's RemoveIPC.
// Thresholds follow the NCCL troubleshooting guide: memlock unlimited where RDMA devices exist, /dev/shm far
// above Docker's 64 MB default, stack not unlimited (glibc then gives NCCL's threads 2 MB; NCCL < 2.28 crashes).
#include <fmt/format.h>

#include <cctype>
#include <set>
#include <sstream>

#include "host/host_limits.hpp"
#include "pf/json_field.hpp"
#include "probe.hpp"
#include "probe_util.hpp"

namespace pf::probes {
namespace {

constexpr long long kMiB = 1LL << 20;
constexpr long long kShmWarnBytes = 1024 * kMiB;  // Docker's 64 MB default is the classic failure
constexpr long long kShmFailBytes = 512 * kMiB;   // with several GPUs NCCL's SHM transport will not fit
constexpr long long kOpenFilesWarn = 8192;        // NCCL opens sockets per peer and per channel

std::string mib(long long bytes) { return fmt::format("{} MiB", bytes / kMiB); }

/// "key : value" lines of /proc/cpuinfo.
void readCpu(const SystemView& sys, Result& r) {
  auto text = sys.read("/proc/cpuinfo");
  std::string model;
  std::set<std::string> sockets;
  int logical = 0;
  if (text) {
    std::istringstream in(*text);
    std::string line;
    while (std::getline(in, line)) {
      auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      std::string k = trim(line.substr(0, colon)), v = trim(line.substr(colon + 1));
      if (k == "processor") ++logical;
      if (k == "model name" && model.empty()) model = v;
      if (k == "physical id") sockets.insert(v);
    }
  }
  r.params["cpu_model"] = jsonOrNull(model);
  r.metrics["cpu_logical"] = logical;
  // Sockets from the kernel's CPU topology when present (every architecture has it; /proc/cpuinfo's
  // "physical id" is x86-only), else from cpuinfo.
  std::set<std::string> packages;
  for (const auto& cpu : sys.list("/sys/devices/system/cpu"))
    if (cpu.size() > 3 && cpu.rfind("cpu", 0) == 0 && std::isdigit(static_cast<unsigned char>(cpu[3])))
      if (auto id = sys.read("/sys/devices/system/cpu/" + cpu + "/topology/physical_package_id")) packages.insert(*id);
  if (!packages.empty()) sockets = packages;
  r.metrics["cpu_sockets"] = sockets.empty() ? Json() : Json(static_cast<int>(sockets.size()));
  addEvidence(r, "cpu model", model, "/proc/cpuinfo");
  int numa = 0;
  for (const auto& n : sys.list("/sys/devices/system/node"))
    if (n.rfind("node", 0) == 0 && n.size() > 4 && std::isdigit(static_cast<unsigned char>(n[4]))) ++numa;
  r.metrics["numa_nodes"] = numa > 0 ? Json(numa) : Json();
  addEvidence(r, "NUMA nodes", numa, "/sys/devices/system/node");
}

void readMemory(const SystemView& sys, Result& r) {
  auto text = sys.read("/proc/meminfo");
  if (!text) return;
  std::istringstream in(*text);
  std::string key, unit;
  long long kb = 0;
  while (in >> key >> kb) {
    std::getline(in, unit);
    if (key == "MemTotal:") r.metrics["mem_total_bytes"] = kb * 1024;
    if (key == "MemAvailable:") r.metrics["mem_available_bytes"] = kb * 1024;
  }
  addEvidence(r, "MemTotal", r.metrics.value("mem_total_bytes", Json()), "/proc/meminfo");
}

std::string numaText(const Result& r) {
  const Json& n = r.metrics.contains("numa_nodes") ? r.metrics["numa_nodes"] : Json();
  return n.is_number() ? n.dump() : "?";
}

/// The kernel's transparent huge page mode: the bracketed word of "always [madvise] never". Recorded, not judged:
/// host-buffer results depend on it (Open MPI's 16 MiB shared-memory all-reduce took 23-40% longer with 4 KiB pages
/// than with `always` on a 2-vCPU VM, docs/performance.md), so two documents are comparable only with it.
void readHugePages(const SystemView& sys, Result& r) {
  const std::string source = "/sys/kernel/mm/transparent_hugepage/enabled";
  auto text = sys.read(source);
  const std::size_t open = text ? text->find('[') : std::string::npos;
  const std::size_t close = open == std::string::npos ? open : text->find(']', open);
  r.params["transparent_hugepages"] =
      close == std::string::npos ? Json() : Json(text->substr(open + 1, close - open - 1));
  addEvidence(r, "transparent huge pages", r.params["transparent_hugepages"], source);
}

bool hasRdma(const SystemView& sys) { return !sys.list("/sys/class/infiniband").empty(); }

int nvidiaGpus(const SystemView& sys) { return static_cast<int>(sys.list("/proc/driver/nvidia/gpus").size()); }

void checkLimits(const SystemView& sys, Result& r, Findings& f) {
  Limit memlock = readLimit(sys, "Max locked memory");
  Limit files = readLimit(sys, "Max open files");
  Limit stack = readLimit(sys, "Max stack size");
  if (!memlock.found) {
    addEvidence(r, "limits", nullptr, "/proc/self/limits not readable");
    return;
  }
  r.params["limits"] = {{"memlock_soft_bytes", memlock.soft ? Json(*memlock.soft) : Json("unlimited")},
                        {"nofile_soft", files.soft ? Json(*files.soft) : Json("unlimited")},
                        {"stack_soft_bytes", stack.soft ? Json(*stack.soft) : Json("unlimited")}};
  addEvidence(r, "memlock soft/hard", limitText(memlock.soft) + "/" + limitText(memlock.hard), "/proc/self/limits");
  addEvidence(r, "open files soft/hard", limitText(files.soft) + "/" + limitText(files.hard), "/proc/self/limits");
  addEvidence(r, "stack soft", limitText(stack.soft), "/proc/self/limits");
  const bool rdma = hasRdma(sys);
  if (memlock.soft && rdma)
    f.add(Status::kFail,
          fmt::format("memlock is limited to {} bytes on a node with RDMA devices: ibv_reg_mr / ibv_create_qp fail",
                      *memlock.soft),
          "set memlock unlimited: `* - memlock unlimited` in /etc/security/limits.conf, LimitMEMLOCK=infinity "
          "for slurmd/containerd, or docker run --ulimit memlock=-1");
  if (files.soft && *files.soft < kOpenFilesWarn)
    f.add(Status::kWarn, fmt::format("open files limited to {} (NCCL opens sockets per peer and channel)", *files.soft),
          fmt::format("raise it: ulimit -n {} (hard limit {}), or nofile in /etc/security/limits.conf",
                      files.hard ? *files.hard : 1048576, limitText(files.hard)));
  if (!stack.soft)
    f.add(Status::kWarn,
          "stack size is unlimited: glibc then gives NCCL's threads only 2 MB and graph search can crash",
          "ulimit -s 8192 before starting the job (NCCL 2.28 and later size their own thread stacks)");
}

void checkShm(const SystemView& sys, Result& r, Findings& f) {
  ShmInfo shm = readShm(sys);
  if (!shm.mounted) {
    f.add(Status::kWarn, "/dev/shm is not mounted: NCCL's shared-memory transport cannot work",
          "mount a tmpfs on /dev/shm (docker run --shm-size=8g or --ipc=host)");
    return;
  }
  r.metrics["shm_size_bytes"] = shm.sizeBytes ? Json(*shm.sizeBytes) : Json();
  r.metrics["shm_free_bytes"] = shm.freeBytes ? Json(*shm.freeBytes) : Json();
  addEvidence(r, "/dev/shm size", r.metrics["shm_size_bytes"], shm.source);
  const int gpus = nvidiaGpus(sys);
  const std::string fix =
      "give /dev/shm more room: docker run --shm-size=8g (or --ipc=host), Kubernetes an "
      "emptyDir with medium: Memory on /dev/shm";
  if (shm.sizeBytes && *shm.sizeBytes < kShmFailBytes && gpus >= 2)
    f.add(Status::kFail,
          fmt::format("/dev/shm is {} with {} GPUs: NCCL's SHM transport fails (Bus error)", mib(*shm.sizeBytes), gpus),
          fix);
  else if (shm.sizeBytes && *shm.sizeBytes < kShmWarnBytes)
    f.add(Status::kWarn, fmt::format("/dev/shm is only {} (Docker's default is 64 MiB)", mib(*shm.sizeBytes)), fix);
  else if (shm.freeBytes && *shm.freeBytes < kShmFailBytes / 2)
    f.add(Status::kWarn, fmt::format("/dev/shm has only {} free", mib(*shm.freeBytes)),
          "remove stale files from /dev/shm (left by killed jobs) or enlarge it");
}

/// RemoveIPC=yes deletes a user's shared memory when their last session ends, under a running job; it
/// spares system users (uid < 1000) such as root.
void checkRemoveIpc(const SystemView& sys, Result& r, Findings& f) {
  std::string source;
  auto removeIpc = readRemoveIpc(sys, source);
  if (!removeIpc) return;
  addEvidence(r, "RemoveIPC", *removeIpc ? "yes" : "no", source);
  long long uid = -1;
  if (auto status = sys.read("/proc/self/status")) {
    auto pos = status->find("Uid:");
    if (pos != std::string::npos) uid = parseInt(splitList(status->substr(pos + 4, 32), " \t\n").at(0)).value_or(-1);
  }
  if (*removeIpc && uid >= 1000)
    f.add(Status::kWarn,
          fmt::format("systemd-logind RemoveIPC=yes ({}) removes this user's shared memory when they log out", source),
          "set RemoveIPC=no in /etc/systemd/logind.conf and restart systemd-logind");
}

class HostProbe final : public Probe {
 public:
  std::string description() const override {
    return "CPU, NUMA, kernel, memory; memlock, open files, stack limits; /dev/shm; systemd RemoveIPC";
  }

  Result run(const SystemView& sys, const ProbeOptions&) const override {
    Result r;
    Findings f;
    readCpu(sys, r);
    readMemory(sys, r);
    auto kernel = sys.read("/proc/sys/kernel/osrelease");
    r.params["kernel"] = kernel ? Json(*kernel) : Json();
    addEvidence(r, "kernel", r.params["kernel"], "/proc/sys/kernel/osrelease");
    readHugePages(sys, r);
    checkLimits(sys, r, f);
    checkShm(sys, r, f);
    checkRemoveIpc(sys, r, f);
    std::string mem = r.metrics.contains("mem_total_bytes")
                          ? fmt::format("{:.1f} GiB", r.metrics["mem_total_bytes"].get<double>() / (1LL << 30))
                          : "memory unknown";
    f.apply(r, fmt::format("{}, {} CPUs, {} NUMA node(s), kernel {}, {}; no limit, /dev/shm or RemoveIPC problem found",
                           r.params.value("cpu_model", Json("unknown CPU")).is_null()
                               ? "unknown CPU"
                               : r.params["cpu_model"].get<std::string>(),
                           r.metrics.value("cpu_logical", 0), numaText(r), kernel.value_or("unknown"), mem));
    return r;
  }
};

PF_REGISTER_PROBE(HostProbe, "host");

}  // namespace
}  // namespace pf::probes
