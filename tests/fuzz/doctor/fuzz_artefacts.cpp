// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libFuzzer target: the artefact readers (doctor/artefacts/) over arbitrary input. The input is recognised as the
// command does it, then read by every kind (so each parser meets every input, not only the ones it would be given),
// in blocks cut at line ends; the session's timeline result is dumped strictly (its strings must be valid UTF-8).
// Seeds: tests/fixtures/doctor-artefacts.
#include <cstddef>
#include <cstdint>
#include <string>

#include "analysis.hpp"
#include "artefacts/artefact.hpp"
#include "artefacts/clock.hpp"
#include "artefacts/placement.hpp"
#include "artefacts/timeline.hpp"
#include "pf/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const pf::doctor::Catalog catalog = pf::doctor::builtinCatalog();
  static const pf::doctor::Analysis empty = pf::doctor::analyze(catalog, {});
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string why;
  (void)pf::doctor::recogniseArtefact(std::string_view(text).substr(0, pf::doctor::kHeadBytes), why);
  (void)pf::doctor::parseStamp(text);
  (void)pf::doctor::parseEpochSeconds(text);
  // A path naming a host: the input as the path, hosts that are words of it, prefixes of it and a separator.
  (void)pf::doctor::hostNamedByPath(text, {"node3", "a", "-", text.substr(0, size % 7), text.substr(size / 2)});
  const std::size_t cut = size > 0 ? text.find('\n', data[0] % size) : std::string::npos;
  for (const pf::doctor::ArtefactKind* k : pf::doctor::artefactKinds()) {
    pf::doctor::ArtefactOut out;
    auto r = k->open("fuzz");
    if (cut == std::string::npos) {
      r->block(text);
    } else {
      r->block(std::string_view(text).substr(0, cut + 1));
      r->block(std::string_view(text).substr(cut + 1));
    }
    r->finish(out);
    for (const auto& e : out.events)
      if (e.file != "fuzz") __builtin_trap();
  }
  // The whole session, as the command runs it: recognise, read, order, report.
  pf::doctor::ArtefactSession s;
  pf::doctor::InputPlan p = s.planner()("fuzz", std::string_view(text).substr(0, pf::doctor::kHeadBytes));
  if (p.tap) p.tap(text);
  if (p.done) p.done();
  (void)pf::toJson(s.result(empty, {})).dump();
  return 0;
}
