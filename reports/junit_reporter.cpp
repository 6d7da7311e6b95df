// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `--junit FILE` / `--format junit`: the result document as JUnit XML, the format CI systems (Jenkins, GitLab,
// GitHub test reporters) render. One <testsuite> per run; one <testcase> per result, plus one per node pair
// for "pairs" results so a dashboard shows every link. fail -> <failure>, error -> <error>, skipped and absent
// -> <skipped>; warn passes with the warning in <system-out> (the verdict decides, and a warning fails only
// under --strict, which the document's exit code already reflects).
#include <fmt/format.h>

#include <string>

#include "pf/pair_row.hpp"
#include "reporter.hpp"

namespace pf::reports {
namespace {

// XML 1.0 attribute/text escaping; control characters XML cannot carry become spaces.
std::string xml(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += (c < 0x20 && c != '\n' && c != '\t' && c != '\r') ? ' ' : static_cast<char>(c);
    }
  }
  return out;
}

struct Case {
  std::string classname, name, status, message, detail;
};

std::string renderCase(const Case& c) {
  std::string body;
  if (c.status == "fail")
    body = fmt::format("      <failure message=\"{}\" type=\"fail\">{}</failure>\n", xml(c.message), xml(c.detail));
  else if (c.status == "error")
    body = fmt::format("      <error message=\"{}\" type=\"error\">{}</error>\n", xml(c.message), xml(c.detail));
  else if (c.status == "skipped" || c.status == "absent")
    body = fmt::format("      <skipped message=\"{}\"/>\n", xml(c.status + ": " + c.message));
  if (!c.detail.empty() && body.find("<failure") == std::string::npos && body.find("<error") == std::string::npos)
    body += fmt::format("      <system-out>{}</system-out>\n", xml((c.status == "warn" ? "WARN: " : "") + c.detail));
  return fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"0\">\n{}    </testcase>\n", xml(c.classname),
                     xml(c.name), body);
}

class JunitReporter final : public Reporter {
 public:
  void end(const RunReport& r, Output& sink) override {
    std::vector<Case> cases;
    const std::string suite = "preflight." + r.context.command;
    for (const Result& res : r.results) {
      Case c{suite + "." + toString(res.kind), res.host.empty() ? res.key : res.key + " [" + res.host + "]",
             toString(res.status), res.message, res.message};
      if (!res.remedy.empty()) c.detail += "\nremedy: " + res.remedy;
      for (const Evidence& ev : res.evidence)
        c.detail += fmt::format("\nevidence: {} = {}{}{}", ev.what,
                                ev.value.is_string() ? ev.value.get<std::string>() : ev.value.dump(),
                                ev.unit.empty() ? "" : " " + ev.unit, ev.source.empty() ? "" : " (" + ev.source + ")");
      cases.push_back(std::move(c));
      if (res.kind != Kind::kPairs) continue;
      for (const Json& j : res.rows) {
        const PairRow row = pairRowFromJson(j);
        Case p{suite + ".pair",
               "pair " + row.host_a + "-" + row.host_b + (row.rail >= 0 ? " rail " + std::to_string(row.rail) : ""),
               toString(row.status), row.reason, ""};
        p.detail = fmt::format("a->b {} GB/s, b->a {} GB/s, latency {} us", row.bw_a_to_b_gbps, row.bw_b_to_a_gbps,
                               row.lat_us);
        if (p.message.empty()) p.message = p.detail;
        cases.push_back(std::move(p));
      }
    }
    int failures = 0, errors = 0, skipped = 0;
    for (const Case& c : cases) {
      failures += c.status == "fail";
      errors += c.status == "error" || c.status == "timeout";
      skipped += c.status == "skipped" || c.status == "absent";
    }
    double seconds = 0;
    for (const Phase& p : r.phases) seconds += p.seconds;
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += fmt::format(
        "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n",
        xml(suite), cases.size(), failures, errors, skipped, seconds);
    out += fmt::format(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\" "
        "timestamp=\"{}\" hostname=\"{}\">\n",
        xml(suite), cases.size(), failures, errors, skipped, seconds,
        xml(r.context.start_time.empty() ? "1970-01-01T00:00:00" : r.context.start_time.substr(0, 19)),
        xml(r.context.hostname));
    out += "    <properties>\n";
    out += fmt::format("      <property name=\"verdict\" value=\"{}\"/>\n", toString(r.verdict));
    out += fmt::format("      <property name=\"exit_code\" value=\"{}\"/>\n", r.exit_code);
    out += fmt::format("      <property name=\"nodes\" value=\"{}\"/>\n", r.context.node_count);
    out += "    </properties>\n";
    for (const Case& c : cases) out += renderCase(c);
    out += "  </testsuite>\n</testsuites>\n";
    sink.write(out);
  }
};

PF_REGISTER_REPORTER(JunitReporter, "junit");

}  // namespace
}  // namespace pf::reports
