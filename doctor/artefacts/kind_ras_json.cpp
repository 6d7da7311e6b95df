// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NCCL RAS's JSON (NCCL >= 2.28.7: `SET FORMAT json` then `STATUS`; NCCL's src/ras/client_support.cc):
//   {"nccl_version": "2.28.7", "timestamp": "...", "communicators": [{"hash": "0x..", "size": 8,
//     "ranks": [{"rank": 0, "host": "n1", "pid": 12, "cuda_dev": 0, "status": {"init_state": 0, "async_error": 0,
//                "abort_flag": false, ...}, "collective_counts": {"AllReduce": 640, ...}}],
//     "missing_ranks": [{"rank": 3, "host": "n2", "cuda_dev": 3, "status": {"unresponsive": true,
//                                                                            "considered_dead": false}}]}]}
// and MONITOR's JSON events ({"timestamp", "group", "event": "PEER_DEAD", "peer": {"host", "pid", "cuda_devs"}}),
// one object after another. Findings: missing ranks (dead or unresponsive), ranks with an NCCL error or an abort,
// and ranks whose count of a collective is below the communicator's highest (they lag).
#include <fmt/format.h>

#include "artefact.hpp"
#include "clock.hpp"
#include "document_reader.hpp"

namespace pf::doctor {
namespace {

std::string rjStr(const Json& j, const char* k) {
  return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : "";
}
int rjInt(const Json& j, const char* k) { return j.contains(k) && j[k].is_number_integer() ? j[k].get<int>() : -1; }
bool rjTrue(const Json& j, const char* k) { return j.contains(k) && j[k].is_boolean() && j[k].get<bool>(); }

class RasJsonReader final : public DocumentReader {
 public:
  using DocumentReader::DocumentReader;

 private:
  const char* what() const override { return "RAS JSON document"; }

  void read(const std::string& text, ArtefactOut& out) override {
    // MONITOR writes one object after another: read them in turn.
    std::size_t from = 0, objects = 0;
    while (from < text.size()) {
      const std::size_t at = text.find_first_of("{[", from);
      if (at == std::string::npos) break;
      std::size_t end = objectEnd(text, at);
      const Json doc = Json::parse(text.substr(at, end - at), nullptr, false);
      if (doc.is_discarded()) {
        finding(out, "ras.unreadable", "", -1,
                "RAS JSON that does not parse; nothing after byte " + std::to_string(at) + " was read", "");
        return;
      }
      ++objects;
      if (doc.contains("communicators")) status(doc, out);
      if (doc.contains("event")) monitor(doc, out);
      from = end;
    }
  }

  // The end of the JSON value starting at `at` (braces counted outside strings).
  static std::size_t objectEnd(const std::string& t, std::size_t at) {
    int depth = 0;
    bool str = false;
    for (std::size_t i = at; i < t.size(); ++i) {
      const char c = t[i];
      if (str) {
        if (c == '\\')
          ++i;
        else if (c == '"')
          str = false;
      } else if (c == '"') {
        str = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        return i + 1;
      }
    }
    return t.size();
  }

  void status(const Json& doc, ArtefactOut& out) {
    for (const Json& c : doc["communicators"]) {
      if (!c.is_object()) continue;
      const std::string comm = rjStr(c, "hash");
      out.worldSize = std::max(out.worldSize, rjInt(c, "size"));
      if (c.contains("missing_ranks") && c["missing_ranks"].is_array())
        for (const Json& m : c["missing_ranks"]) {
          const Json st = m.contains("status") ? m["status"] : Json::object();
          const bool dead = rjTrue(st, "considered_dead");
          finding(out, dead ? "ras.dead_process" : "ras.unresponsive_process", rjStr(m, "host"), rjInt(m, "rank"),
                  fmt::format("communicator {}: RAS {} rank {} (GPU {})", comm,
                              dead                         ? "considers dead"
                              : rjTrue(st, "unresponsive") ? "got no answer from"
                                                           : "misses",
                              rjInt(m, "rank"), rjInt(m, "cuda_dev")),
                  std::to_string(rjInt(m, "cuda_dev")));
        }
      if (!c.contains("ranks") || !c["ranks"].is_array()) continue;
      // The highest count of each collective over the communicator's ranks.
      std::map<std::string, int64_t> top;
      for (const Json& r : c["ranks"])
        if (r.contains("collective_counts") && r["collective_counts"].is_object())
          for (const auto& [op, n] : r["collective_counts"].items())
            if (n.is_number_integer()) top[op] = std::max(top[op], n.get<int64_t>());
      for (const Json& r : c["ranks"]) {
        const Json st = r.contains("status") ? r["status"] : Json::object();
        const std::string host = rjStr(r, "host"), gpu = std::to_string(rjInt(r, "cuda_dev"));
        out.nameProcessRank(host, rjInt(r, "pid"), rjInt(r, "rank"), rjInt(c, "size"));
        if (rjInt(st, "async_error") > 0 || rjTrue(st, "abort_flag"))
          finding(out, "ras.rank_error", host, rjInt(r, "rank"),
                  fmt::format("communicator {}: rank {} has NCCL async error {}{}", comm, rjInt(r, "rank"),
                              rjInt(st, "async_error"), rjTrue(st, "abort_flag") ? " and was aborted" : ""),
                  gpu);
        if (!r.contains("collective_counts") || !r["collective_counts"].is_object()) continue;
        for (const auto& [op, n] : r["collective_counts"].items())
          if (n.is_number_integer() && n.get<int64_t>() < top[op])
            finding(out, "ras.collective_lagging", host, rjInt(r, "rank"),
                    fmt::format("communicator {}: rank {} has launched {} {} operations, others up to {}", comm,
                                rjInt(r, "rank"), n.get<int64_t>(), op, top[op]),
                    gpu);
      }
    }
  }

  void monitor(const Json& doc, ArtefactOut& out) {
    TimelineEvent e;
    const std::string event = rjStr(doc, "event");
    e.stamp = parseStamp(rjStr(doc, "timestamp"));
    e.kind = "ras-" + event;
    e.failure = event == "PEER_DEAD" || event == "PEER_UNRESPONSIVE" || event == "PEER_TIMEOUT_DEAD" ||
                event == "PEER_KEEPALIVE_TIMEOUT" || event == "PEER_SEND_STUCK";
    if (doc.contains("peer") && doc["peer"].is_object()) e.host = rjStr(doc["peer"], "host");
    e.text = eventText(doc.dump());
    e.file = file();
    out.events.push_back(std::move(e));
  }

  void finding(ArtefactOut& out, const std::string& id, const std::string& host, int rank, const std::string& msg,
               const std::string& gpu) {
    ArtefactFinding f;
    f.id = id;
    f.host = host;
    f.rank = rank;
    f.message = msg;
    f.remedy = id == "ras.collective_lagging"
                   ? "the lagging ranks never launched the collective the others wait in: read their Python stacks "
                     "(py-spy dump, Flight Recorder) for a divergent code path, uneven data or a slow rank"
                   : "look at that node first: its kernel log (Xid, link events, OOM killer), its rank's log and "
                     "error file";
    f.file = file();
    f.text = msg;
    out.findings.push_back(f);
    if (id == "ras.unreadable") return;
    TimelineEvent e;
    e.kind = id;
    e.host = host;
    e.rank = rank;
    e.gpu = gpu;
    e.text = msg;
    e.file = file();
    out.events.push_back(std::move(e));
  }
};

class RasJsonKind final : public ArtefactKind {
 public:
  std::string description() const override { return "NCCL RAS JSON (STATUS or MONITOR)"; }
  int recognise(std::string_view head) const override {
    const bool status = head.find("\"communicators\"") != std::string_view::npos &&
                        (head.find("\"nccl_version\"") != std::string_view::npos ||
                         head.find("\"missing_ranks\"") != std::string_view::npos);
    const bool monitor =
        head.find("\"event\"") != std::string_view::npos && head.find("\"PEER_") != std::string_view::npos;
    const std::size_t i = head.find_first_not_of(" \t\r\n");
    return i != std::string_view::npos && head[i] == '{' && (status || monitor) ? 50 : 0;
  }
  std::unique_ptr<ArtefactReader> open(const std::string& file) const override {
    return std::make_unique<RasJsonReader>(file);
  }
};

}  // namespace

PF_REGISTER_ARTEFACT_KIND(RasJsonKind, "ras-json");

}  // namespace pf::doctor
