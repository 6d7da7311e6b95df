// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// runBounded (gpu/dcgm_diag.hpp): a child with its stdout on a pipe, read until it closes or the time is up; then
// the child's process group is killed, so a dcgmi that hangs on a wedged GPU cannot hold the gate.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "gpu/dcgm_diag.hpp"

namespace pf::probes {

CommandRun runBounded(const std::vector<std::string>& argv, int timeoutSeconds) {
  CommandRun run;
  int fds[2];
  if (argv.empty() || ::pipe2(fds, O_CLOEXEC) != 0) {
    run.error = argv.empty() ? "no command" : std::strerror(errno);
    return run;
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    run.error = std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return run;
  }
  if (pid == 0) {  // the child: its own process group (killed whole on timeout), stdout to the pipe
    ::setpgid(0, 0);
    ::dup2(fds[1], STDOUT_FILENO);
    const int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
    ::execvp(args[0], args.data());
    _exit(127);
  }
  ::close(fds[1]);
  run.started = true;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
  char buf[65536];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      run.timedOut = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (run.out.size() < (std::size_t{64} << 20)) run.out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  // The pipe closed: the child has ended or closed its stdout; it still gets only what is left of the time.
  int status = 0;
  for (;;) {
    if (!run.timedOut && std::chrono::steady_clock::now() >= deadline) run.timedOut = true;
    if (run.timedOut) ::kill(-pid, SIGKILL);
    const pid_t done = ::waitpid(pid, &status, run.timedOut ? 0 : WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) break;
    if (done == 0) ::usleep(20000);
  }
  run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (!run.timedOut && run.exitCode == 127 && run.out.empty()) run.error = "could not be started (exec failed)";
  return run;
}

}  // namespace pf::probes
