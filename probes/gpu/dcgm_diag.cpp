// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "gpu/dcgm_diag.hpp"

#include <fmt/format.h>

#include <map>
#include <stdexcept>

namespace pf::probes {
namespace {

// DCGM_FR_* codes (NVIDIA/DCGM dcgmlib/dcgm_errors.h) grouped by what a person does about them; the remedies are
// ours, after DCGM's own suggestions and its "Diagnostic Errors" page
// (https://docs.nvidia.com/datacenter/dcgm/latest/reference/diagnostics/errors.html).
struct DcgmCodeInfo {
  const char* name;
  const char* remedy;
};
constexpr const char* kDcgmResetGpu =
    "drain the GPU's jobs and reset it (nvidia-smi -r -i <GPU>) or reboot; if it "
    "returns after the reset, drain the node and RMA the GPU";
constexpr const char* kDcgmApplyPending =
    "reset the GPU (nvidia-smi -r -i <GPU>) or reboot so the pending retirement or "
    "remap takes effect, then rerun the diagnostic";
constexpr const char* kDcgmReplaceGpu =
    "drain the node and replace the GPU (RMA): its memory cannot be repaired in place";
constexpr const char* kDcgmCooling =
    "check the node's cooling (fans, airflow, inlet temperature, the BMC's sensor log) "
    "and rerun; drain the node if the GPU keeps throttling";
constexpr const char* kDcgmPower =
    "check the GPU's power cables, the PSUs and the power limit (nvidia-smi -q -d POWER)";
constexpr const char* kDcgmNvlink =
    "reset the GPU and rerun; if the link stays down or keeps erring, reseat the board "
    "and check the NVSwitch side (nvidia-smi nvlink -s, the fabric manager's log)";
constexpr const char* kDcgmNvswitch =
    "read the fabric manager's log (/var/log/fabricmanager.log) for the SXid, reset the "
    "GPUs and NVSwitches (reboot) and drain the node if it recurs";
constexpr const char* kDcgmPcie =
    "reseat the GPU or its riser, check the slot's PCIe generation and bifurcation in the "
    "BIOS; drain the node if the link stays degraded";
constexpr const char* kDcgmPerf =
    "look for throttling (nvidia-smi -q -d PERFORMANCE) and other work on the GPU, rerun; "
    "if the shortfall reproduces on an idle GPU, drain the node for the vendor";

const std::map<int, DcgmCodeInfo>& dcgmCodes() {
  static const std::map<int, DcgmCodeInfo> codes = {
      {3, {"DCGM_FR_PCI_REPLAY_RATE", kDcgmPcie}},
      {4, {"DCGM_FR_VOLATILE_DBE_DETECTED", kDcgmResetGpu}},
      {6, {"DCGM_FR_PENDING_PAGE_RETIREMENTS", kDcgmApplyPending}},
      {7, {"DCGM_FR_RETIRED_PAGES_LIMIT", kDcgmReplaceGpu}},
      {8, {"DCGM_FR_RETIRED_PAGES_DBE_LIMIT", kDcgmReplaceGpu}},
      {9, {"DCGM_FR_CORRUPT_INFOROM", "contact the vendor: the InfoROM needs reflashing (RMA if it cannot be)"}},
      {10, {"DCGM_FR_CLOCK_THROTTLE_THERMAL", kDcgmCooling}},
      {12, {"DCGM_FR_CLOCK_THROTTLE_POWER", kDcgmPower}},
      {13, {"DCGM_FR_NVLINK_ERROR_THRESHOLD", kDcgmNvlink}},
      {14, {"DCGM_FR_NVLINK_DOWN", kDcgmNvlink}},
      {15, {"DCGM_FR_NVSWITCH_FATAL_ERROR", kDcgmNvswitch}},
      {16, {"DCGM_FR_NVSWITCH_NON_FATAL_ERROR", kDcgmNvswitch}},
      {20,
       {"DCGM_FR_DEVICE_COUNT_MISMATCH",
        "a GPU is missing from NVML or /dev: look for Xid 79 (the gpu_xid probe), "
        "reboot, and drain the node until every GPU shows"}},
      {23, {"DCGM_FR_DENYLISTED_DRIVER", "unload nouveau and blacklist it (modprobe -r nouveau), then reboot"}},
      {25, {"DCGM_FR_GRAPHICS_PROCESSES", "stop the processes using the GPU (nvidia-smi) before the diagnostic"}},
      {28, {"DCGM_FR_BAD_CUDA_ENV", "unset the CUDA variables DCGM names in its message and rerun"}},
      {29, {"DCGM_FR_PERSISTENCE_MODE", "enable persistence mode (systemctl enable --now nvidia-persistenced)"}},
      {30, {"DCGM_FR_LOW_BANDWIDTH", kDcgmPerf}},
      {40, {"DCGM_FR_THERMAL_VIOLATIONS", kDcgmCooling}},
      {41, {"DCGM_FR_THERMAL_VIOLATIONS_TS", kDcgmCooling}},
      {42, {"DCGM_FR_TEMP_VIOLATION", kDcgmCooling}},
      {43, {"DCGM_FR_THROTTLING_VIOLATION", kDcgmCooling}},
      {45, {"DCGM_FR_PCIE_GENERATION", kDcgmPcie}},
      {46, {"DCGM_FR_PCIE_WIDTH", kDcgmPcie}},
      {50, {"DCGM_FR_STRESS_LEVEL", kDcgmPerf}},
      {52, {"DCGM_FR_FAULTY_MEMORY", kDcgmReplaceGpu}},
      {57, {"DCGM_FR_CUDA_DBE", kDcgmResetGpu}},
      {58, {"DCGM_FR_MEMORY_MISMATCH", kDcgmReplaceGpu}},
      {62, {"DCGM_FR_MEMORY_BANDWIDTH", kDcgmPerf}},
      {63, {"DCGM_FR_TARGET_POWER", kDcgmPower}},
      {70, {"DCGM_FR_NVLINK_CRC_ERROR_THRESHOLD", kDcgmNvlink}},
      {71, {"DCGM_FR_NVLINK_ERROR_CRITICAL", kDcgmNvlink}},
      {72, {"DCGM_FR_ENFORCED_POWER_LIMIT", kDcgmPower}},
      {79, {"DCGM_FR_L1TAG_MISCOMPARE", kDcgmReplaceGpu}},
      {80, {"DCGM_FR_ROW_REMAP_FAILURE", kDcgmReplaceGpu}},
      {81, {"DCGM_FR_UNCONTAINED_ERROR", kDcgmResetGpu}},
      {83, {"DCGM_FR_DBE_PENDING_PAGE_RETIREMENTS", kDcgmApplyPending}},
      {84, {"DCGM_FR_UNCORRECTABLE_ROW_REMAP", kDcgmReplaceGpu}},
      {85, {"DCGM_FR_PENDING_ROW_REMAP", kDcgmApplyPending}},
      {98, {"DCGM_FR_PCIE_H_REPLAY_VIOLATION", kDcgmPcie}},
      {99, {"DCGM_FR_GPU_EXPECTED_NVLINKS_UP", kDcgmNvlink}},
      {101, {"DCGM_FR_XID_ERROR", "see the gpu_xid probe for the Xid and its action (NVIDIA's Xid catalogue)"}},
      {103, {"DCGM_FR_DBE_VIOLATION", kDcgmResetGpu}},
      {104, {"DCGM_FR_PCIE_REPLAY_VIOLATION", kDcgmPcie}},
      {107, {"DCGM_FR_PCIE_REPLAY_THRESHOLD_VIOLATION", kDcgmPcie}},
      {108,
       {"DCGM_FR_CUDA_FM_NOT_INITIALIZED",
        "start the fabric manager (systemctl status nvidia-fabricmanager; "
        "systemctl restart nvidia-fabricmanager) and rerun"}},
      {109, {"DCGM_FR_SXID_ERROR", kDcgmNvswitch}},
      {110, {"DCGM_FR_GFLOPS_THRESHOLD_VIOLATION", kDcgmPerf}},
  };
  return codes;
}

std::string dcgmText(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

std::optional<int> dcgmInt(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int>();
}

// "GPU 3" from DCGM 4's entity_group/entity_id, "GPU 3" from DCGM 3's gpu_id, "GPUs 0,1" from its gpu_ids.
std::string dcgmEntity(const Json& res) {
  if (res.contains("entity_id")) {
    const std::string group = dcgmText(res, "entity_group");
    return fmt::format("{} {}", group.empty() ? "entity" : group, dcgmText(res, "entity_id"));
  }
  if (res.contains("gpu_id")) return "GPU " + dcgmText(res, "gpu_id");
  if (res.contains("gpu_ids")) return "GPUs " + dcgmText(res, "gpu_ids");
  return "the node";
}

// DCGM's severity (dcgmErrorSeverity_t) decides, where it is given: MONITOR (1) can keep running, the rest cannot.
Status dcgmStatus(const std::string& testStatus, std::optional<int> severity) {
  if (severity == 1) return Status::kWarn;
  if (severity && *severity > 1) return Status::kFail;
  return testStatus == "Fail" || testStatus == "fail" ? Status::kFail : Status::kWarn;
}

}  // namespace

std::string dcgmErrorName(int id) {
  auto it = dcgmCodes().find(id);
  return it == dcgmCodes().end() ? fmt::format("DCGM error {}", id) : it->second.name;
}

std::string dcgmRemedy(std::optional<int> errorId, std::optional<int> severity) {
  if (errorId) {
    auto it = dcgmCodes().find(*errorId);
    if (it != dcgmCodes().end()) return it->second.remedy;
  }
  if (severity == 6) return kDcgmResetGpu;  // DCGM_ERROR_RESET: drain and reset the GPU
  if (severity == 2) return "drain the node: DCGM says the GPU cannot run work (DCGM_ERROR_ISOLATE)";
  if (severity == 5) return "fix the configuration DCGM names in its message and rerun (DCGM_ERROR_CONFIG)";
  return "read DCGM's message and its Diagnostic Errors page "
         "(https://docs.nvidia.com/datacenter/dcgm/latest/reference/diagnostics/errors.html), then rerun the "
         "diagnostic";
}

DcgmDiag parseDcgmDiag(const std::string& raw) {
  const std::size_t open = raw.find('{'), close = raw.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open)
    throw std::runtime_error("no JSON object in dcgmi's output");
  const Json j = Json::parse(raw.substr(open, close - open + 1), nullptr, false);
  if (j.is_discarded()) throw std::runtime_error("dcgmi's output is not valid JSON");
  const char* topKey = j.contains("DCGM Diagnostic") ? "DCGM Diagnostic" : "DCGM GPU Diagnostic";
  if (!j.contains(topKey) || !j[topKey].is_object())
    throw std::runtime_error("dcgmi's JSON has no \"DCGM Diagnostic\" (DCGM 4) or \"DCGM GPU Diagnostic\" object");
  const Json& top = j[topKey];
  DcgmDiag d;
  d.runtimeError = dcgmText(top, "runtime_error");
  d.version = j.contains("metadata") && j["metadata"].is_object() ? dcgmText(j["metadata"], "version")
                                                                  : dcgmText(top, "version");
  if (!top.contains("test_categories") || !top["test_categories"].is_array()) {
    if (d.runtimeError.empty()) throw std::runtime_error("dcgmi's JSON has no test_categories and no runtime_error");
    return d;
  }
  for (const Json& cat : top["test_categories"]) {
    if (!cat.is_object() || !cat.contains("tests") || !cat["tests"].is_array()) continue;
    for (const Json& test : cat["tests"]) {
      if (!test.is_object() || !test.contains("results") || !test["results"].is_array()) continue;
      for (const Json& res : test["results"]) {
        if (!res.is_object()) continue;
        ++d.results;
        const std::string status = dcgmText(res, "status");
        if (status == "Pass" || status == "pass") ++d.passed;
        if (status == "Pass" || status == "pass" || status == "Skip" || status == "skip" || status.empty()) continue;
        DcgmIssue base;
        base.category = dcgmText(cat, "category");
        base.test = dcgmText(test, "name");
        base.entity = dcgmEntity(res);
        std::vector<DcgmIssue> found;
        for (const char* listKey : {"warnings", "errors"}) {
          if (!res.contains(listKey) || !res[listKey].is_array()) continue;
          for (const Json& w : res[listKey]) {
            DcgmIssue i = base;
            i.message = w.is_object() ? dcgmText(w, "warning") : w.is_string() ? w.get<std::string>() : "";
            if (i.message.empty() && w.is_object()) i.message = dcgmText(w, "msg");
            if (w.is_object()) {
              i.errorId = dcgmInt(w, "error_id");
              i.severity = dcgmInt(w, "error_severity");
            }
            found.push_back(std::move(i));
          }
        }
        if (found.empty()) {
          base.message = "the test's status is " + status + " (DCGM gave no message)";
          found.push_back(base);
        }
        for (DcgmIssue& i : found) {
          i.status = dcgmStatus(status, i.severity);
          i.remedy = dcgmRemedy(i.errorId, i.severity);
          d.issues.push_back(std::move(i));
        }
      }
    }
  }
  return d;
}

int dcgmTimeoutSeconds(int level) {
  switch (level) {
    case 1: return 300;
    case 2: return 900;
    case 3: return 3600;
    default: break;
  }
  return 10800;
}

}  // namespace pf::probes
