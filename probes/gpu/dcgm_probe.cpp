// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// dcgm: DCGM's own diagnostic, `dcgmi diag -r LEVEL -j`, run once per node when asked (`probe --dcgm LEVEL`,
// `check --dcgm LEVEL`), bounded in time (gpu/dcgm_diag.hpp), each failed or warning result a finding with its
// DCGM_FR_* error and remedy. Without dcgmi on PATH it warns and claims no pass. Not run on a GPU node yet: tested
// with a stand-in dcgmi that prints DCGM 4's JSON layout.
#include <fmt/format.h>
#include <unistd.h>

#include "gpu/dcgm_diag.hpp"
#include "pf/json_field.hpp"
#include "probe.hpp"
#include "probe_util.hpp"

namespace pf::probes {
namespace {

std::string dcgmiOnPath(const SystemView& sys, const std::string& name) {
  for (const std::string& dir : splitList(sys.env().get("PATH").value_or(""), ":")) {
    const std::string p = dir + "/" + name;
    if (::access(p.c_str(), X_OK) == 0) return p;
  }
  return "";
}

class DcgmProbe final : public Probe {
 public:
  std::string description() const override {
    return "DCGM's diagnostic (dcgmi diag -r LEVEL), only with --dcgm LEVEL: each failed test a finding with its "
           "DCGM_FR_* remedy";
  }

  Result run(const SystemView& sys, const ProbeOptions& opt) const override {
    Result r;
    r.params["level"] = opt.dcgmLevel;
    r.status = Status::kSkipped;
    if (opt.dcgmLevel == 0) {
      r.message = "not asked: --dcgm LEVEL (1-4) runs DCGM's diagnostic";
      return r;
    }
    if (!sys.isLive()) {
      r.message = "a captured tree cannot run DCGM's diagnostic";
      return r;
    }
    if (!opt.firstOnNode) {
      r.message = "not run on this rank: the node's local rank 0 runs DCGM's diagnostic";
      return r;
    }
    const std::string dcgmi = dcgmiOnPath(sys, "dcgmi");
    addEvidence(r, "dcgmi", jsonOrNull(dcgmi), "PATH");
    if (dcgmi.empty()) {
      r.status = Status::kWarn;
      r.message = "dcgmi is not installed (not on PATH): DCGM's diagnostic was not run";
      r.remedy =
          "install DCGM (the datacenter-gpu-manager package) and start nv-hostengine (systemctl enable --now "
          "nvidia-dcgm), or leave out --dcgm";
      return r;
    }
    const int timeout = dcgmTimeoutSeconds(opt.dcgmLevel);
    const std::string level = std::to_string(opt.dcgmLevel);
    const CommandRun run = runBounded({dcgmi, "diag", "-r", level, "-j"}, timeout);
    r.metrics["dcgmi_exit_code"] = run.exitCode;
    if (!run.started || run.timedOut) {
      r.status = Status::kWarn;
      r.message = run.timedOut
                      ? fmt::format("dcgmi diag -r {} did not finish within {} s and was stopped", level, timeout)
                      : fmt::format("dcgmi could not be started: {}", run.error);
      r.remedy = "run `dcgmi diag -r " + level + "` by hand; a diagnostic that hangs points at a wedged GPU (reset it)";
      return r;
    }
    DcgmDiag diag;
    try {
      diag = parseDcgmDiag(run.out);
    } catch (const std::exception& e) {
      r.status = Status::kWarn;
      r.message =
          fmt::format("dcgmi diag -r {} (exit code {}) gave no diagnostic to read: {}", level, run.exitCode, e.what());
      addEvidence(r, "dcgmi output", run.out.substr(0, 300), "dcgmi diag -j");
      r.remedy = "run `dcgmi diag -r " + level + "` by hand (is nv-hostengine running? systemctl status nvidia-dcgm)";
      return r;
    }
    if (!diag.version.empty()) addEvidence(r, "DCGM version", diag.version, "dcgmi diag -j");
    r.metrics["results"] = diag.results;
    r.metrics["passed"] = diag.passed;
    Findings f;
    if (!diag.runtimeError.empty())
      f.add(Status::kWarn, fmt::format("DCGM's diagnostic could not run: {}", diag.runtimeError),
            "check nv-hostengine (systemctl status nvidia-dcgm) and the message above, then rerun");
    for (const DcgmIssue& i : diag.issues) {
      Json row{{"entity", i.entity},   {"category", i.category},       {"test", i.test},
               {"message", i.message}, {"status", toString(i.status)}, {"remedy", i.remedy}};
      if (i.errorId) row["error"] = dcgmErrorName(*i.errorId);
      if (i.severity) row["severity"] = *i.severity;
      r.rows.push_back(std::move(row));
      f.add(i.status,
            fmt::format("{}: {} test {}: {}{}", i.entity, i.category, i.test, i.message,
                        i.errorId ? " (" + dcgmErrorName(*i.errorId) + ")" : ""),
            i.remedy);
    }
    if (diag.results == 0 && diag.runtimeError.empty())
      f.add(Status::kWarn, "DCGM's diagnostic reported no test result", "run `dcgmi diag -r " + level + "` by hand");
    f.apply(r, fmt::format("DCGM diagnostic level {}: {} of {} results passed, none failed", level, diag.passed,
                           diag.results));
    return r;
  }
};

PF_REGISTER_PROBE(DcgmProbe, "dcgm");

}  // namespace
}  // namespace pf::probes
