// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The INFO summary as JSON (the "doctor.info" result's metrics and rows; docs/result-schema.md).
#include <utility>

#include "info_extractor.hpp"
#include "pf/json_field.hpp"

namespace pf::doctor {
Json InfoExtractor::toJson() const {
  Json j = Json::object();
  Json procs = Json::array();
  std::set<std::string> versions, networks;
  for (const auto& [who, p] : procs_.all()) {
    Json q = Json::object();
    q["process"] = who;
    q["host"] = jsonOrNull(p.host);
    q["nccl_version"] = jsonOrNull(p.ncclVersion);
    q["cuda_version"] = jsonOrNull(p.cudaVersion);
    q["cuda_driver_version"] = p.cudaDriver < 0 ? Json() : Json(p.cudaDriver);
    q["net_plugin"] = jsonOrNull(p.netPlugin);
    q["network"] = jsonOrNull(p.network);
    q["bootstrap_interfaces"] = p.bootstrapIfs;
    q["socket_interfaces"] = p.socketIfs;
    q["oob_interface"] = jsonOrNull(p.oobIf);
    q["hcas"] = p.hcas;
    q["ib_no_device"] = p.ibNoDevice;
    q["relaxed_ordering"] = p.relaxedOrdering;
    q["gdr"] = !p.gdrDisabledHcas.empty() ? Json("disabled") : p.gdrUsed ? Json("enabled") : Json();
    procs.push_back(std::move(q));
    if (!p.ncclVersion.empty()) versions.insert(p.ncclVersion);
    if (!p.network.empty()) networks.insert(p.network);
  }
  j["nccl_versions"] = versions;
  j["networks"] = networks;
  j["transports"] = Json::object();
  for (const auto& [t, n] : transports_) j["transports"][t] = n;
  j["channels"] = nchannels_ > 0 ? Json(nchannels_) : Json();
  j["algorithms"] = algos_;
  Json comms = Json::array();
  for (const auto& [id, c] : comms_) {
    if (comms.size() == kMaxCommsListed) break;
    comms.push_back({{"comm_id", id},
                     {"nranks", c.nranks},
                     {"ranks_started", c.ranksStarted},
                     {"ranks_completed", c.ranksCompleted}});
  }
  j["communicators"] = comms;
  // A job of thousands of communicators (one per tensor-parallel group, per restart): their ranks are judged in
  // doctor.ranks, and a row each here would make the JSON grow with them.
  if (comms_.size() > kMaxCommsListed) j["communicators_not_listed"] = comms_.size() - kMaxCommsListed;
  // Only where a cap was reached (a log of many restarts or crafted): the lists above are then partial.
  if (procs_.unlisted() > 0 || procs_.unlistedUncounted()) j["processes_not_listed"] = procs_.unlisted();
  if (commsDropped_ > 0) j["communicator_drops"] = commsDropped_;
  if (!factLinesPast_.empty()) {
    j["fact_lines_not_kept"] = Json::object();
    for (const auto& [f, n] : factLinesPast_) j["fact_lines_not_kept"][f] = n;
  }
  j["processes"] = std::move(procs);
  Json flags = Json::array();
  for (const auto& f : flags_)
    flags.push_back({{"id", f.id}, {"message", f.message}, {"evidence", f.evidence.toJson()}});
  j["flags"] = flags;
  return j;
}

}  // namespace pf::doctor
