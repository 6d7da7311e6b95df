// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "run_guards.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <sstream>

#include "pf/environment.hpp"
#include "pf/error.hpp"

namespace pf::cli {
namespace {

// The write end of the pipe that wakes SignalGuard's thread; -1 when no guard is armed. A signal handler
// reaches nothing else, so this one value is process-wide (set before the handler is installed, so the
// handler only ever reads an initialised static).
std::atomic<int>& wakeFd() {
  static std::atomic<int> fd{-1};
  return fd;
}

void onStopSignal(int sig) {
  const int saved = errno;
  const int fd = wakeFd().load();
  const unsigned char byte = static_cast<unsigned char>(sig);
  if (fd >= 0) [[maybe_unused]]
    ssize_t n = ::write(fd, &byte, 1);  // async-signal-safe; a full pipe loses nothing
  errno = saved;
}

std::string partialNote(const std::vector<std::string>& files) {
  if (files.empty()) return "";
  return fmt::format("; the document so far is in {} (marked partial)", fmt::join(files, ", "));
}

// The rank a launcher gave a process, from its environment: Open MPI, PMIx, MPICH/Intel MPI (PMI), Slurm.
std::string rankOf(const std::filesystem::path& proc) {
  std::ifstream in(proc / "environ", std::ios::binary);
  std::string entry;
  while (std::getline(in, entry, '\0')) {
    for (const char* key : {"OMPI_COMM_WORLD_RANK=", "PMIX_RANK=", "PMI_RANK=", "SLURM_PROCID="})
      if (entry.rfind(key, 0) == 0) return entry.substr(std::strlen(key));
  }
  return "?";
}

}  // namespace

std::string stopReason(int sig) {
  switch (sig) {
    case SIGINT: return "interrupted (SIGINT)";
    case SIGTERM: return "terminated (SIGTERM)";
    case SIGHUP: return "hung up (SIGHUP)";
    default: return fmt::format("stopped by signal {} ({})", sig, strsignal(sig));
  }
}

void restoreDefaultSignals() {
  // AddressSanitizer catches the crash signals on purpose (its report names the bad access): leave those to it.
  // GCC says so with __SANITIZE_ADDRESS__, Clang with __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define PF_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PF_ASAN 1
#endif
#endif
#ifdef PF_ASAN
  const std::initializer_list<int> sigs = {SIGINT, SIGTERM};
#else
  const std::initializer_list<int> sigs = {SIGINT, SIGTERM, SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE};
#endif
  for (int sig : sigs) {
    struct sigaction cur = {};
    if (sigaction(sig, nullptr, &cur) != 0) continue;
    const bool caught = (cur.sa_flags & SA_SIGINFO) || (cur.sa_handler != SIG_DFL && cur.sa_handler != SIG_IGN);
    if (caught) ::signal(sig, SIG_DFL);
  }
}

SignalGuard::SignalGuard(const std::string& command, int rank, const CommonOptions& common) {
  if (::pipe2(pipe_, O_CLOEXEC) != 0) return;  // no guard: the signals keep their default action
  wakeFd() = pipe_[1];
  struct sigaction sa = {};
  sa.sa_handler = onStopSignal;
  sa.sa_flags = SA_RESTART;  // an MPI or file call the signal lands in goes on; the thread does the work
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &oldInt_);
  sigaction(SIGTERM, &sa, &oldTerm_);
  thread_ = std::thread([this, command, rank, &common] { wait(command, rank, common); });
}

SignalGuard::~SignalGuard() {
  if (!thread_.joinable()) return;
  sigaction(SIGINT, &oldInt_, nullptr);
  sigaction(SIGTERM, &oldTerm_, nullptr);
  wakeFd() = -1;
  ::close(pipe_[1]);  // end of file: the thread returns without writing anything
  thread_.join();
  ::close(pipe_[0]);
}

void SignalGuard::wait(const std::string& command, int rank, const CommonOptions& common) {
  unsigned char byte = 0;
  ssize_t n;
  while ((n = ::read(pipe_[0], &byte, 1)) < 0 && errno == EINTR) {
  }
  if (n != 1) return;
  const int sig = byte;
  const std::string why = stopReason(sig);
  const std::vector<std::string> files = common.writePartial(why, static_cast<ExitCode>(128 + sig));
  // Every rank gets mpirun's SIGTERM: rank 0 speaks (and a rank that wrote a file), not all N.
  if (rank == 0 || !files.empty())
    std::cerr << fmt::format("preflight {}: rank {} on {}: {}{}", command, rank, hostName(), why, partialNote(files))
              << std::endl;
  std::_Exit(128 + sig);
}

Watchdog::Watchdog(double seconds, const std::string& command, const CommonOptions& common,
                   const LauncherEnv& launcher) {
  if (seconds <= 0) return;
  thread_ = std::thread([this, seconds, command, &common, launcher] {
    std::unique_lock<std::mutex> lock(mutex_);
    if (cv_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return done_; })) return;
    expire(seconds, command, common, launcher);
  });
}

void Watchdog::expire(double seconds, const std::string& command, const CommonOptions& common,
                      const LauncherEnv& launcher) {
  Bootstrap* boot = boot_;
  const int rank = boot ? boot->rank() : launcher.rank;
  const int size = boot ? boot->size() : launcher.world_size;
  const std::string why = fmt::format("timed out after {:g} s (--timeout)", seconds);
  const std::vector<std::string> files = common.writePartial(why, ExitCode::kTimeout);
  std::string stuck;
  if (size > 1) {
    const std::vector<std::string> stopped = stoppedPeers();
    stuck = stopped.empty() ? fmt::format("; no other rank on {} is stopped", hostName())
                            : fmt::format("; stuck: {} on {} is stopped", fmt::join(stopped, ", "), hostName());
  }
  std::cerr << fmt::format("preflight {}: rank {} on {}: {}{}{}", command, rank, hostName(), why,
                           boot ? "" : " while joining the other ranks", stuck)
            << partialNote(files) << std::endl;
  if (boot) boot->abortAll(static_cast<int>(ExitCode::kTimeout));
  std::_Exit(static_cast<int>(ExitCode::kTimeout));
}

Watchdog::~Watchdog() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

std::vector<std::string> stoppedPeers() {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator("/proc", ec)) {
    const std::string pid = e.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos || std::stoi(pid) == getpid()) continue;
    std::ifstream in(e.path() / "stat");
    std::string line;
    if (!std::getline(in, line)) continue;
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 1));
    char state = 0;
    int ppid = 0;
    rest >> state >> ppid;
    if (ppid == getppid() && (state == 'T' || state == 't'))
      out.push_back(fmt::format("rank {} (pid {})", rankOf(e.path()), pid));
  }
  return out;
}

}  // namespace pf::cli
