// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight probe`: runs the node-local probes (host, net, nccl, ib, sriov, efa, gpu, p2p, topo) on every rank
// and, under a launcher, gathers them on rank 0 into one document with a cross-node consistency check.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <iostream>
#include <optional>

#include "command.hpp"
#include "common_options.hpp"
#include "consistency.hpp"
#include "gather.hpp"
#include "launch.hpp"
#include "pf/error.hpp"
#include "pf/kernel_log.hpp"
#include "pf/report_io.hpp"
#include "pf/timer.hpp"
#include "pf/verdict.hpp"
#include "probe.hpp"
#include "probe_util.hpp"
#include "profile/node_profile.hpp"
#include "profile/profile_catalog.hpp"

namespace pf::cli {
namespace {

using probes::Probe;

class ProbeCommand final : public Command {
 public:
  std::string summary() const override {
    return "check this node's (or every node's) NICs, GPUs, InfiniBand, EFA, NCCL variables and limits";
  }

  void setup(CLI::App& app) override {
    app.add_option("--only", only_, "run only these probes (comma-separated, see --list)")->delimiter(',');
    app.add_option("--sysfs-root", root_, "read a captured tree rooted at DIR instead of / (files only, no libraries)");
    common_.addEnvFile(app, "NCCL and launcher variables; with --sysfs-root and no --env-file it is empty");
    common_.addOutputs(app);
    common_.addLocalRanks(app);
    common_.addTimeout(app);
    app.add_option("--profile", profilePath_,
                   "judge every node against this node profile: a TOML file (docs/probe.md \"Node profiles\"), a "
                   "built-in name (--list-profiles), or auto (each node picks the built-in that fits it)");
    app.add_flag("--list-profiles", listProfiles_, "list the built-in node profiles (with --json, as JSON) and exit");
    app.add_option("--emit-profile", emitPath_,
                   "write the profile of this node (a known-good one) to FILE, for --profile on the others");
    app.add_flag("--quick", quick_, "skip measurements that take more than ~100 ms (p2p copy bandwidth)");
    app.add_option("--dcgm", dcgmLevel_, "also run DCGM's diagnostic (dcgmi diag -r LEVEL, 1-4): the dcgm probe");
    app.add_option("--xid-since", xidSince_,
                   "gpu_xid looks at the kernel log from this time on: an ISO time with its zone, @SECONDS, a "
                   "duration before now (30m, 2h, 1d) or boot (the default)");
    common_.addStrict(app);
    app.add_flag("--list", list_, "list the probes and exit");
    app.footer(
        "Each probe reports pass, warn, fail, absent (not on this node, with what was looked for) or error,\n"
        "with the values it read and where from, and a remedy for warn and fail. Under a launcher every rank\n"
        "probes its node and rank 0 writes one document; nodes that differ from the majority are named.\n"
        "Exit code: 0 pass (warnings allowed unless --strict), 1 a probe failed, 2 bad input, 3 a probe\n"
        "could not run.\n\n"
        "Examples:\n"
        "  preflight probe\n"
        "  preflight probe --only net,nccl --json probe.json\n"
        "  mpirun -np 16 --map-by ppr:1:node preflight probe --json all-nodes.json\n"
        "  preflight probe --sysfs-root tests/fixtures/ib-ndr-8hca --env-file job.env --json -\n"
        "  preflight probe --emit-profile h100-node.toml      # on a known-good node\n"
        "  preflight probe --profile auto                     # the built-in profile that fits this node\n"
        "  preflight probe --only gpu_xid --xid-since 2h      # Xid errors of the last two hours only\n"
        "  srun -N 64 --ntasks-per-node=1 preflight probe --profile h100-node.toml");
  }

  int run(const Invocation& inv) override {
    auto& registry = Registry<Probe>::instance();
    if (list_) {
      for (const auto& key : registry.keys())
        std::cout << fmt::format("{:<10} {}\n", key, registry.create(key)->description());
      return 0;
    }
    if (listProfiles_) return listProfiles();
    common_.validateOutputs();
    if (!root_.empty() && !std::filesystem::is_directory(root_))
      throw UsageError(fmt::format("--sysfs-root: '{}' is not a directory; give the root of a captured tree", root_));
    // Read the view first so a bad --env-file or --only is reported before any rank is launched.
    probes::SystemView view = makeView();
    if (!profilePath_.empty()) profile_ = probes::resolveProfile(profilePath_);
    if (!xidSince_.empty()) xidWindow_ = parseKernelLogSince(xidSince_, "--xid-since");
    checkEmitPath();
    if (dcgmLevel_ < 0 || dcgmLevel_ > 4)
      throw UsageError(fmt::format("--dcgm: level {} does not exist; DCGM's diagnostic has levels 1 to 4", dcgmLevel_));
    for (const auto& o : only_)
      if (!registry.contains(o))
        throw UsageError(
            fmt::format("--only: no probe named '{}'; known probes: {}", o, fmt::join(registry.keys(), ", ")));
    return runOnRanks("probe", inv, common_,
                      [&](Bootstrap& boot, const LauncherEnv& launcher) { return probe(boot, launcher, view, inv); });
  }

 private:
  int probe(Bootstrap& boot, const LauncherEnv& launcher, const probes::SystemView& view, const Invocation& inv) {
    RunReport report;
    report.context = gatherContext("probe", inv, boot, launcher);
    if (!root_.empty()) report.context.extra["sysfs_root"] = root_;
    Timer timer;
    probes::ProbeOptions opt;
    opt.quick = quick_;
    opt.firstOnNode = launcher.local_rank == 0;
    opt.dcgmLevel = dcgmLevel_;
    opt.xidSince = xidWindow_;
    std::vector<Result> local = probes::runProbes(view, opt, only_);
    if (profile_ || !emitPath_.empty()) {
      const probes::NodeFacts facts = probes::readNodeFacts(view);
      if (profile_) local.push_back(probes::judgeNodeProfile(facts, *profile_, opt.firstOnNode));
      if (!emitPath_.empty() && boot.rank() == 0) emitProfile(facts);
    }
    report.phases.push_back({"probes", timer.seconds()});
    auto gathered = probes::gatherResults(boot, probes::nodeName(view), local);
    if (boot.rank() != 0) return 0;

    reports::Outputs out = common_.makeOutputs();
    out.begin(report.context);
    report.results = probes::flatten(gathered);
    std::vector<Result> diffs = probes::checkConsistency(gathered);
    report.results.insert(report.results.end(), diffs.begin(), diffs.end());
    // The groups of ranks that agree, for the reader (the table shows one group at a time).
    Json groups = Json::array();
    for (const auto& g : probes::groupIdentical(gathered)) {
      Json ranks = Json::array();
      for (size_t i : g) ranks.push_back(gathered[i].rank);
      groups.push_back(std::move(ranks));
    }
    report.context.extra["probe_groups"] = std::move(groups);
    report.context.end_time = utcNowIso8601();
    applyVerdict(report, common_.strict);
    for (const Result& r : report.results) out.result(r);
    out.end(report);
    return report.exit_code;
  }

  // The built-in profiles: name, description and sources, as text or (--json FILE, '-' = stdout) JSON.
  int listProfiles() const {
    Json all = Json::array();
    std::string text;
    for (const probes::NodeProfile& p : probes::builtinProfiles()) {
      all.push_back({{"name", p.meta.name}, {"description", p.meta.description}, {"sources", p.meta.sources}});
      text += fmt::format("{:<22} {}\n", p.meta.name, p.meta.description);
      for (const auto& s : p.meta.sources) text += fmt::format("{:<22}   source: {}\n", "", s);
    }
    if (common_.json.empty()) {
      std::cout << text;
    } else if (common_.json == "-") {
      std::cout << all.dump(2) << "\n";
    } else {
      writeFileAtomic(common_.json, all.dump(2) + "\n");
    }
    return 0;
  }

  // Refused before any probe runs: a folder that does not exist, or a path that is a folder.
  void checkEmitPath() const {
    if (emitPath_.empty()) return;
    const std::filesystem::path p(emitPath_);
    const std::filesystem::path dir = p.parent_path().empty() ? "." : p.parent_path();
    if (emitPath_ == "-" || std::filesystem::is_directory(p) || !std::filesystem::is_directory(dir))
      throw UsageError(
          fmt::format("--emit-profile: cannot write '{}': give a file name in an existing folder", emitPath_));
  }

  // The profile of rank 0's node, written atomically; parts that differ from their peers are named on stderr.
  void emitProfile(const probes::NodeFacts& facts) const {
    std::vector<std::string> notes;
    const probes::NodeProfile p = probes::profileFromFacts(facts, notes);
    writeFileAtomic(emitPath_, probes::profileToToml(p, facts.host));
    for (const auto& n : notes) std::cerr << "preflight probe --emit-profile: " << n << "\n";
    std::cerr << fmt::format("preflight probe: wrote the profile of {} to {}\n", facts.host, emitPath_);
  }

  probes::SystemView makeView() const {
    if (root_.empty() && common_.envFile.empty()) return probes::SystemView::live();
    Environment env = common_.envFile.empty() ? (root_.empty() ? Environment::fromProcess() : Environment())
                                              : Environment::fromFile(common_.envFile);
    // Only the live root may call libraries: a captured tree has files, not devices.
    return probes::SystemView(root_.empty() ? "/" : root_, std::move(env), root_.empty());
  }

  std::vector<std::string> only_;
  std::string root_, profilePath_, emitPath_, xidSince_;
  std::optional<probes::NodeProfile> profile_;
  std::optional<KernelLogSince> xidWindow_;
  bool quick_ = false, list_ = false, listProfiles_ = false;
  int dcgmLevel_ = 0;
  CommonOptions common_;
};

PF_REGISTER_COMMAND(ProbeCommand, "probe");

}  // namespace
}  // namespace pf::cli
