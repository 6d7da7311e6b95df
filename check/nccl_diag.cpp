// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "nccl_diag.hpp"

#include <algorithm>
#include <cctype>

namespace pf::check {
namespace {

std::string checkDiagLower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

}  // namespace

std::vector<Finding> ncclDiagFindings(const std::vector<NcclDiagLine>& lines, const std::string& defaultHost) {
  std::vector<Finding> out;
  bool inProblem = false;  // detail lines (untagged) follow the tagged line they explain
  for (const NcclDiagLine& l : lines) {
    const std::string host = l.host.empty() ? defaultHost : l.host;
    if (l.tag.empty()) {
      const bool frame = l.text.starts_with("===") || l.text.find("completed in") != std::string::npos;
      if (inProblem && !frame && !out.empty()) out.back().evidence.push_back({"NCCL DIAG detail", l.text, "", host});
      if (frame) inProblem = false;
      continue;
    }
    inProblem = l.tag != "OK";
    if (!inProblem) continue;
    Finding f;
    std::string key = checkDiagLower(l.area);
    std::replace(key.begin(), key.end(), ' ', '_');
    f.check = "nccl.diag." + key;
    f.status = l.tag == "WARN" || ncclDiagIsProblem(checkDiagLower(l.area), l.text) ? Status::kFail : Status::kWarn;
    f.hosts = {host};
    f.message = host + ": NCCL's diagnostics report [" + l.tag + "] " + l.text;
    f.remedy = ncclDiagRemedy(l.area, l.text);
    f.evidence.push_back({"NCCL DIAG line", "[" + l.tag + "] " + l.text, "", host});
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<Finding> engineDiagnostics(const Json& engineInfo, const std::string& host) {
  if (!engineInfo.is_object() || !engineInfo.contains("nccl_diagnostics")) return {};
  std::string text;
  for (const Json& line : engineInfo["nccl_diagnostics"])
    if (line.is_string()) text += line.get<std::string>() + "\n";
  return ncclDiagFindings(parseNcclDiag(text), host);
}

}  // namespace pf::check
