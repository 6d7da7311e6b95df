// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libFuzzer target: nccl.conf as NCCL's own settings reader sees it. The bytes become /etc/nccl.conf in a
// captured tree (and, through NCCL_CONF_FILE, the user's file too), read by readNcclSettings; the reader
// documents no error, so any exception, crash or hang is a bug. Seeds: corpus_nccl_conf here.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_input_file.hpp"
#include "nccl/nccl_conf.hpp"
#include "pf/environment.hpp"
#include "system_view.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pf::fuzz::writeInput("root/etc/nccl.conf", data, size);
  pf::Environment env({{"NCCL_CONF_FILE", "/etc/nccl.conf"}, {"NCCL_DEBUG", "INFO"}});
  pf::probes::SystemView sys(pf::fuzz::scratchDir() / "root", env);
  pf::probes::NcclSettings s = pf::probes::readNcclSettings(sys);
  for (const auto& [name, setting] : s.values) (void)s.describe(name);
  return 0;
}
