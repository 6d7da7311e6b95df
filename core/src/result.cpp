// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/result.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "pf/error.hpp"
#include "pf/input_limits.hpp"
#include "pf/json_field.hpp"

namespace pf {

namespace {
constexpr const char* kStatusNames[] = {"pass", "skipped", "absent", "warn", "fail", "timeout", "error"};
constexpr const char* kKindNames[] = {"sweep",  "probe", "pairs", "check",      "diagnosis",
                                      "doctor", "scale", "env",   "comparison", "plan"};

// Typed field access with an error that names the field by its path in the document ("results[3].rank"), so
// a hand-edited or truncated document gets a message a person can act on instead of a bare nlohmann type_error.
// Numbers must be exact: 2.5 or true is no int, 1e308 is out of range (never truncated to -2147483648).
std::string fieldPath(const std::string& where, const char* name) {
  return where.empty() ? std::string(name) : where + "." + name;
}

template <typename T>
T field(const Json& j, const char* name, const std::string& where) {
  if (!j.is_object() || !j.contains(name)) throw UsageError(fmt::format("{}: missing", fieldPath(where, name)));
  std::string why;
  if (auto v = exactValue<T>(j.at(name), why)) return *v;
  throw UsageError(fmt::format("{}: {}", fieldPath(where, name), clipForMessage(why)));
}

template <typename T>
T optionalField(const Json& j, const char* name, T fallback, const std::string& where) {
  if (!j.is_object() || !j.contains(name) || j.at(name).is_null()) return fallback;
  return field<T>(j, name, where);
}

// The codes a Preflight command ends with (docs/exit-codes.md): `report` exits with a document's code, so any
// other value (139 would look like a crash, 256 like a pass) is bad input.
bool definedExitCode(int code) { return (code >= 0 && code <= 4) || code == 129 || code == 130 || code == 143; }
}  // namespace

const char* toString(Status s) { return kStatusNames[static_cast<int>(s)]; }

Status statusFromString(const std::string& s) {
  for (int i = 0; i < 7; ++i)
    if (s == kStatusNames[i]) return static_cast<Status>(i);
  throw UsageError(fmt::format("unknown status '{}' (expected pass, skipped, absent, warn, fail, timeout or error)",
                               clipForMessage(s)));
}

const char* toString(Kind k) { return kKindNames[static_cast<int>(k)]; }

Kind kindFromString(const std::string& s) {
  for (std::size_t i = 0; i < std::size(kKindNames); ++i)
    if (s == kKindNames[i]) return static_cast<Kind>(i);
  throw UsageError(fmt::format(
      "unknown result kind '{}' (expected sweep, probe, pairs, check, diagnosis, doctor, scale, env or comparison)",
      clipForMessage(s)));
}

Json toJson(const Evidence& e) {
  Json j = {{"what", e.what}, {"value", e.value}};
  if (!e.unit.empty()) j["unit"] = e.unit;
  if (!e.source.empty()) j["source"] = e.source;
  return j;
}

namespace {
// @param w the entry's path in the document, which errors name ("results[2].evidence[0]")
Evidence evidenceAt(const Json& j, const std::string& w) {
  Evidence e;
  e.what = field<std::string>(j, "what", w);
  if (j.contains("value")) e.value = j.at("value");
  e.unit = optionalField<std::string>(j, "unit", "", w);
  e.source = optionalField<std::string>(j, "source", "", w);
  return e;
}
}  // namespace

Evidence evidenceFromJson(const Json& j) { return evidenceAt(j, "evidence"); }

namespace {
// Schema version 1 let evidence be a plain string or an object of any fields. Each becomes Evidence: a string
// is the fact itself; an object with "what" keeps its fields; any other object gives one entry per field.
void appendV1Evidence(const Json& e, std::vector<Evidence>& out) {
  if (e.is_string()) {
    out.push_back({e.get<std::string>(), Json(), "", ""});
  } else if (e.is_object() && e.contains("what") && e.at("what").is_string()) {
    Evidence x;
    x.what = e.at("what").get<std::string>();
    x.value = e.value("value", Json());
    x.unit = e.value("unit", std::string());
    x.source = e.contains("source") && e.at("source").is_string() ? e.at("source").get<std::string>() : "";
    out.push_back(std::move(x));
  } else if (e.is_object()) {
    for (const auto& [k, v] : e.items()) out.push_back({k, v, "", ""});
  } else {
    out.push_back({"value", e, "", ""});
  }
}
}  // namespace

Status worst(Status a, Status b) { return static_cast<int>(a) >= static_cast<int>(b) ? a : b; }

Json toJson(const Result& r) {
  Json j;
  j["key"] = r.key;
  j["kind"] = toString(r.kind);
  j["status"] = toString(r.status);
  j["message"] = r.message;
  j["remedy"] = r.remedy;
  j["host"] = r.host;
  j["rank"] = r.rank;
  j["params"] = r.params;
  j["metrics"] = r.metrics;
  j["evidence"] = Json::array();
  for (const Evidence& e : r.evidence) j["evidence"].push_back(toJson(e));
  j["rows"] = r.rows;
  return j;
}

namespace {

// A NUL inside a string (a C buffer copied with its terminator) is no text: the document would carry "\u0000"
// and a C reader would cut the string there. The sources trim their buffers; this guard keeps any that does
// not out of every string of the document.
void dropNuls(Json& j) {
  if (j.is_string()) {
    auto& s = j.get_ref<std::string&>();
    s.erase(std::remove(s.begin(), s.end(), '\0'), s.end());
  } else if (j.is_structured()) {
    for (Json& v : j) dropNuls(v);
  }
}

}  // namespace

Json toJson(const RunReport& r) {
  Json j;
  j["schema_version"] = r.schema_version;
  const Context& c = r.context;
  j["context"] = {{"tool", c.tool},
                  {"version", c.version},
                  {"command", c.command},
                  {"argv", c.argv},
                  {"hostname", c.hostname},
                  {"start_time", c.start_time},
                  {"end_time", c.end_time},
                  {"world_size", c.world_size},
                  {"node_count", c.node_count},
                  {"launcher", c.launcher},
                  {"extra", c.extra}};
  j["verdict"] = toString(r.verdict);
  j["exit_code"] = r.exit_code;
  j["phases"] = Json::array();
  for (const Phase& p : r.phases) j["phases"].push_back({{"name", p.name}, {"seconds", p.seconds}});
  j["results"] = Json::array();
  for (const Result& res : r.results) j["results"].push_back(toJson(res));
  dropNuls(j);
  return j;
}

namespace {
// @param w the result's path in the document, which errors name ("results[3]")
Result resultAt(const Json& j, int schemaVersion, const std::string& w) {
  Result r;
  r.key = field<std::string>(j, "key", w);
  const std::string kind = field<std::string>(j, "kind", w), status = field<std::string>(j, "status", w);
  try {
    r.kind = kindFromString(kind);
    r.status = statusFromString(status);
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("{}: {}", w, e.what()));
  }
  r.message = optionalField<std::string>(j, "message", "", w);
  r.remedy = optionalField<std::string>(j, "remedy", "", w);
  r.host = optionalField<std::string>(j, "host", "", w);
  r.rank = optionalField<int>(j, "rank", -1, w);
  if (j.contains("params")) r.params = j.at("params");
  if (j.contains("metrics")) r.metrics = j.at("metrics");
  if (j.contains("evidence")) {
    if (!j.at("evidence").is_array()) throw UsageError(fmt::format("{}.evidence: not an array", w));
    size_t i = 0;
    for (const Json& e : j.at("evidence")) {
      if (schemaVersion < 2)
        appendV1Evidence(e, r.evidence);
      else
        r.evidence.push_back(evidenceAt(e, fmt::format("{}.evidence[{}]", w, i)));
      ++i;
    }
  }
  if (j.contains("rows")) r.rows = j.at("rows");
  return r;
}
}  // namespace

Result resultFromJson(const Json& j, int schemaVersion) { return resultAt(j, schemaVersion, "result"); }

RunReport reportFromJson(const Json& j) {
  RunReport r;
  if (!j.is_object()) throw UsageError("result document: the top level is not a JSON object");
  const int version = field<int>(j, "schema_version", "");
  // A document read back is this version's model: the writer of a version 1 document is upgraded on reading.
  r.schema_version = kSchemaVersion;
  if (version < 1)
    throw UsageError(
        fmt::format("result document has schema_version {}; versions 1 to {} are known", version, kSchemaVersion));
  if (version > kSchemaVersion)
    throw UsageError(
        fmt::format("result document has schema_version {}, newer than this preflight reads ({}); "
                    "upgrade preflight",
                    version, kSchemaVersion));
  const Json& c = j.contains("context") ? j.at("context") : Json::object();
  const std::string w = "context";
  r.context.tool = optionalField<std::string>(c, "tool", "preflight", w);
  r.context.version = optionalField<std::string>(c, "version", "", w);
  r.context.command = optionalField<std::string>(c, "command", "", w);
  r.context.argv = optionalField<std::vector<std::string>>(c, "argv", {}, w);
  r.context.hostname = optionalField<std::string>(c, "hostname", "", w);
  r.context.start_time = optionalField<std::string>(c, "start_time", "", w);
  r.context.end_time = optionalField<std::string>(c, "end_time", "", w);
  r.context.world_size = optionalField<int>(c, "world_size", 1, w);
  r.context.node_count = optionalField<int>(c, "node_count", 1, w);
  if (c.contains("launcher")) r.context.launcher = c.at("launcher");
  if (c.contains("extra")) r.context.extra = c.at("extra");
  const std::string verdict = optionalField<std::string>(j, "verdict", "pass", "");
  try {
    r.verdict = statusFromString(verdict);
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("verdict: {}", e.what()));
  }
  r.exit_code = optionalField<int>(j, "exit_code", 0, "");
  if (!definedExitCode(r.exit_code))
    throw UsageError(
        fmt::format("exit_code: {} is not an exit code Preflight uses (0 to 4, 129, 130, 143)", r.exit_code));
  if (j.contains("phases")) {
    if (!j.at("phases").is_array()) throw UsageError("phases: not an array");
    size_t i = 0;
    for (const Json& p : j.at("phases")) {
      const std::string at = fmt::format("phases[{}]", i++);
      r.phases.push_back({field<std::string>(p, "name", at), field<double>(p, "seconds", at)});
    }
  }
  if (j.contains("results")) {
    if (!j.at("results").is_array()) throw UsageError("results: not an array");
    size_t i = 0;
    for (const Json& res : j.at("results"))
      r.results.push_back(resultAt(res, version, fmt::format("results[{}]", i++)));
  }
  return r;
}

}  // namespace pf
