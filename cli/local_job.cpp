// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "local_job.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>

#include "pf/error.hpp"
#include "pf/report_io.hpp"
#include "run_guards.hpp"

namespace pf::cli {
namespace {

// After a forwarded signal mpirun stops the ranks in a few seconds (SIGCONT, SIGTERM, SIGKILL); one that has
// not ended this long after is itself hung, and a stopped command must not hang.
constexpr int kGraceSeconds = 10;

std::string signalName(int sig) { return fmt::format("signal {} ({})", sig, strsignal(sig)); }

// What the launcher tells the job through its environment (mpirun passes it on to the ranks it starts): the pid
// mpirun runs as, so a rank can tell its parent died before it could ask to follow it; and a file each rank
// appends a byte to once MPI started, so the launcher can tell a job that never started from a failed check.
constexpr const char* kMpirunPidVar = "PF_JOB_MPIRUN_PID";
constexpr const char* kStartedFileVar = "PF_JOB_STARTED_FILE";

// The interfaces that are up, for the message of a job that did not start: Open MPI needs one, even for ranks
// on one machine (with none, not even loopback, mpirun ends at once: "unable to find network interfaces").
std::vector<std::string> interfacesUp() {
  std::vector<std::string> up;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return up;
  for (ifaddrs* a = list; a; a = a->ifa_next)
    if ((a->ifa_flags & IFF_UP) && std::find(up.begin(), up.end(), a->ifa_name) == up.end())
      up.emplace_back(a->ifa_name);
  freeifaddrs(list);
  return up;
}

// mpirun, or the ranks it started, ended before any rank got through MPI's start: Open MPI printed why (its
// text is above ours); say it in Preflight's words, with what to do, as a run-time failure (exit 3), never as a
// failed check (mpirun's exit 1).
JobEnd startupFailure(int status, const std::string& command) {
  const std::string how = WIFSIGNALED(status) ? "ended on " + signalName(WTERMSIG(status))
                                              : fmt::format("exited with status {}", WEXITSTATUS(status));
  std::string why = fmt::format("MPI did not start: mpirun {} before any rank got through MPI initialisation", how);
  std::string todo;
  if (interfacesUp().empty()) {
    why += "; no network interface is up on this machine, not even loopback";
    todo =
        "Open MPI needs one even for ranks on one machine: bring loopback up (ip link set lo up) or run where a "
        "network interface is up";
  } else {
    todo = fmt::format("Open MPI's message above says why; `{} -np 2{} hostname` shows whether MPI starts at all",
                       PF_MPIEXEC, geteuid() == 0 ? " --allow-run-as-root" : "");
  }
  std::cerr << fmt::format("preflight {}: {}. {} (exit 3)", command, why, todo) << std::endl;
  return {static_cast<int>(ExitCode::kRuntime), why, true, true};
}

// A file nothing has written to yet, named in the job's environment; removed when the job is over.
struct StartedFile {
  std::string path;
  StartedFile() {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = fmt::format("{}/preflight-started.XXXXXX", dir && *dir ? dir : "/tmp");
    const int fd = mkstemp(pattern.data());
    if (fd < 0) return;  // the job runs the same; a start-up failure then reads as mpirun's exit code
    ::close(fd);
    path = pattern;
  }
  ~StartedFile() {
    if (!path.empty()) ::unlink(path.c_str());
  }
  bool anyRankStarted() const {
    struct stat st = {};
    return path.empty() || (::stat(path.c_str(), &st) == 0 && st.st_size > 0);
  }
};

// Writes the decimal digits of `n` after `prefix` into `out` without allocating: for the child between fork and
// exec, where only async-signal-safe calls are allowed.
void formatPid(char* out, std::size_t size, const char* prefix, long n) {
  std::size_t i = 0;
  while (*prefix && i + 1 < size) out[i++] = *prefix++;
  char digits[24];
  int d = 0;
  do digits[d++] = static_cast<char>('0' + n % 10);
  while ((n /= 10) > 0 && d < 24);
  while (d > 0 && i + 1 < size) out[i++] = digits[--d];
  out[i] = '\0';
}

std::string timeoutReason(double seconds) { return fmt::format("timed out after {:g} s (--timeout)", seconds); }

// What the job's end means for this process's exit code, and for the document.
JobEnd endOf(int status, int forwarded, const std::string& command, double timeoutSeconds) {
  if (forwarded) return {128 + forwarded, stopReason(forwarded), true};
  if (WIFSIGNALED(status)) {
    std::cerr << fmt::format("preflight {}: mpirun ended on {}", command, signalName(WTERMSIG(status))) << std::endl;
    return {static_cast<int>(ExitCode::kRuntime), "mpirun ended on " + signalName(WTERMSIG(status)), true};
  }
  const int code = WEXITSTATUS(status);
  // A rank's watchdog ended the job, maybe not rank 0's: rank 0 then saw only mpirun's SIGTERM.
  if (code == static_cast<int>(ExitCode::kTimeout)) return {code, timeoutReason(timeoutSeconds)};
  // Another rank's error took the job down (abortAll); its message, with its rank and host, is on stderr.
  if (code == static_cast<int>(ExitCode::kRuntime)) return {code, "a rank failed at run time (exit 3): see stderr"};
  if (code < static_cast<int>(ExitCode::kRuntime)) return {code, ""};
  std::string why = code > 128 ? fmt::format("a rank died on {}", signalName(code - 128))
                               : fmt::format("mpirun exited with status {}", code);
  if (code > 128)
    std::cerr << fmt::format(
                     "preflight {}: a rank died on {} and mpirun stopped the others; mpirun's message above names "
                     "the rank and its node (exit 3)",
                     command, signalName(code - 128))
              << std::endl;
  else
    std::cerr << fmt::format("preflight {}: {} (exit 3)", command, why) << std::endl;
  return {static_cast<int>(ExitCode::kRuntime), why, code > 128};
}

}  // namespace

JobEnd runLocalJob(const std::vector<std::string>& args, const std::string& command, double timeoutSeconds) {
  // Signals are taken with sigtimedwait, not a handler: SIGCHLD wakes the loop the moment mpirun ends.
  sigset_t wanted, old;
  sigemptyset(&wanted);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGCHLD}) sigaddset(&wanted, s);
  sigprocmask(SIG_BLOCK, &wanted, &old);
  std::vector<char*> cargs;
  for (const std::string& a : args) cargs.push_back(const_cast<char*>(a.c_str()));
  cargs.push_back(nullptr);
  // The job's environment, made before fork: the child may only make async-signal-safe calls. Its first slot
  // takes mpirun's pid, which only the child knows (exec keeps it).
  const StartedFile started;
  std::vector<std::string> envStore;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "PF_JOB_", 7) != 0) envStore.emplace_back(*e);
  if (!started.path.empty()) envStore.push_back(fmt::format("{}={}", kStartedFileVar, started.path));
  char pidEntry[64] = {};
  std::vector<char*> cenv = {pidEntry};
  for (std::string& e : envStore) cenv.push_back(e.data());
  cenv.push_back(nullptr);
  const pid_t launcher = getpid();
  const pid_t child = fork();
  if (child == 0) {
    // The launcher owns its job: killed by any signal, SIGKILL too, its mpirun gets SIGTERM and stops the ranks
    // (each also follows mpirun: tieRankToParent). Same process group as the launcher, so a terminal's Ctrl-C
    // still reaches the whole job and mpirun can read stdin from a terminal without being stopped (SIGTTIN).
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != launcher) _exit(static_cast<int>(ExitCode::kRuntime));  // it died before prctl took
    formatPid(pidEntry, sizeof pidEntry, "PF_JOB_MPIRUN_PID=", static_cast<long>(getpid()));
    sigprocmask(SIG_SETMASK, &old, nullptr);
    execve(cargs[0], cargs.data(), cenv.data());
    std::cerr << fmt::format("preflight {}: cannot run {}: {}", command, cargs[0], std::strerror(errno)) << std::endl;
    _exit(static_cast<int>(ExitCode::kRuntime));
  }
  if (child < 0) throw SystemError(fmt::format("cannot start {}: {}", args[0], std::strerror(errno)));

  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  int forwarded = 0, status = 0;
  bool timedOut = false;
  std::optional<Clock::time_point> killAt;
  for (;;) {
    if (waitpid(child, &status, WNOHANG) == child) break;
    const auto now = Clock::now();
    if (killAt && now > *killAt) {
      kill(child, SIGKILL);  // the next waitpid reaps it
      killAt.reset();
    }
    // The backstop of --timeout: the ranks' watchdogs end the job at the limit, unless none can run (every
    // rank stopped, or stuck before its watchdog started).
    if (timeoutSeconds > 0 && !timedOut && !forwarded &&
        now - start > std::chrono::duration<double>(timeoutSeconds + kGraceSeconds)) {
      timedOut = true;
      std::cerr << fmt::format("preflight {}: the ranks had not ended {} s after --timeout {:g}: stopping mpirun",
                               command, kGraceSeconds, timeoutSeconds)
                << std::endl;
      kill(child, SIGTERM);
      killAt = now + std::chrono::seconds(kGraceSeconds);
    }
    timespec tick{0, 200'000'000};
    siginfo_t info = {};
    const int sig = sigtimedwait(&wanted, &info, &tick);
    if (sig <= 0 || sig == SIGCHLD) continue;
    // Once only: mpirun takes repeated SIGINTs as "abort without cleanup". Nor when the terminal sent it
    // (Ctrl-C, SI_KERNEL): it went to mpirun and the ranks in the same process group already.
    if (!forwarded) {
      forwarded = sig;
      if (info.si_code != SI_KERNEL) kill(child, sig);
      killAt = Clock::now() + std::chrono::seconds(kGraceSeconds);
    }
  }
  sigprocmask(SIG_SETMASK, &old, nullptr);
  if (timedOut && !forwarded) return {static_cast<int>(ExitCode::kTimeout), timeoutReason(timeoutSeconds)};
  // A job that never started: a usage error (2) stands, anything else is MPI's start that failed.
  const bool usage = WIFEXITED(status) && WEXITSTATUS(status) == static_cast<int>(ExitCode::kUsage);
  const bool passed = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  // mpirun's 128 + N: a rank died on signal N, perhaps still inside MPI's start (killed as soon as it ran). That
  // rank's death is the news, said by endOf(), not a start-up failure of MPI's.
  const bool rankSignalled = WIFEXITED(status) && WEXITSTATUS(status) > 128;
  if (!forwarded && !usage && !passed && !rankSignalled && !started.anyRankStarted())
    return startupFailure(status, command);
  return endOf(status, forwarded, command, timeoutSeconds);
}

void tieRankToParent() {
  const pid_t parent = getppid();
  // SIGTERM, not SIGKILL: the rank's SignalGuard then leaves its document so far, as for mpirun's own SIGTERM.
  if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0) return;
  long expected = 0;
  if (const char* v = std::getenv(kMpirunPidVar)) expected = std::strtol(v, nullptr, 10);
  // A parent that died before prctl took: reparented (to init or a subreaper) by now, or already then, when the
  // mpirun the launcher ran is gone. (Parent pid 1 alone says nothing: mpirun may be a container's first process.)
  const bool mpirunGone = expected > 0 && ::kill(static_cast<pid_t>(expected), 0) != 0 && errno == ESRCH;
  const bool orphaned = getppid() != parent || mpirunGone;
  if (orphaned) {
    std::cerr << fmt::format("preflight: rank started by pid {} that is gone (mpirun ended): exiting", parent)
              << std::endl;
    std::_Exit(static_cast<int>(ExitCode::kRuntime));
  }
}

void markRankStarted() {
  const char* path = std::getenv(kStartedFileVar);
  if (!path || !*path) return;
  const int fd = ::open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return;
  [[maybe_unused]] ssize_t n = ::write(fd, "1", 1);
  ::close(fd);
}

std::vector<DocumentStamp> stampDocuments(const std::vector<std::string>& paths) {
  std::vector<DocumentStamp> stamps;
  for (const std::string& path : paths) {
    std::error_code ec;
    const auto t = std::filesystem::last_write_time(path, ec);
    stamps.push_back({path, ec ? std::nullopt : std::optional(t)});
  }
  return stamps;
}

std::vector<std::string> amendPartialDocuments(const std::vector<DocumentStamp>& stamps, const JobEnd& end) {
  std::vector<std::string> changed;
  if (end.why.empty()) return changed;
  for (const auto& [path, before] : stamps) {
    std::error_code ec;
    const auto written = std::filesystem::last_write_time(path, ec);
    if (ec || (before && written == *before)) continue;  // none, or an earlier run's
    try {
      Json doc = Json::parse(readTextFile(path));
      Json& extra = doc["context"]["extra"];
      if (!extra.value("partial", false) || (doc.value("exit_code", -1) == end.code && !end.overrides)) continue;
      const bool timeout = end.code == static_cast<int>(ExitCode::kTimeout);
      const std::string was = extra.value("partial_reason", std::string());
      const std::string now = "partial: " + end.why;
      // The result that was running when the job stopped carries the reason as its message.
      for (Json& r : doc["results"])
        if (r.value("message", std::string()) == was && r.value("status", std::string()) != "pass") {
          r["message"] = now;
          r["status"] = timeout ? "timeout" : "error";
        }
      extra["partial_reason"] = now;
      doc["verdict"] = timeout ? "timeout" : "error";
      doc["exit_code"] = end.code;
      writeFileAtomic(path, doc.dump(2) + "\n");
      changed.push_back(path);
    } catch (const std::exception& e) {  // the process is ending with its code either way
      std::cerr << fmt::format("preflight: cannot update the partial document {}: {}", path, e.what()) << std::endl;
    }
  }
  return changed;
}

}  // namespace pf::cli
