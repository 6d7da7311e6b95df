// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Every output format behind one streaming interface, the only code that renders a result for a person or a
// program. A command calls, on rank 0:
//
//   begin(context)                   once, before anything is measured
//   rows(running, first)             while a long result runs: its rows from index `first` on are new
//   result(finished)                 each result as it is complete
//   end(report)                      once, with the whole document, verdict set
//
// `preflight report FILE` replays a saved document through the same calls (renderDocument), so it prints
// exactly what the command printed live. Reporters read the result model (pf/result.hpp and the typed
// summaries in pf/results/) and nothing else: never MPI, CUDA or NCCL.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "pf/error.hpp"
#include "pf/registry.hpp"
#include "pf/result.hpp"

namespace pf::reports {

/// How a person asked to see it. Part of the command line of both the live command and `preflight report`.
struct ReportOptions {
  bool strict = false;         ///< warnings fail (the summary line says so)
  bool quiet = false;          ///< check and pairs: the verdict line alone (prologs)
  bool verbose = false;        ///< every evidence line (doctor), every process
  bool iterColumns = false;    ///< sweep table: p50, p99 and skew columns
  double snapshotSeconds = 5;  ///< a document written to a file is rewritten, partial, at most this often
};

/// Where a reporter's text goes: stdout as it is written, a file written atomically at the end (a
/// node_exporter textfile must never be seen half written), or memory (renderDocument, tests).
class Output {
 public:
  /// @param path "-" for stdout, "" for memory, else a file path (checkWritable it before the run)
  explicit Output(std::string path);
  void write(const std::string& text);
  /// Replaces the whole file now, atomically (the partial document of a long run); no-op elsewhere.
  void snapshot(const std::string& whole) const;
  /// Writes the file, or flushes stdout. Called once, after end().
  void close();
  bool toStdout() const { return path_ == "-"; }
  bool toFile() const { return !path_.empty() && path_ != "-"; }
  /// The file it writes ("-" stdout, "" memory): a Markdown report writes its charts beside it.
  const std::string& path() const { return path_; }
  /// What was written, for a memory or file output.
  const std::string& text() const { return buffer_; }

 private:
  std::string path_, buffer_;
};

/// key() is the format name as given to --format ("table", "json", ...), handed over by the registry.
class Reporter : public Registered {
 public:
  virtual void begin(const Context& /*context*/, Output& /*out*/) {}
  virtual void rows(const Result& /*running*/, std::size_t /*first*/, Output& /*out*/) {}
  virtual void result(const Result& /*finished*/, Output& /*out*/) {}
  virtual void end(const RunReport& report, Output& out) = 0;
  /// The run is being stopped before end() (SIGINT, SIGTERM, --timeout): a file output writes what it has now,
  /// marked partial, with `why` and `code` in it, and returns true. The process ends right after.
  virtual bool interrupted(const std::string& /*why*/, ExitCode /*code*/, Output& /*out*/) { return false; }

 protected:
  const ReportOptions& options() const { return options_; }

 private:
  friend std::unique_ptr<Reporter> makeReporter(const std::string& format, const ReportOptions& options);
  ReportOptions options_;
};

/// The reporter for `format`. @throws UsageError listing the known formats.
std::unique_ptr<Reporter> makeReporter(const std::string& format, const ReportOptions& options = {});
std::vector<std::string> reporterFormats();

/// Replays a finished document through a reporter (begin, rows of each result, result, end) into a string:
/// what `preflight report` prints, and byte for byte what the command printed live.
std::string renderDocument(const std::string& format, const RunReport& report, const ReportOptions& options = {});

}  // namespace pf::reports

#define PF_REGISTER_REPORTER(Type, key) PF_REGISTER(::pf::reports::Reporter, Type, key)
