// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libFuzzer target: the Flight Recorder reader (pickle and JSON forms) and the analysis over arbitrary bytes.
// Anything but a dump must end in a UsageError (PickleError for the pickle form), never a crash, a hang or a
// leak; a dump that reads must analyse and render (strict JSON dump: every string valid UTF-8). Seeds: the real
// dumps of tests/fixtures/flight-recorder.
#include <cstddef>
#include <cstdint>
#include <string>

#include "flight_recorder/analysis.hpp"
#include "flight_recorder/pickle_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  using namespace pf::doctor::fr;
  try {
    Dump d = parseDump(bytes, "fuzz/rank_0", 0);
    Dump other = d;
    other.rank = 1;
    other.path = "fuzz/rank_1";
    const Report r = analyse({d, other});
    (void)r.toJson().dump();
    (void)r.lines();
  } catch (const PickleError& e) {
    if (e.input() != "fuzz/rank_0" || e.offset() > size) __builtin_trap();
  } catch (const pf::UsageError&) {
  }
  return 0;
}
