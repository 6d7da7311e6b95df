// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The one result model: every command (sweep, probe, pairs, check, doctor, scale) produces a RunReport, and
// every reporter (console, JSON, CSV, Prometheus, JUnit, the viewer) reads one. The JSON form is documented
// in docs/result-schema.md and validated by docs/result-schema.json.
//
// Rules: numbers are JSON numbers; null means "not measured / not applicable"; every unit is in the field
// name (_us, _gbps, _bytes); failures are data (status + message + remedy), not missing entries.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pf {

using Json = nlohmann::ordered_json;

/// Bumped when a field changes meaning or is removed; adding fields does not bump it.
/// 2: `evidence` is always a list of Evidence objects (version 1 also allowed plain strings and free objects);
///    status "timeout" exists. Version 1 documents are still read (see resultFromJson).
inline constexpr int kSchemaVersion = 2;

/// Outcome of one task. Ordered by severity for worst-of aggregation:
/// pass < skipped < absent < warn < fail < timeout < error.
enum class Status { kPass, kSkipped, kAbsent, kWarn, kFail, kTimeout, kError };

const char* toString(Status s);
/// @throws UsageError for an unknown name.
Status statusFromString(const std::string& s);
/// The more severe of two statuses.
Status worst(Status a, Status b);

/// What a result is about; decides which typed summary (pf/results/*.hpp) reads its params, metrics and rows.
enum class Kind {
  kSweep,       ///< one collective's sweep: rows are SweepRow
  kProbe,       ///< one probe on one rank: rows are the probe's own table (interfaces, ports, GPUs...)
  kPairs,       ///< the node-pair matrix: rows are PairRow
  kCheck,       ///< a gate finding naming hosts (params.hosts)
  kDiagnosis,   ///< one diagnosed cause from the doctor
  kDoctor,      ///< the doctor's summaries of the logs (doctor.info, doctor.ranks)
  kScale,       ///< a scaling benchmark: rows are ScaleRow
  kEnv,         ///< a launcher-environment check
  kComparison,  ///< one document compared with a baseline: rows are ComparisonRow (pf/comparison_row.hpp)
  kPlan,        ///< a capacity plan from inputs (`preflight plan`): rows are allocations (docs/result-schema.md)
};

const char* toString(Kind k);
/// @throws UsageError for an unknown name.
Kind kindFromString(const std::string& s);

/// One fact a result rests on: what was read or measured, its value and unit, and where it came from.
/// Every result's evidence has this one shape, so the schema constrains it and no consumer parses prose.
struct Evidence {
  std::string what;    ///< e.g. "link rate", "busbw at 512 KiB", "log line"
  Json value;          ///< a number, string, bool or a list of them; null when nothing was found
  std::string unit;    ///< "GB/s", "us", "%", ""; empty for strings
  std::string source;  ///< where it was read: a sysfs path, "pair 3-5", "file.log:12"
};

Json toJson(const Evidence& e);
Evidence evidenceFromJson(const Json& j);

/// One task's outcome: a probe, a sweep of one collective, a pair test, a diagnosis.
struct Result {
  std::string key;  ///< stable snake_case id, e.g. "sweep.all_reduce", "probe.net"
  Kind kind = Kind::kCheck;
  Status status = Status::kPass;
  std::string message;             ///< one line a person reads
  std::string remedy;              ///< what to do about a warn/fail; empty otherwise
  std::string host;                ///< node the result is about; empty when it is about the whole run
  int rank = -1;                   ///< rank that produced it; -1 when gathered or global
  Json params = Json::object();    ///< inputs that shaped the task
  Json metrics = Json::object();   ///< scalar measurements, units in the names
  std::vector<Evidence> evidence;  ///< what was read and where from
  Json rows = Json::array();       ///< table rows (e.g. sweep rows, see SweepRow)
};

/// Time spent in one phase of a command (probes, sweep, pairs...).
struct Phase {
  std::string name;
  double seconds = 0;
};

/// Where and how the run happened.
struct Context {
  std::string tool = "preflight";
  std::string version;
  std::string command;  ///< subcommand, e.g. "sweep"
  std::vector<std::string> argv;
  std::string hostname;              ///< host of rank 0
  std::string start_time, end_time;  ///< ISO 8601 UTC
  int world_size = 1;
  int node_count = 1;
  Json launcher = Json::object();  ///< what LauncherEnv detected
  Json extra = Json::object();     ///< command-specific context (backend, library versions...)
};

/// The document every command writes.
struct RunReport {
  int schema_version = kSchemaVersion;
  Context context;
  std::vector<Result> results;
  std::vector<Phase> phases;
  Status verdict = Status::kPass;  ///< set by applyVerdict (pf/verdict.hpp), never by hand
  int exit_code = 0;
};

Json toJson(const Result& r);
Json toJson(const RunReport& r);
/// Reads a report back; @throws UsageError naming the field when the document does not fit the model.
RunReport reportFromJson(const Json& j);
/// @param schemaVersion the document's version; 1 converts the older evidence shapes.
Result resultFromJson(const Json& j, int schemaVersion = kSchemaVersion);

}  // namespace pf
