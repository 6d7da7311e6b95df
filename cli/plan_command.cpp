// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight plan`: a capacity plan from inputs, with no training run (docs/plan.md). The workload
// (scaling/workload.hpp) and the fabric (sweeps through scaling/fabric_model.hpp, a node profile's line rates,
// or both) give each allocation's step (scaling/plan_model.hpp); `--calibrate` takes a `preflight scale`
// document's measured rows (scaling/plan_calibrate.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "command.hpp"
#include "common_options.hpp"
#include "pf/error.hpp"
#include "pf/report_io.hpp"
#include "pf/timer.hpp"
#include "pf/units.hpp"
#include "pf/verdict.hpp"
#include "plan_calibrate.hpp"
#include "plan_model.hpp"
#include "profile/profile_catalog.hpp"
#include "sweep_algorithm.hpp"
#include "sweep_fit.hpp"

namespace pf::cli {
namespace {

using namespace pf::scaling;

/// A node profile's rates: NVLink per GPU (one direction) and the NICs' sum.
struct ProfileRates {
  std::string origin;
  std::optional<double> nvlinkGbs, nicGbit;
  std::optional<int> gpus;
  std::string nicWhat;
};

ProfileRates ratesFromProfile(const std::string& spec) {
  const probes::NodeProfile p = probes::resolveProfile(spec);
  // auto picks per node from what the node shows; a plan is made away from the nodes, so there is none to pick for.
  if (p.autoPick)
    throw UsageError(
        "--profile auto: each node picks its profile when `preflight probe` or `check` runs on it, and a plan is "
        "made off the nodes; name the built-in (`preflight probe --list-profiles`; `preflight probe --profile auto` "
        "on a node says which it picks) or give a profile file");
  ProfileRates r;
  r.origin = p.origin;
  r.nvlinkGbs = p.gpu.nvlinkGbs;
  if (p.gpu.count) r.gpus = static_cast<int>(*p.gpu.count);
  for (const auto* s : {&p.ib, &p.roce}) {
    const long long n = s->ports ? *s->ports : s->count ? *s->count : 0;
    if (n > 0 && s->rateGbit && !r.nicGbit) {
      r.nicGbit = static_cast<double>(n) * *s->rateGbit;
      r.nicWhat = fmt::format("{} x {:g} Gb/s {}", n, *s->rateGbit, s == &p.ib ? "InfiniBand" : "RoCE");
    }
  }
  return r;
}

/// A level at a line rate, with no latency: every time it gives is a lower bound.
LevelFit lineRateLevel(double bytesPerUs, int nodes, const std::string& source) {
  LevelFit l;
  for (AlphaBeta* ab : {&l.fit.small, &l.fit.large}) ab->alphaUs = 0, ab->betaUsPerB = 1.0 / bytesPerUs;
  l.ranks = 2;
  l.nodes = nodes;
  l.source = source;
  return l;
}

class PlanCommand final : public Command {
 public:
  std::string summary() const override {
    return "capacity plan for your model: nodes, step time, E(N), time and cost to train, from sweeps or a profile";
  }

  void setup(CLI::App& app) override {
    app.add_option("--workload", workload_, "workload TOML file, or a preset: " + presetList());
    app.add_option("--from", from_, "all_reduce sweep documents: one within a node, one across two or more nodes")
        ->delimiter(',');
    app.add_option("--profile", profile_, "node profile (file or built-in name): its NVLink and NIC line rates");
    app.add_option("--nodes", nodes_, "node counts to plan (comma list)")->delimiter(',')->capture_default_str();
    app.add_option("--gpus-per-node", gpusPerNode_, "GPUs per node (default: the profile's gpu.count, else 8)");
    app.add_option("--target-efficiency", target_, "the E(N) to stay at or above")->capture_default_str();
    app.add_option("--sizes", sizes_, "all-reduce sizes whose busbw to predict per node count (e.g. 1M,64M,1G)")
        ->delimiter(',');
    app.add_option("--calibrate", calibrate_, "a `preflight scale --json` document: measured compute and overlap");
    common_.addOutputs(app);
    common_.addStrict(app);
    app.footer(
        "E(N) = compute / step: the share of each step spent computing (weak scaling, fixed batch per GPU).\n"
        "From a profile alone every time is a lower bound (line rates, no latency), and the headline says so.\n\n"
        "Examples:\n"
        "  preflight plan --workload llama3-8b --profile azure-nd-h100-v5 --nodes 1,2,4,8,16,64\n"
        "  preflight plan --workload my_model.toml --from node.json,2nodes.json --nodes 1,2,4,8 --format html "
        "--output plan.html\n"
        "  preflight plan --calibrate scale.json --from ar.json --gpus-per-node 2 --nodes 1,2,4");
  }

  int run(const Invocation& inv) override {
    common_.validateOutputs();
    if (workload_.empty() && calibrate_.empty())
      throw UsageError("plan needs --workload FILE|PRESET (presets: " + presetList() + ") or --calibrate SCALE.json");
    if (from_.empty() && profile_.empty())
      throw UsageError("plan needs the fabric: --from SWEEP.json[,SWEEP2.json] and/or --profile NAME|FILE");
    if (nodes_.empty() || *std::min_element(nodes_.begin(), nodes_.end()) < 1)
      throw UsageError("--nodes needs positive node counts, e.g. --nodes 1,2,4,8");
    if (!(target_ > 0 && target_ <= 1)) throw UsageError("--target-efficiency must be above 0 and at most 1, e.g. 0.8");
    RunReport report;
    report.context.command = "plan";
    report.context.version = version();
    report.context.start_time = utcNowIso8601();
    for (int i = 0; i < *inv.argc; ++i) report.context.argv.push_back((*inv.argv)[i]);

    std::optional<ScaleCalibration> cal;
    if (!calibrate_.empty()) cal = calibrationFromScale(readReport(calibrate_), calibrate_);
    PlanInput in;
    in.workload = workload_.empty() ? workloadFromScale(*cal) : loadWorkload(workload_);
    if (cal) calibrate(in.workload, *cal);
    std::vector<std::string> caveats;
    std::optional<ProfileRates> rates;
    if (!profile_.empty()) rates = ratesFromProfile(profile_);
    in.gpusPerNode = gpusPerNode_ > 0 ? gpusPerNode_ : rates && rates->gpus ? *rates->gpus : 8;
    if (in.gpusPerNode < 1 || in.gpusPerNode > 1024) throw UsageError("--gpus-per-node must be from 1 to 1024");
    in.nodes = nodes_;
    in.targetEfficiency = target_;
    for (const std::string& s : sizes_) in.sizes.push_back(static_cast<double>(parseSize(s, "--sizes")));
    Json algorithms = Json::array();
    bool intraBound = false;
    in.fabric = fabric(rates, caveats, algorithms, intraBound);
    Json plan = buildPlan(in);

    Result r;
    r.key = "plan";
    r.kind = Kind::kPlan;
    r.params = Json{{"workload", workloadJson(in.workload)},
                    {"nodes", nodes_},
                    {"gpus_per_node", in.gpusPerNode},
                    {"target_efficiency", target_},
                    {"from", from_},
                    {"profile", rates ? Json(rates->origin) : Json()},
                    {"calibrate", calibrate_.empty() ? Json() : Json(calibrate_)}};
    const bool bound = in.fabric.interFromLineRate || intraBound;
    for (Json& row : plan["rows"]) row["bound"] = row["bound"].get<bool>() || intraBound;
    r.rows = plan["rows"];
    plan.erase("rows");
    r.metrics = plan;
    r.metrics["model"] = modelToJson(in.fabric);
    r.metrics["algorithms"] = algorithms;
    r.metrics["bound"] = bound;
    if (cal) {
      r.metrics["calibration"] = Json{{"source", cal->source},
                                      {"step_compute_ms", cal->stepComputeMs},
                                      {"from_ranks", cal->fromRanks},
                                      {"overlap", cal->overlap ? Json(*cal->overlap) : Json()},
                                      {"overlap_ranks", cal->overlapRanks}};
      r.metrics["measured"] = measuredBesidePredicted(in, *cal);
      for (std::string& s : optimisticPredictions(r.rows, r.metrics["measured"])) caveats.push_back(s);
    }
    if (in.fabric.singleLevel() && std::any_of(nodes_.begin(), nodes_.end(), [](int n) { return n > 1; }))
      caveats.push_back(
          "single-level fabric: no inter-node level, so predictions across nodes assume the "
          "within-node fabric; sweep across two nodes or give --profile");
    if (bound)
      caveats.push_back(
          fmt::format("bounds, not measurements: {} at line rate with no latency term, so step times "
                      "are lower bounds and E(N) upper bounds",
                      intraBound ? "the fabric is taken" : "across nodes the network is taken"));
    r.metrics["caveats"] = caveats;
    r.status = caveats.empty() ? Status::kPass : Status::kWarn;
    r.message = headline(r, in);
    if (!caveats.empty()) r.remedy = caveats.front();
    report.results.push_back(std::move(r));
    report.context.end_time = utcNowIso8601();
    applyVerdict(report, common_.strict);
    common_.makeOutputs().replay(report);
    return report.exit_code;
  }

 private:
  static std::string presetList() {
    std::string s;
    for (const std::string& n : presetNames()) s += (s.empty() ? "" : ", ") + n;
    return s;
  }

  static Json workloadJson(const Workload& w) {
    return Json{{"name", w.name},
                {"origin", w.origin},
                {"sources", w.sources},
                {"parameters", w.parameters},
                {"gradient_bytes", w.gradientBytes},
                {"parallelism", toString(w.parallelism)},
                {"tensor_parallel", w.tensorParallel},
                {"samples_per_gpu", w.samplesPerGpu},
                {"step_compute_ms", w.stepComputeMs},
                {"compute_from_flops", w.computeFromFlops},
                {"bucket_cap_mb", w.bucketCapMb},
                {"overlap", w.overlap ? Json(*w.overlap) : Json("buckets")},
                {"samples_to_train", w.samplesToTrain ? Json(*w.samplesToTrain) : Json()},
                {"gpu_hour_cost", w.gpuHourCost ? Json(*w.gpuHourCost) : Json()}};
  }

  FabricModel fabric(const std::optional<ProfileRates>& rates, std::vector<std::string>& caveats, Json& algorithms,
                     bool& intraBound) {
    std::vector<LevelFit> levels;
    std::vector<std::pair<std::string, RunReport>> docs;
    for (const std::string& f : from_) {
      docs.emplace_back(f, readReport(f));
      levels.push_back(levelFromSweep(docs.back().second, f));
    }
    FabricModel m;
    if (!levels.empty()) m = fabricModelFromLevels(std::move(levels));
    if (!m.intra && rates) {
      if (!rates->nvlinkGbs)
        throw UsageError(
            fmt::format("--profile {}: it has no gpu.nvlink_gbs, and --from has no within-node sweep; "
                        "add nvlink_gbs to the profile's [gpu] table or give a within-node sweep",
                        rates->origin));
      m.intra = lineRateLevel(*rates->nvlinkGbs * 1e3, 1, rates->origin + ": NVLink at line rate; not measured");
      intraBound = true;
    }
    std::optional<double> nicGbit = rates ? rates->nicGbit : std::nullopt;
    for (const auto& [path, doc] : docs) {
      if (std::max(1, doc.context.node_count) < 2) continue;
      const SweepAlgorithm a = detectSweepAlgorithm(doc, nicGbit);
      algorithms.push_back(Json{{"source", path}, {"algorithm", a.algorithm}, {"evidence", a.evidence}});
      if (a.notRing()) {
        // A Tree/NVLS/CollNet figure at 2 nodes overstates what more nodes get: plan the network as a ring.
        if (!nicGbit)
          throw UsageError(fmt::format(
              "--from {}: {}; it cannot be extrapolated to more nodes as a ring. Sweep across two nodes with "
              "NCCL_ALGO=Ring, or give --profile with the NICs' rate to plan the network as a ring at line rate",
              path, a.evidence));
        m.inter.reset();
        caveats.push_back(
            fmt::format("algorithm: the inter-node sweep {} reflects {} ({}), so the network is "
                        "planned as a ring at the NICs' line rate instead",
                        path, a.algorithm == "not_ring" ? "another algorithm than ring" : a.algorithm, a.evidence));
      } else if (a.algorithm == "unknown") {
        caveats.push_back(
            fmt::format("algorithm: {} records no NCCL_ALGO; NCCL's tuner may have used Tree or NVLS "
                        "at 2 nodes, which do not extrapolate as a ring: sweep with NCCL_ALGO=Ring",
                        path));
      }
    }
    if (nicGbit && *nicGbit > 0) {
      NicSet nics;
      nics.transport = "profile";
      nics.names = {rates->nicWhat};
      nics.gbitTotal = *nicGbit;
      nics.host = "-";
      nics.source = rates->origin;
      if (!m.intra) throw UsageError("plan needs a within-node level: --from a within-node sweep or --profile");
      addNics(m, nics);
    }
    if (!m.intra && !m.inter) throw UsageError("--from: no all_reduce sweep given");
    return m;
  }

  std::string headline(const Result& r, const PlanInput& in) const {
    const Json& rows = r.rows;
    const Json& far = rows.back();
    std::string s = fmt::format("{} ({}, {}): ", in.workload.name, toString(in.workload.parallelism),
                                humanNumber(in.workload.parameters) + " parameters");
    const Json& nt = r.metrics["nodes_at_target"];
    if (nt.is_null())
      s += fmt::format("E(N) is below {:g} already on 1 node", target_);
    else if (nt == r.metrics["nodes_at_target_searched_to"])
      s += fmt::format("E(N) stays at or above {:g} at every node count up to {} (as far as the plan looks)", target_,
                       nt.get<int>());
    else
      s += fmt::format("E(N) stays at or above {:g} up to {} nodes of {} GPUs", target_, nt.get<int>(), in.gpusPerNode);
    s += fmt::format("; at {} nodes a step takes {} ms, {} samples/s, E = {:.2f} ({:.2f}-{:.2f})",
                     far["nodes"].get<int>(), humanNumber(far["step_ms"].get<double>()),
                     humanNumber(far["samples_per_s"].get<double>()), far["efficiency"].get<double>(),
                     far["efficiency_low"].get<double>(), far["efficiency_high"].get<double>());
    if (far.contains("hours_to_train"))
      s += fmt::format(", {} h and {} GPU-hours to train", humanNumber(far["hours_to_train"].get<double>()),
                       humanNumber(far["gpu_hours"].get<double>()));
    if (far.contains("cost")) s += fmt::format(" ({} in cost)", humanNumber(far["cost"].get<double>()));
    if (r.metrics["bound"].get<bool>()) s = "bounds: " + s;
    return s;
  }

  std::string workload_, profile_, calibrate_;
  std::vector<std::string> from_, sizes_;
  std::vector<int> nodes_{1, 2, 4, 8, 16, 32, 64};
  int gpusPerNode_ = 0;
  double target_ = 0.8;
  CommonOptions common_;
};

}  // namespace

PF_REGISTER_COMMAND(PlanCommand, "plan");

}  // namespace pf::cli
