// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// From what the nccl-tests readers found (import_model.hpp) to a RunReport: keys, params, metrics, status and
// context, written once for the text and the JSON reader alike.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "import_model.hpp"
#include "pf/error.hpp"
#include "pf/verdict.hpp"

namespace pf::import {
namespace {

// "FILE:LINE" for text, "FILE#/results/3" for JSON (whose warnings carry a JSON pointer instead of a line).
std::string where(const Doc& doc, const Warning& w) {
  if (w.line > 0) return fmt::format("{}:{}", doc.name, w.line);
  return !w.text.empty() && w.text.front() == '/' ? doc.name + "#" + w.text : doc.name;
}

Json warningJson(const Warning& w) { return Json{{"line", w.line}, {"text", w.text}, {"reason", w.reason}}; }

// The "# Using devices" lines in the shape `preflight sweep` records them (context.extra.devices), so the
// table view prints them again.
Json devicesJson(const std::vector<Device>& devices) {
  Json all = Json::array();
  for (const Device& d : devices)
    all.push_back({{"rank", d.rank},
                   {"host", d.host},
                   {"pid", d.pid ? Json(*d.pid) : Json(nullptr)},
                   {"device", d.device},
                   {"pci_bus_id", d.busId},
                   {"device_name", d.name}});
  return all;
}

template <typename T>
void copyHeader(const Json& header, const char* key, T& out) {
  if (header.contains(key) && header.at(key).is_number()) out = header.at(key).get<T>();
}

SweepParams paramsOf(const Run& run, const std::string& collective, const std::string& backend, int ranks) {
  SweepParams p;
  p.collective = collective;
  p.backend = backend;
  p.ranks = ranks;
  copyHeader(run.header, "min_bytes", p.min_bytes);
  copyHeader(run.header, "max_bytes", p.max_bytes);
  copyHeader(run.header, "step_factor", p.step_factor);
  copyHeader(run.header, "step_bytes", p.step_bytes);
  copyHeader(run.header, "iters", p.iters);
  copyHeader(run.header, "warmup_iters", p.warmup_iters);
  copyHeader(run.header, "check_iters", p.check_iters);
  p.per_iter_timing = run.perIter;
  p.root = run.rows.empty() ? -1 : run.rows.front().root;
  return p;
}

Result makeResult(Run& run, Doc& doc, int ranks, std::map<std::string, int>& keyCount) {
  Result r;
  r.kind = Kind::kSweep;
  std::string coll = run.collective;
  if (coll.empty()) {
    coll = guessCollective(run);
    if (!coll.empty()) {
      run.collectiveFrom = "guessed from the rows (reduction op, root, size against count)";
    } else {
      coll = "unknown";
      Warning w{run.line, "", "no '# Collective test starting' line or *_perf command names the collective", false};
      run.notes.push_back(w);
      doc.warnings.push_back(w);
    }
  }
  for (SweepRow& row : run.rows) row.collective = coll;
  r.key = "sweep." + coll;
  if (int n = ++keyCount[r.key]; n > 1) r.key += fmt::format(".{}", n);

  SweepParams p = paramsOf(run, coll, doc.tool == "rccl-tests" ? "rccl" : "nccl", ranks);
  r.params = toJson(p);
  r.params["source"] = "nccl-tests";
  r.params["collective_from"] = run.collectiveFrom;
  for (const char* k : {"nthreads", "ngpus", "agg_iters", "graph"})
    if (run.header.contains(k)) r.params[k] = run.header[k];
  if (run.cycles > 1) r.params["cycle"] = run.cycle;

  SweepMetrics m;
  double sum = 0;
  int64_t wrongRows = 0, wrongTotal = 0;
  bool anyWrong = false;
  for (const SweepRow& row : run.rows) {
    sum += row.busbw_gbps;
    m.peak_busbw_gbps = std::max(m.peak_busbw_gbps, row.busbw_gbps);
    if (row.wrong) {
      anyWrong = true;
      wrongTotal += *row.wrong;
      if (*row.wrong > 0) ++wrongRows;
    }
  }
  // nccl-tests' footer covers its whole table; split into cycles, each cycle gets the mean of its own rows.
  const bool wholeTable = run.cycles == 1;
  m.avg_busbw_gbps = run.footerAvgBusbw && wholeTable ? *run.footerAvgBusbw : sum / run.rows.size();
  m.out_of_bounds = std::max(wrongRows, run.footerOutOfBounds.value_or(0));
  if (anyWrong) m.wrong_total = wrongTotal;
  r.metrics = toJson(m);
  if (run.footerAvgBusbw && !wholeTable)
    r.evidence.push_back({"Avg bus bandwidth over all cycles (footer)", *run.footerAvgBusbw, "GB/s", doc.name});

  for (const Evidence& e : run.failures) r.evidence.push_back(e);
  for (const Warning& w : run.notes)
    r.evidence.push_back({w.unreadable ? "skipped: " + w.reason : w.reason, w.text, "", where(doc, w)});

  std::string summary =
      fmt::format("{} {} measurements imported from {}{}, peak busbw {:.2f} GB/s", run.rows.size(), coll, doc.name,
                  run.cycles > 1 ? fmt::format(" (cycle {} of {})", run.cycle, run.cycles) : "", m.peak_busbw_gbps);
  if (!run.failures.empty()) {
    r.status = Status::kError;
    r.message = fmt::format("{}; the run failed: {}", summary, run.failures.front().value.get<std::string>());
    r.remedy = "the output records a CUDA/NCCL failure: read the log with `preflight doctor FILE` for the cause";
  } else if (m.out_of_bounds > 0) {
    r.status = Status::kFail;
    r.message = fmt::format("{}; {} measurements had wrong elements", summary, m.out_of_bounds);
    r.remedy = "nccl-tests found wrong data: rerun, then test node pairs (preflight pairs) to find the rank";
  } else if (run.unreadable > 0 || !run.footerSeen) {
    r.status = Status::kWarn;
    r.message = fmt::format("{}; {}", summary,
                            run.unreadable > 0 ? fmt::format("{} unreadable lines skipped", run.unreadable)
                                               : std::string("no footer: the output may have been cut short"));
    r.remedy = "check the skipped lines (evidence) against the original output";
  } else {
    r.status = Status::kPass;
    r.message = summary;
  }
  for (const SweepRow& row : run.rows) r.rows.push_back(toJson(row));
  return r;
}

std::string noTableMessage(const Doc& doc) {
  std::string msg = fmt::format(
      "'{}' holds no nccl-tests result: expected rows of 'size count type redop root time algbw busbw #wrong ...' "
      "as nccl-tests or rccl-tests print them (text), nccl-tests -J JSON, or a document written by preflight "
      "--json",
      doc.name);
  if (!doc.failures.empty())
    msg += fmt::format("; the output stops with a failure at {}: {}", doc.failures.front().source,
                       doc.failures.front().value.get<std::string>());
  // The importer's warnings are printed with the document it returns; with none, the first skipped line says
  // why the table came out empty (a row the reader refused).
  for (const Warning& w : doc.warnings) {
    if (!w.unreadable) continue;
    msg += w.line > 0 ? fmt::format("; {}:{} was skipped: {}", doc.name, w.line, w.reason)
                      : fmt::format("; {}#{} was skipped: {}", doc.name, w.text, w.reason);
    break;
  }
  return msg;
}

}  // namespace

RunReport buildReport(Doc doc) {
  std::vector<Run> runs;
  for (Run& run : doc.runs) {
    if (run.rows.empty()) {
      for (const Evidence& e : run.failures) doc.failures.push_back(e);
      continue;
    }
    for (Run& part : splitCycles(std::move(run))) runs.push_back(std::move(part));
  }
  if (runs.empty()) throw UsageError(noTableMessage(doc));

  RunReport report;
  Context& c = report.context;
  c.tool = doc.tool;
  c.version = doc.version;
  c.command = "sweep";
  c.argv = doc.argv;
  const Run* withDevices = nullptr;
  for (const Run& run : runs)
    if (!run.devices.empty() && !withDevices) withDevices = &run;
  std::set<int> ranks;
  std::vector<std::string> hosts;
  if (withDevices) {
    for (const Device& d : withDevices->devices) {
      ranks.insert(d.rank);
      if (std::find(hosts.begin(), hosts.end(), d.host) == hosts.end()) hosts.push_back(d.host);
      if (d.rank == 0) c.hostname = d.host;
    }
  } else {
    hosts = doc.infoHosts;
    if (!hosts.empty()) c.hostname = hosts.front();
  }
  const int nranks = !ranks.empty() ? static_cast<int>(ranks.size()) : doc.infoRanks;
  c.world_size = std::max(1, nranks);
  c.node_count = std::max<int>(1, static_cast<int>(hosts.size()));
  c.extra["source"] = "nccl-tests";
  c.extra["import"] = {{"file", doc.name}, {"format", doc.format}, {"warnings", Json::array()}};
  c.extra["devices"] = devicesJson(withDevices ? withDevices->devices : std::vector<Device>{});
  c.extra["hosts"] = hosts;
  if (!doc.toolInfo.empty()) c.extra[doc.tool] = doc.toolInfo;

  std::map<std::string, int> keyCount;
  for (Run& run : runs) report.results.push_back(makeResult(run, doc, nranks, keyCount));
  // Notes added while making results (an unknown collective) belong in the document's list too.
  Json& list = c.extra["import"]["warnings"];
  list = Json::array();
  for (const Warning& w : doc.warnings) list.push_back(warningJson(w));
  applyVerdict(report, false);
  return report;
}

}  // namespace pf::import
