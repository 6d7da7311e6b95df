// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The dump model of dump.hpp from either form. The two forms differ in small ways this file absorbs: the pickle
// has None where the JSON form has 0 for a time never recorded, the JSON form writes pg_status counters as
// strings, and only the pickle carries the Python frames.
#include "flight_recorder/dump.hpp"

#include <cctype>
#include <charconv>

#include "flight_recorder/pickle_reader.hpp"
#include "pf/error.hpp"
#include "pf/input_limits.hpp"
#include "pf/report_io.hpp"

namespace pf::doctor::fr {
namespace {

// Far above any job's world size, and small enough that rank arithmetic (world size = largest rank + 1) is safe.
constexpr int kMaxRank = 1 << 24;

[[noreturn]] void badField(const std::string& name, const std::string& field, const std::string& want) {
  throw UsageError(name + ": Flight Recorder dump field '" + field + "' is not " + want +
                   "; pass the dump as PyTorch wrote it (TORCH_FR_DUMP_TEMP_FILE, or _dump_fr_trace_json)");
}

// An integer written as a number or as its decimal text (the JSON form's pg_status); nullopt for null.
std::optional<std::int64_t> intField(const Json& obj, const char* key, const std::string& name) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  if (it->is_number_integer()) return it->get<std::int64_t>();
  if (it->is_boolean()) return it->get<bool>() ? 1 : 0;
  if (it->is_string()) {
    const std::string& s = it->get_ref<const std::string&>();
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc() && p == s.data() + s.size()) return v;
  }
  badField(name, key, "an integer");
}

std::string strField(const Json& obj, const char* key, const std::string& name) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return "";
  if (!it->is_string()) badField(name, key, "a string");
  return it->get<std::string>();
}

// A time the recorder did not take is None in the pickle and 0 in the JSON form.
std::optional<std::int64_t> timeField(const Json& obj, const char* key, const std::string& name) {
  auto v = intField(obj, key, name);
  if (v && *v == 0) return std::nullopt;
  return v;
}

std::vector<std::vector<std::int64_t>> sizesField(const Json& obj, const char* key, const std::string& name) {
  std::vector<std::vector<std::int64_t>> out;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return out;
  if (!it->is_array()) badField(name, key, "a list of shapes");
  for (const Json& shape : *it) {
    if (!shape.is_array()) badField(name, key, "a list of shapes");
    std::vector<std::int64_t> dims;
    for (const Json& d : shape) {
      if (!d.is_number_integer()) badField(name, key, "a list of shapes");
      dims.push_back(d.get<std::int64_t>());
    }
    out.push_back(std::move(dims));
  }
  return out;
}

std::vector<std::string> stringsField(const Json& obj, const char* key, const std::string& name) {
  std::vector<std::string> out;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return out;
  if (!it->is_array()) badField(name, key, "a list of strings");
  for (const Json& s : *it) {
    if (!s.is_string()) badField(name, key, "a list of strings");
    out.push_back(s.get<std::string>());
  }
  return out;
}

// pg_config's "ranks" is the text of a Python list ("[0, 1, 2, 3]"); a list of ints is taken as well.
std::vector<int> ranksField(const Json& v, const std::string& name) {
  std::vector<int> out;
  if (v.is_array()) {
    for (const Json& r : v) {
      if (!r.is_number_integer() || r.get<std::int64_t>() < 0 || r.get<std::int64_t>() > kMaxRank)
        badField(name, "pg_config.ranks", "a list of ranks");
      out.push_back(r.get<int>());
    }
    return out;
  }
  if (!v.is_string()) badField(name, "pg_config.ranks", "a list of ranks");
  const std::string& s = v.get_ref<const std::string&>();
  for (std::size_t i = 0; i < s.size();) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) {
      if (s[i] != '[' && s[i] != ']' && s[i] != ',' && s[i] != ' ')
        badField(name, "pg_config.ranks", "a list of ranks");
      ++i;
      continue;
    }
    int r = 0;
    auto [p, ec] = std::from_chars(s.data() + i, s.data() + s.size(), r);
    if (ec != std::errc() || r > kMaxRank) badField(name, "pg_config.ranks", "a list of ranks");
    out.push_back(r);
    i = static_cast<std::size_t>(p - s.data());
  }
  return out;
}

Entry entryFromJson(const Json& e, const std::string& name) {
  if (!e.is_object()) badField(name, "entries", "a list of dicts");
  Entry out;
  out.recordId = intField(e, "record_id", name).value_or(0);
  if (auto it = e.find("process_group");
      it != e.end() && it->is_array() && it->size() == 2 && (*it)[0].is_string() && (*it)[1].is_string()) {
    out.pgName = (*it)[0].get<std::string>();
    out.pgDesc = (*it)[1].get<std::string>();
  } else {
    badField(name, "process_group", "a (name, description) pair");
  }
  out.collectiveSeqId = intField(e, "collective_seq_id", name).value_or(0);
  out.p2pSeqId = intField(e, "p2p_seq_id", name).value_or(0);
  out.isP2p = intField(e, "is_p2p", name).value_or(0) != 0;
  out.profilingName = strField(e, "profiling_name", name);
  out.inputSizes = sizesField(e, "input_sizes", name);
  out.outputSizes = sizesField(e, "output_sizes", name);
  out.inputDtypes = stringsField(e, "input_dtypes", name);
  out.outputDtypes = stringsField(e, "output_dtypes", name);
  out.state = strField(e, "state", name);
  out.retired = intField(e, "retired", name).value_or(0) != 0;
  out.timeCreatedNs = timeField(e, "time_created_ns", name);
  out.timeStartedNs = timeField(e, "time_discovered_started_ns", name);
  out.timeCompletedNs = timeField(e, "time_discovered_completed_ns", name);
  out.timeoutMs = intField(e, "timeout_ms", name).value_or(0);
  if (auto it = e.find("frames"); it != e.end() && it->is_array()) {
    for (const Json& f : *it) {
      if (!f.is_object()) badField(name, "frames", "a list of dicts");
      out.frames.push_back(
          {strField(f, "name", name), strField(f, "filename", name), intField(f, "line", name).value_or(0)});
    }
  }
  return out;
}

}  // namespace

std::string Entry::op() const {
  const auto colon = profilingName.find(':');
  return colon == std::string::npos ? profilingName : profilingName.substr(colon + 1);
}

const GroupConfig* Dump::group(std::string_view key) const {
  for (const auto& g : groups)
    if (g.key == key) return &g;
  return nullptr;
}

const GroupStatus* Dump::groupStatus(std::string_view key) const {
  for (const auto& s : status)
    if (s.key == key) return &s;
  return nullptr;
}

Dump dumpFromJson(const Json& doc, const std::string& name, int rank) {
  if (!doc.is_object() || !doc.contains("entries"))
    throw UsageError(name + ": not a Flight Recorder dump (a dict with 'entries', 'pg_config' and 'version')");
  Dump d;
  d.path = name;
  d.rank = rank;
  if (auto it = doc.find("version"); it != doc.end() && it->is_string()) d.version = it->get<std::string>();
  const Json& entries = doc["entries"];
  if (!entries.is_array()) badField(name, "entries", "a list");
  for (const Json& e : entries) d.entries.push_back(entryFromJson(e, name));
  if (auto it = doc.find("pg_config"); it != doc.end() && it->is_object()) {
    for (const auto& [key, g] : it->items()) {
      if (!g.is_object()) badField(name, "pg_config", "a dict of groups");
      d.groups.push_back(
          {key, strField(g, "desc", name), g.contains("ranks") ? ranksField(g["ranks"], name) : std::vector<int>{}});
    }
  }
  if (auto it = doc.find("pg_status"); it != doc.end() && it->is_object()) {
    for (const auto& [key, s] : it->items()) {
      if (!s.is_object()) badField(name, "pg_status", "a dict of groups");
      d.status.push_back({key, intField(s, "last_enqueued_collective", name).value_or(-1),
                          intField(s, "last_started_collective", name).value_or(-1),
                          intField(s, "last_completed_collective", name).value_or(-1)});
    }
  }
  return d;
}

bool looksLikeDump(std::string_view head) {
  if (looksLikePickledDict(head)) return true;
  std::size_t i = 0;
  while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i]))) ++i;
  if (i >= head.size() || head[i] != '{') return false;
  const std::string_view start = head.substr(0, 4096);
  return start.find("\"entries\"") != std::string_view::npos || start.find("\"pg_config\"") != std::string_view::npos ||
         (start.find("\"version\"") != std::string_view::npos &&
          start.find("\"comm_lib_version\"") != std::string_view::npos);
}

int rankFromFileName(std::string_view path) {
  std::string_view base =
      path.substr(path.find_last_of('/') == std::string_view::npos ? 0 : path.find_last_of('/') + 1);
  for (std::string_view ext : {".json", ".pkl", ".pickle"})
    if (base.size() > ext.size() && base.substr(base.size() - ext.size()) == ext) base.remove_suffix(ext.size());
  std::size_t start = base.size();
  while (start > 0 && std::isdigit(static_cast<unsigned char>(base[start - 1]))) --start;
  if (start == base.size() || base.size() - start > 7) return -1;
  int r = 0;
  std::from_chars(base.data() + start, base.data() + base.size(), r);
  return r;
}

Dump parseDump(std::string_view bytes, const std::string& name, int rank) {
  const bool pickle = looksLikePickledDict(bytes);
  const Json doc = pickle ? readPickle(bytes, name)
                          : parseJsonText(bytes, name, "pass a Flight Recorder dump (pickle or its JSON form)");
  Dump d = dumpFromJson(doc, name, rank);
  d.form = pickle ? "pickle" : "json";
  return d;
}

Dump readDump(const std::string& path) {
  const int rank = rankFromFileName(path);
  if (rank < 0)
    throw UsageError(path +
                     ": cannot tell which rank wrote this Flight Recorder dump; keep the names PyTorch gives "
                     "them (TORCH_FR_DUMP_TEMP_FILE followed by the rank, e.g. nccl_trace_rank_3)");
  return parseDump(readTextFile(path), path, rank);
}

}  // namespace pf::doctor::fr
