// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pytorch_runner.hpp"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "efficiency.hpp"
#include "pf/error.hpp"

namespace pf::scaling {
namespace fs = std::filesystem;
namespace {

constexpr const char* kResultTag = "PF_DDP_RESULT ";

// Single-quoted for /bin/sh (an embedded ' becomes '\'').
std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `cmd` through /bin/sh and returns its stdout; `rc` gets the exit status (-1 when it could not start).
std::string capture(const std::string& cmd, int& rc) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    rc = -1;
    return out;
  }
  char buf[4096];
  std::size_t got;
  while ((got = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, got);
  const int st = pclose(p);
  rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

std::string tail(const std::string& s, std::size_t chars) { return s.size() <= chars ? s : s.substr(s.size() - chars); }

std::string readFile(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path exeDir() {
  std::error_code ec;
  auto p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : p.parent_path();
}

}  // namespace

std::string findTorchPython(const std::vector<std::string>& candidates) {
  // `python3` as the shell finds it first (a venv or conda the user activated), then Debian's interpreter.
  std::vector<std::string> tried;
  for (const auto& py : candidates) {
    int rc = 0;
    capture(fmt::format("{} -c 'import torch' >/dev/null 2>&1", py == "python3" ? py : shellQuote(py)), rc);
    if (rc == 0) return py;
    tried.push_back(fmt::format("`{} -c 'import torch'` (exit {})", py, rc));
  }
  std::string list;
  for (const auto& t : tried) list += (list.empty() ? "" : ", ") + t;
  throw UsageError(fmt::format(
      "--framework pytorch needs a python with torch; tried {}. Install it (apt-get install python3-torch, for "
      "/usr/bin/python3) or activate an environment whose python3 has torch, or use --framework native",
      list));
}

std::string findDdpScript() {
  std::vector<fs::path> places;
#ifdef PF_DDP_SCRIPT
  places.emplace_back(PF_DDP_SCRIPT);
#endif
  const fs::path dir = exeDir();
  if (!dir.empty()) {
    places.push_back(dir / "ddp_bench.py");
    places.push_back(dir.parent_path() / "share" / "preflight" / "ddp_bench.py");
  }
  std::string list;
  for (const auto& p : places) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return p.string();
    list += (list.empty() ? "" : ", ") + p.string();
  }
  throw UsageError(
      fmt::format("--framework pytorch: ddp_bench.py not found (looked at {}); copy "
                  "scaling/pytorch/ddp_bench.py from the source tree to one of them",
                  list));
}

Json parseDdpOutput(const std::string& output) {
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line)) {
    const auto at = line.find(kResultTag);
    if (at == std::string::npos) continue;
    try {
      return Json::parse(line.substr(at + std::char_traits<char>::length(kResultTag)));
    } catch (const Json::parse_error&) {
      continue;  // a torn line (interleaved output): keep looking
    }
  }
  return Json();
}

Json runPytorchWorldSize(const ScaleOptions& opt, int n, const std::string& python, const std::string& script,
                         int threadsPerRank, const std::string& device) {
  TrainerSpec spec = opt.trainer;
  const int smallest = *std::min_element(opt.ranks.begin(), opt.ranks.end());
  if (opt.strong) spec.batchPerRank = opt.trainer.batchPerRank * smallest / n;
  // torchrun on Python 3.11 as Debian packages it fails without --redirects/--tee/--log_dir
  // (docs/scale.md); --standalone picks a free rendezvous port, so runs do not collide.
  char tmpl[] = "/tmp/pf_ddp_XXXXXX";
  const char* made = mkdtemp(tmpl);
  if (!made) throw SystemError("--framework pytorch: cannot create a log directory under /tmp");
  const fs::path logDir(made);
  const auto& m = spec.model;
  const std::string cmd = fmt::format(
      "OMP_NUM_THREADS={t} OPENBLAS_NUM_THREADS={t} {py} -m torch.distributed.run --standalone --nproc_per_node {n} "
      "--redirects 1 --tee 1 --log_dir {log} {script} --input {in} --width {w} --depth {d} --output {o} --batch {b} "
      "--steps {steps} --warmup {warm} --reps {reps} --bucket-cap-mb {cap} --optimizer {optim} --lr {lr} "
      "--seed {seed} --tolerance {tol} --device {dev} 2>{err}",
      fmt::arg("t", threadsPerRank), fmt::arg("py", python == "python3" ? python : shellQuote(python)),
      fmt::arg("n", n), fmt::arg("log", shellQuote((logDir / "ranks").string())),
      fmt::arg("script", shellQuote(script)), fmt::arg("in", m.input), fmt::arg("w", m.width), fmt::arg("d", m.depth),
      fmt::arg("o", m.output), fmt::arg("b", spec.batchPerRank), fmt::arg("steps", opt.steps),
      fmt::arg("warm", opt.warmup), fmt::arg("reps", opt.reps),
      fmt::arg("cap", static_cast<double>(spec.bucketCapBytes) / (1024.0 * 1024.0)),
      fmt::arg("optim", shellQuote(spec.optimizer.kind)), fmt::arg("lr", spec.optimizer.lr), fmt::arg("seed", m.seed),
      fmt::arg("tol", opt.equalityTolerance), fmt::arg("dev", shellQuote(device)),
      fmt::arg("err", shellQuote((logDir / "launcher.err").string())));
  int rc = 0;
  const std::string out = capture(cmd, rc);
  const std::string err = readFile(logDir / "launcher.err");
  std::error_code ec;
  fs::remove_all(logDir, ec);
  Json r = parseDdpOutput(out);
  if (rc != 0 || !r.is_object())
    throw RuntimeFailure(fmt::format("--framework pytorch at {} ranks: torchrun exited {} {}; command: {}\n{}", n, rc,
                                     r.is_object() ? "" : "without a PF_DDP_RESULT line", cmd, tail(out + err, 3000)));
  // The script's own fields are already a row; keep the native row's field names and add ours.
  r["ranks"] = n;
  r["framework"] = "pytorch";
  r["throughput_sps"] = toJson(spreadOf(r.at("throughput_reps_sps").get<std::vector<double>>()));
  r["threads_per_rank"] = threadsPerRank;
  return r;
}

}  // namespace pf::scaling
