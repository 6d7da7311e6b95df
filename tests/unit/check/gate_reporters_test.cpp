// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The Prometheus textfile and JUnit XML reporters on a failing check document; both outputs are also validated
// by tests/cluster/validate_outputs.py (the Prometheus text-format rules; xml.etree for JUnit).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "pair_analysis.hpp"
#include "pair_fixtures.hpp"
#include "pf/verdict.hpp"
#include "reporter.hpp"
#include "verdict.hpp"

namespace pf::check {
namespace {

using ::testing::HasSubstr;

RunReport failingCheck() {
  auto m = testing::makeMatrix(4, 1.5, {2});
  PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{});
  RunReport r;
  r.context.command = "check";
  r.context.hostname = "node0";
  r.context.node_count = 4;
  r.context.start_time = "2026-11-22T10:00:00Z";
  r.context.end_time = "2026-11-22T10:00:05Z";
  r.phases = {{"probes", 0.1}, {"allreduce", 0.5}, {"pairs", 1.2}, {"verdict", 0.001}};
  Result pairs;
  pairs.key = "pairs";
  pairs.kind = Kind::kPairs;
  pairs.status = a.status;
  pairs.message = "3 of 6 pairs outside limits";
  for (const PairRow& row : m.rows) pairs.rows.push_back(toJson(row));
  r.results.push_back(pairs);
  for (Result& f : findingsToResults(a.findings)) r.results.push_back(f);
  // Hostile text: quotes, backslashes, newlines and XML markup must be escaped, not break the formats.
  Result odd;
  odd.key = "check.odd";
  odd.kind = Kind::kCheck;
  odd.status = Status::kWarn;
  odd.host = "we\"ird\\host\nname";
  odd.message = "<b>&'\"</b>\x01";
  r.results.push_back(odd);
  Result skipped;
  skipped.key = "check.probes";
  skipped.kind = Kind::kCheck;
  skipped.status = Status::kSkipped;
  skipped.message = "no probes";
  r.results.push_back(skipped);
  applyVerdict(r, false);
  return r;
}

int validate(const std::string& kind, const std::string& text) {
  auto path = std::filesystem::temp_directory_path() / ("pf_gate_" + kind + "_" + std::to_string(::getpid()));
  std::ofstream(path) << text;
  int rc = std::system((std::string(PF_PYTHON) + " " + PF_VALIDATE_OUTPUTS + " " + kind + " " + path.string()).c_str());
  // Prometheus' own checker (and linter) too, where installed (ci/packages.extra installs it).
  if (rc == 0 && kind == "prometheus" && std::system("command -v promtool >/dev/null") == 0)
    rc = std::system(("promtool check metrics < " + path.string()).c_str());
  std::filesystem::remove(path);
  return rc;
}

TEST(PrometheusReporter, NodeExporterTextfile) {
  RunReport r = failingCheck();
  std::string t = reports::renderDocument("prometheus", r);
  EXPECT_THAT(t, HasSubstr("preflight_pass{command=\"check\"} 0\n"));
  EXPECT_THAT(t, HasSubstr("preflight_exit_code{command=\"check\"} 1\n"));
  EXPECT_THAT(t, HasSubstr("preflight_node_failed{command=\"check\",host=\"node2\"} 1\n"));
  EXPECT_THAT(t, HasSubstr("preflight_node_failed{command=\"check\",host=\"node0\"} 0\n"));
  EXPECT_THAT(t, HasSubstr("preflight_phase_seconds{command=\"check\",phase=\"pairs\"} 1.2\n"));
  EXPECT_THAT(
      t,
      HasSubstr("preflight_pair_bandwidth_bytes_per_second{command=\"check\",src=\"node0\",dst=\"node2\"} 25000000\n"));
  EXPECT_THAT(t, HasSubstr("preflight_last_run_timestamp_seconds{command=\"check\"} 1795341605\n"));
  EXPECT_THAT(t, HasSubstr("host=\"we\\\"ird\\\\host\\nname\""));
  EXPECT_EQ(t.back(), '\n');
  EXPECT_EQ(validate("prometheus", t), 0) << t;
}

TEST(JunitReporter, FailuresSkipsAndEscaping) {
  RunReport r = failingCheck();
  std::string x = reports::renderDocument("junit", r);
  EXPECT_THAT(x, HasSubstr("<testsuite name=\"preflight.check\""));
  EXPECT_THAT(x, HasSubstr("name=\"check.pairs.node_bandwidth [node2]\""));
  EXPECT_THAT(x, HasSubstr("<failure message=\"node2: 3 of its 3 pairs are slow"));
  EXPECT_THAT(x, HasSubstr("name=\"pair node0-node2\""));
  EXPECT_THAT(x, HasSubstr("<skipped message=\"skipped: no probes\"/>"));
  EXPECT_THAT(x, HasSubstr("&lt;b&gt;&amp;&apos;&quot;&lt;/b&gt;"));
  EXPECT_EQ(validate("junit", x), 0) << x;
}

// A check over 2 rails (check --rails): the text summary counts pairs and rails, the table names each row's NICs,
// and the Prometheus series of one pair stay apart by a rail label (promtool rejects duplicate series).
TEST(GateReporters, RowsOfSeveralRails) {
  RunReport r = failingCheck();
  Result& pairs = r.results.front();
  pairs.rows.clear();
  auto m = testing::makeMatrix(4, 1.5, {2});
  for (int rail = 0; rail < 2; ++rail)
    for (PairRow row : m.rows) {
      row.rail = rail;
      row.nic_a = row.nic_b = "ib" + std::to_string(rail);
      pairs.rows.push_back(toJson(row));
    }
  pairs.metrics["rails"] = 2;
  pairs.metrics["rounds"] = 3;
  const std::string table = reports::renderDocument("table", r);
  EXPECT_THAT(table, HasSubstr("6 pairs on 2 rails in 3 rounds"));
  EXPECT_THAT(table, HasSubstr("slowest node1-node2 on rail 0 (ib0) 0.025 GB/s"));
  EXPECT_THAT(table, HasSubstr("status  rail\n"));
  EXPECT_THAT(table, HasSubstr("    pass  1 ib1\n"));
  const std::string t = reports::renderDocument("prometheus", r);
  EXPECT_THAT(t, HasSubstr("preflight_pair_bandwidth_bytes_per_second{command=\"check\",src=\"node0\",dst=\"node2\","
                           "rail=\"1\"} 25000000\n"));
  EXPECT_EQ(validate("prometheus", t), 0) << t;
  const std::string x = reports::renderDocument("junit", r);
  EXPECT_THAT(x, HasSubstr("name=\"pair node0-node2 rail 1\""));
  EXPECT_EQ(validate("junit", x), 0) << x;
}

}  // namespace
}  // namespace pf::check
