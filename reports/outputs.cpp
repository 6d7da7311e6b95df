// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "outputs.hpp"

#include <chrono>

#include "pf/report_io.hpp"

namespace pf::reports {

Outputs::Outputs(const std::vector<OutputSpec>& specs, const ReportOptions& options) {
  for (const OutputSpec& s : specs) {
    auto reporter = makeReporter(s.format, options);
    checkWritable(s.path);
    state_->sinks.emplace_back(std::move(reporter), Output(s.path));
  }
}

void Outputs::begin(const Context& context) {
  std::lock_guard lock(state_->mutex);
  for (auto& [r, out] : state_->sinks) r->begin(context, out);
}

void Outputs::rows(const Result& running, std::size_t first) {
  std::lock_guard lock(state_->mutex);
  for (auto& [r, out] : state_->sinks) r->rows(running, first, out);
}

void Outputs::result(const Result& finished) {
  std::lock_guard lock(state_->mutex);
  for (auto& [r, out] : state_->sinks) r->result(finished, out);
}

void Outputs::end(const RunReport& report) {
  std::lock_guard lock(state_->mutex);
  for (auto& [r, out] : state_->sinks) {
    r->end(report, out);
    out.close();
  }
}

void Outputs::replay(const RunReport& report) {
  begin(report.context);
  for (const Result& r : report.results) {
    if (!r.rows.empty()) rows(r, 0);
    result(r);
  }
  end(report);
}

Outputs::PartialWriter Outputs::partialWriter() const {
  return [weak = std::weak_ptr<State>(state_)](const std::string& why, ExitCode code) {
    std::vector<std::string> written;
    std::shared_ptr<State> state = weak.lock();
    if (!state) return written;
    std::unique_lock lock(state->mutex, std::chrono::seconds(2));
    if (!lock.owns_lock()) return written;
    for (auto& [r, out] : state->sinks) {
      if (out.toFile() && r->interrupted(why, code, out)) written.push_back(out.path());
    }
    return written;
  };
}

}  // namespace pf::reports
