// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `--format prometheus`: the result document as a node_exporter textfile (Prometheus text exposition format
// 0.0.4). Rules kept here: every family has one # HELP and one # TYPE line before its samples, and its samples
// are contiguous; metric names match [a-zA-Z_:][a-zA-Z0-9_:]*, label names [a-zA-Z_][a-zA-Z0-9_]*; label values
// escape backslash, double quote and newline; no sample timestamps (the textfile collector rejects them);
// the file ends with a newline. Gauges only: every figure is a state as of the run.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "pf/pair_row.hpp"
#include "reporter.hpp"

namespace pf::reports {
namespace {

std::string escapeLabel(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", v);
}

using Labels = std::vector<std::pair<std::string, std::string>>;

// Collects samples per family so each family is written once, in one block, whatever order they arrive in.
class Exposition {
 public:
  void add(const std::string& name, const std::string& help, const Labels& labels, double value) {
    if (!families_.count(name)) order_.push_back(name);
    Family& f = families_[name];
    f.help = help;
    std::string l;
    for (const auto& [k, v] : labels) l += fmt::format("{}{}=\"{}\"", l.empty() ? "" : ",", k, escapeLabel(v));
    // Two results may share a label set (two findings of one check on the whole run): a sample must be unique, so
    // the family keeps the larger value, which for severities and failure flags is the worse one.
    auto [it, added] = f.index.emplace(l, f.samples.size());
    if (added)
      f.samples.push_back({l, value});
    else
      f.samples[it->second].second = std::max(f.samples[it->second].second, value);
  }
  std::string str() const {
    std::string out;
    for (const std::string& name : order_) {
      const Family& f = families_.at(name);
      out += fmt::format("# HELP {} {}\n# TYPE {} gauge\n", name, f.help, name);
      for (const auto& [labels, value] : f.samples) out += fmt::format("{}{{{}}} {}\n", name, labels, number(value));
    }
    return out;
  }

 private:
  struct Family {
    std::string help;
    std::vector<std::pair<std::string, double>> samples;
    std::map<std::string, size_t> index;
  };
  std::vector<std::string> order_;
  std::map<std::string, Family> families_;
};

// "2026-11-22T10:00:00Z" -> seconds since the epoch; NaN when it does not parse.
double epochSeconds(const std::string& iso) {
  std::tm tm{};
  if (!strptime(iso.c_str(), "%Y-%m-%dT%H:%M:%S", &tm)) return std::nan("");
  return static_cast<double>(timegm(&tm));
}

// Severity as a number, in Status order: pass 0, skipped 1, absent 2, warn 3, fail 4, error 5.
double severity(Status s) { return static_cast<double>(static_cast<int>(s)); }

class PrometheusReporter final : public Reporter {
 public:
  void end(const RunReport& r, Output& out) override {
    Exposition e;
    const std::string cmd = r.context.command;
    e.add("preflight_pass", "1 when the run passed (exit code 0), else 0", {{"command", cmd}}, r.exit_code == 0);
    e.add("preflight_exit_code", "exit code of the run (0 pass, 1 check failed, 2 usage, 3 runtime, 4 timeout)",
          {{"command", cmd}}, r.exit_code);
    e.add("preflight_verdict_severity", "worst status: 0 pass, 1 skipped, 2 absent, 3 warn, 4 fail, 5 timeout, 6 error",
          {{"command", cmd}}, severity(r.verdict));
    e.add("preflight_last_run_timestamp_seconds", "end of the run, seconds since the epoch", {{"command", cmd}},
          epochSeconds(r.context.end_time.empty() ? r.context.start_time : r.context.end_time));
    e.add("preflight_nodes", "nodes in the run", {{"command", cmd}}, r.context.node_count);
    for (const Phase& p : r.phases)
      e.add("preflight_phase_seconds", "wall time of each phase", {{"command", cmd}, {"phase", p.name}}, p.seconds);
    std::set<std::string> hosts, failing;
    for (const Result& res : r.results) {
      e.add("preflight_result_severity",
            "status of each result: 0 pass, 1 skipped, 2 absent, 3 warn, 4 fail, 5 timeout, 6 error",
            {{"command", cmd}, {"key", res.key}, {"kind", toString(res.kind)}, {"host", res.host}},
            severity(res.status));
      // A finding may name several nodes ("node0,node1" for a link).
      std::string h = res.host;
      for (size_t start = 0; !h.empty() && start <= h.size();) {
        size_t comma = h.find(',', start);
        std::string one = h.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!one.empty()) {
          hosts.insert(one);
          if (res.status == Status::kFail || res.status == Status::kTimeout || res.status == Status::kError)
            failing.insert(one);
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      if (res.kind == Kind::kPairs) addPairs(e, cmd, res, hosts);
    }
    for (const std::string& h : hosts)
      e.add("preflight_node_failed", "1 when a check failed on this node (drain candidate), else 0",
            {{"command", cmd}, {"host", h}}, failing.count(h) ? 1 : 0);
    out.write(e.str());
  }

 private:
  static void addPairs(Exposition& e, const std::string& cmd, const Result& res, std::set<std::string>& hosts) {
    for (const Json& j : res.rows) {
      const PairRow row = pairRowFromJson(j);
      const std::string& a = row.host_a;
      const std::string& b = row.host_b;
      hosts.insert(a);
      hosts.insert(b);
      // Base units, as Prometheus' naming rules ask (and promtool's linter checks): bytes/s and seconds.
      // With several rails (check --rails) a pair has a series per rail: the rail label keeps them apart.
      auto labels = [&](Labels l) {
        if (row.rail >= 0) l.push_back({"rail", std::to_string(row.rail)});
        return l;
      };
      const char* help = "node-pair bandwidth of large messages, bytes per second";
      e.add("preflight_pair_bandwidth_bytes_per_second", help, labels({{"command", cmd}, {"src", a}, {"dst", b}}),
            row.bw_a_to_b_gbps * 1e9);
      e.add("preflight_pair_bandwidth_bytes_per_second", help, labels({{"command", cmd}, {"src", b}, {"dst", a}}),
            row.bw_b_to_a_gbps * 1e9);
      e.add("preflight_pair_latency_seconds", "node-pair small-message latency (half round trip), seconds",
            labels({{"command", cmd}, {"node_a", a}, {"node_b", b}}), row.lat_us * 1e-6);
      if (row.pct_of_expected)
        e.add("preflight_pair_expected_ratio", "pair bandwidth over the expected bandwidth (1 = as expected)",
              labels({{"command", cmd}, {"node_a", a}, {"node_b", b}}), *row.pct_of_expected / 100);
    }
  }
};

PF_REGISTER_REPORTER(PrometheusReporter, "prometheus");

}  // namespace
}  // namespace pf::reports
