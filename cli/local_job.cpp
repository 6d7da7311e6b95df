// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "local_job.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
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
  const pid_t child = fork();
  if (child == 0) {
    sigprocmask(SIG_SETMASK, &old, nullptr);
    execv(cargs[0], cargs.data());
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
  return endOf(status, forwarded, command, timeoutSeconds);
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
