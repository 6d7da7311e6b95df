// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "common_options.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iostream>
#include <thread>

#include "pf/environment.hpp"
#include "pf/error.hpp"
#include "pf/launcher_env.hpp"
#include "pf/report_io.hpp"

namespace pf::cli {

void CommonOptions::addOutputs(CLI::App& app) {
  app.add_option("--format", format, fmt::format("what stdout shows: {}", fmt::join(reports::reporterFormats(), ", ")))
      ->capture_default_str();
  app.add_option("--output", output, "write the --format output to FILE atomically instead of stdout")
      ->capture_default_str();
  app.add_option("--json", json, "write the result document to FILE ('-' = stdout, replacing the table)");
  app.add_option("--junit", junit, "write JUnit XML to FILE");
}

void CommonOptions::addStrict(CLI::App& app) { app.add_flag("--strict", strict, "warnings fail too (exit 1)"); }

void CommonOptions::addQuiet(CLI::App& app) {
  app.add_flag("-q,--quiet", view.quiet, "print only the verdict line (Slurm prologs, health checks)");
}

void CommonOptions::addLocalRanks(CLI::App& app) {
  // 0 or a negative count used to run one rank and report nonsense figures; it is a usage error (exit 2).
  const CLI::Validator atLeastOne(
      [](std::string& value) -> std::string {
        try {
          if (std::stoll(value) >= 1) return "";
        } catch (const std::exception&) {
          return "";  // not a number: CLI11's own conversion error names it
        }
        return "must be 1 or more (the number of ranks to start on this machine), not " + value;
      },
      "N>=1");
  app.add_option("--local-ranks", localRanks, "with no launcher, start N ranks on this machine through mpirun")
      ->capture_default_str()
      ->check(atLeastOne);
}

void CommonOptions::addEnvFile(CLI::App& app, const std::string& what) {
  app.add_option("--env-file", envFile,
                 fmt::format("take the environment ({}) from FILE (KEY=VALUE lines) instead of the process", what));
}

void CommonOptions::addTimeout(CLI::App& app) {
  app.add_option("--timeout", timeoutSeconds, "give up after S seconds with exit code 4 (0 = no limit)")
      ->capture_default_str();
}

int maxLocalRanks() { return std::max(8, 4 * static_cast<int>(std::thread::hardware_concurrency())); }

void CommonOptions::validateOutputs() const {
  reports::makeReporter(format);  // throws UsageError listing the formats
  if (json == "-" && output == "-" && format != "table" && format != "summary" && format != "json")
    throw UsageError(
        fmt::format("--json - and --format {} would both write to stdout: give --json or --output a FILE", format));
  // !(in range): nan compares false both ways. Above kMaxTimeoutSeconds the deadline overflows the clock's
  // nanoseconds (about 9.2e9 s) and the run would end at once as timed out.
  if (!(timeoutSeconds >= 0 && timeoutSeconds <= kMaxTimeoutSeconds))
    throw UsageError(fmt::format("--timeout {} is not a number of seconds from 0 (no limit) to {} (30 days)",
                                 timeoutSeconds, kMaxTimeoutSeconds));
  if (localRanks > maxLocalRanks())
    throw UsageError(
        fmt::format("--local-ranks {} is more ranks than this machine runs usefully: at most {} (4 per "
                    "CPU core, {} cores here); more only time-share the cores, spinning in MPI's busy "
                    "waits. Use a launcher (srun, mpirun -H) to spread ranks over nodes",
                    localRanks, maxLocalRanks(), std::thread::hardware_concurrency()));
  if (!writesOutputs()) return;
  if (output != "-") checkWritable(output);
  checkWritable(json);
  checkWritable(junit);
}

bool writesOutputs() {
  // Rank 0 writes every output file; the other ranks of a launched job write none, and their space probes
  // (checkWritable writes a byte beside the target) would race rank 0's for the last free block of a nearly full
  // disk, failing a run that has room. A process outside any launcher (the one that starts --local-ranks) is rank 0.
  return detectLauncher(Environment::fromProcess()).rank == 0;
}

reports::Outputs CommonOptions::makeOutputs() const {
  std::vector<reports::OutputSpec> specs;
  // `--json -` puts the document on stdout in place of the terminal text (a script reads one JSON document
  // there); validateOutputs has refused any other format that would share stdout with it.
  if (!(json == "-" && output == "-")) specs.push_back({format, output});
  if (!json.empty()) specs.push_back({"json", json});
  if (!junit.empty()) specs.push_back({"junit", junit});
  reports::ReportOptions o = view;
  o.strict = strict;
  reports::Outputs outputs(specs, o);
  std::lock_guard lock(partial->mutex);
  partial->write = outputs.partialWriter();
  return outputs;
}

std::vector<std::string> CommonOptions::writePartial(const std::string& why, ExitCode code) const {
  reports::Outputs::PartialWriter write;
  {
    std::lock_guard lock(partial->mutex);
    write = partial->write;
  }
  if (!write) return {};
  try {
    return write(why, code);
  } catch (const Error& e) {  // a full disk: the process is ending anyway, say why the document is older
    std::cerr << fmt::format("preflight: cannot write the partial document: {}", e.what()) << std::endl;
    return {};
  }
}

std::vector<std::string> CommonOptions::documentFiles() const {
  std::vector<std::string> files;
  if (!json.empty() && json != "-") files.push_back(json);
  if (format == "json" && output != "-") files.push_back(output);
  return files;
}

Environment CommonOptions::environment() const {
  return envFile.empty() ? Environment::fromProcess() : Environment::fromFile(envFile);
}

}  // namespace pf::cli
