// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// nccl-tests' JSON (`-J FILE`, NVIDIA/nccl-tests src/util.cu): {"version", "start_time": "%Y-%m-%d %H:%M:%S",
// "args", "env", "nccl_version", "config": {...}, "results": [{"size", "type", "redop", "in_place": {"time",
// "alg_bw", "bus_bw", "nwrong"}, "out_of_place": {...}}], "out_of_bounds": {"count", "okay"},
// "average_bus_bandwidth": {"bandwidth", "okay"}, "errors": [...], "end_time"}. Findings: wrong results (rows with
// #wrong, or out_of_bounds not okay), NCCL errors the test printed, an average bus bandwidth below the -c check,
// and a run that never wrote its end (a hang or a crash: the document stops early or has no end_time).
#include <fmt/format.h>

#include "artefact.hpp"
#include "clock.hpp"
#include "document_reader.hpp"

namespace pf::doctor {
namespace {

class NcclTestsJsonReader final : public DocumentReader {
 public:
  using DocumentReader::DocumentReader;

 private:
  const char* what() const override { return "nccl-tests JSON file"; }

  void read(const std::string& text, ArtefactOut& out) override {
    const Json doc = Json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
      finding(out, "nccl_tests.incomplete", false,
              "the nccl-tests JSON stops before its end: the run hung or died while writing it", Stamp{});
      return;
    }
    auto str = [&](const Json& j, const char* k) {
      return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string();
    };
    const Stamp start = parseStamp(str(doc, "start_time")), end = parseStamp(str(doc, "end_time"));
    if (start.clock != Clock::kNone) {
      TimelineEvent e;
      e.stamp = start;
      e.kind = "nccl-tests-start";
      e.failure = false;
      e.text = "nccl-tests started";
      e.file = file();
      out.events.push_back(std::move(e));
    }
    if (!doc.contains("end_time"))
      finding(out, "nccl_tests.incomplete", false, "the nccl-tests run wrote no end_time: it did not finish", start);
    std::vector<std::string> wrong;
    if (doc.contains("results") && doc["results"].is_array())
      for (const Json& r : doc["results"])
        for (const char* place : {"in_place", "out_of_place"})
          if (r.is_object() && r.contains(place) && r[place].is_object() && r[place].contains("nwrong") &&
              r[place]["nwrong"].is_number() && r[place]["nwrong"].get<double>() > 0)
            wrong.push_back(fmt::format("{} bytes {} {}", r.value("size", Json(0)).dump(), str(r, "type"), place));
    const bool oob = doc.contains("out_of_bounds") && doc["out_of_bounds"].is_object() &&
                     doc["out_of_bounds"].contains("okay") && doc["out_of_bounds"]["okay"] == false;
    if (!wrong.empty() || oob)
      finding(out, "nccl_tests.wrong_results", true,
              fmt::format("nccl-tests found wrong results{}{}", wrong.empty() ? "" : ": ",
                          wrong.empty() ? "" : wrong.front() + (wrong.size() > 1 ? " and more" : "")),
              end);
    if (doc.contains("average_bus_bandwidth") && doc["average_bus_bandwidth"].is_object() &&
        doc["average_bus_bandwidth"].contains("okay") && doc["average_bus_bandwidth"]["okay"] == false)
      finding(out, "nccl_tests.low_bandwidth", true,
              "the average bus bandwidth " + doc["average_bus_bandwidth"].value("bandwidth", Json()).dump() +
                  " GB/s is below the -c check",
              end);
    if (doc.contains("errors") && doc["errors"].is_array())
      for (const Json& err : doc["errors"])
        if (err.is_string() && !err.get<std::string>().empty())
          finding(out, "nccl_tests.error", true, "nccl-tests: " + err.get<std::string>(), end);
  }

  void finding(ArtefactOut& out, const std::string& id, bool fail, const std::string& message, const Stamp& when) {
    ArtefactFinding f;
    f.id = id;
    f.fail = fail;
    f.message = eventText(message);
    f.remedy = id == "nccl_tests.wrong_results"   ? "data came back wrong: run `preflight check` on these nodes (GPU "
                                                    "health, Xid, PCIe ACS) and rerun nccl-tests with -c 1"
               : id == "nccl_tests.low_bandwidth" ? "compare with `preflight pairs` to find the slow pair or rail"
                                                  : "read the NCCL log of the run (NCCL_DEBUG=INFO) for the failure";
    f.file = file();
    f.text = f.message;
    out.findings.push_back(f);
    TimelineEvent e;
    e.stamp = when;
    e.kind = id;
    e.failure = fail;
    e.text = f.message;
    e.file = file();
    out.events.push_back(std::move(e));
  }
};

class NcclTestsJsonKind final : public ArtefactKind {
 public:
  std::string description() const override { return "nccl-tests JSON (-J)"; }
  int recognise(std::string_view head) const override {
    if (!looksLikeJsonDocument(head) || head.find("\"nccl_version\"") == std::string_view::npos) return 0;
    const bool shape =
        head.find("\"config\"") != std::string_view::npos || head.find("\"results\"") != std::string_view::npos ||
        (head.find("\"args\"") != std::string_view::npos && head.find("\"start_time\"") != std::string_view::npos);
    return shape && head.find("\"communicators\"") == std::string_view::npos ? 50 : 0;
  }
  std::unique_ptr<ArtefactReader> open(const std::string& file) const override {
    return std::make_unique<NcclTestsJsonReader>(file);
  }
};

}  // namespace

PF_REGISTER_ARTEFACT_KIND(NcclTestsJsonKind, "nccl-tests-json");

}  // namespace pf::doctor
