// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The nccl probe: names, syntax, obsolete and debugging variables, nccl.conf files, library and plugin.
#include <gtest/gtest.h>

#include "nccl/nccl_env_table.hpp"
#include "probe.hpp"
#include "temp_tree.hpp"

namespace pf::probes {
namespace {

using test::TempTree;

Result runNccl(const std::filesystem::path& root, std::map<std::string, std::string> env = {}) {
  return Registry<Probe>::instance().create("nccl")->run(SystemView(root, Environment(std::move(env))), {});
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(NcclEnvProbe, CleanTreeIsAbsentWithWhatWasLookedFor) {
  TempTree t;
  Result r = runNccl(t.root());
  EXPECT_EQ(r.status, Status::kAbsent);
  EXPECT_TRUE(has(r.message, "libnccl.so.2")) << r.message;
  EXPECT_TRUE(r.params["settings"].empty());
}

TEST(NcclEnvProbe, LibraryVersionFromTreeAndGidIndexOnNewNccl) {
  TempTree t;
  t.file("/usr/lib/x86_64-linux-gnu/libnccl.so.2.21.5", "");
  Result r = runNccl(t.root(), {{"NCCL_DEBUG", "WARN"}});
  EXPECT_EQ(r.status, Status::kPass) << r.message;
  EXPECT_EQ(r.metrics["version_code"], 22105);
  EXPECT_EQ(r.params["settings"]["NCCL_DEBUG"], "WARN");
  Result gid = runNccl(t.root(), {{"NCCL_IB_GID_INDEX", "3"}});
  EXPECT_EQ(gid.status, Status::kWarn);
  EXPECT_TRUE(has(gid.message, "NCCL_IB_GID_INDEX=3")) << gid.message;
}

TEST(NcclEnvProbe, UnknownNameSuggestsTheClosest) {
  TempTree t;
  Result r = runNccl(t.root(), {{"NCCL_SOKET_IFNAME", "eth0"}});
  EXPECT_EQ(r.status, Status::kWarn);
  EXPECT_TRUE(has(r.message, "did you mean NCCL_SOCKET_IFNAME")) << r.message;
  EXPECT_EQ(closestNcclVar("NCCL_IB_HCAS"), "NCCL_IB_HCA");
  EXPECT_EQ(closestNcclVar("NCCL_COMPLETELY_DIFFERENT"), "");
}

// NVIDIA's CUDA images set NCCL_VERSION (the H200 validation machine's did: NCCL_VERSION=2.28.3-1), and builds
// read NCCL_HOME or NCCL_LIB_DIR: none is NCCL's, and none may warn, or every NGC container fails --strict.
TEST(NcclEnvProbe, NamesThatImagesAndBuildsSetDoNotWarn) {
  TempTree t;
  t.file("/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3", "");
  Result r = runNccl(t.root(), {{"NCCL_VERSION", "2.28.3-1"}, {"NCCL_HOME", "/opt/nccl"}, {"NCCL_LIB_DIR", "/x"}});
  EXPECT_EQ(r.status, Status::kPass) << r.message;
  EXPECT_EQ(r.params["settings"]["NCCL_VERSION"], "2.28.3-1");  // still shown
  EXPECT_EQ(closestNcclVar("NCCL_VERSON"), "");                 // and never offered as a spelling
}

TEST(NcclEnvProbe, ObsoleteDebugAndPytorchVariablesWarn) {
  TempTree t;
  Result r = runNccl(t.root(), {{"NCCL_TREE_THRESHOLD", "0"}, {"NCCL_P2P_DISABLE", "1"}, {"NCCL_BLOCKING_WAIT", "1"}});
  EXPECT_EQ(r.status, Status::kWarn);
  EXPECT_TRUE(has(r.message, "NCCL_TREE_THRESHOLD=0 is obsolete")) << r.message;
  EXPECT_TRUE(has(r.message, "debugging-only variable(s) set: NCCL_P2P_DISABLE")) << r.message;
  EXPECT_TRUE(has(r.message, "TORCH_NCCL_BLOCKING_WAIT")) << r.message;
}

TEST(NcclEnvProbe, BadValuesAreNamed) {
  TempTree t;
  EXPECT_EQ(runNccl(t.root(), {{"NCCL_ALGO", "Ring,Treee"}}).status, Status::kFail);
  EXPECT_EQ(runNccl(t.root(), {{"NCCL_ALGO", "ring,collnetdirect;allreduce:^tree"}}).status,
            Status::kWarn);  // debug only
  Result to = runNccl(t.root(), {{"NCCL_IB_TIMEOUT", "0"}});
  EXPECT_TRUE(has(to.message, "infinite")) << to.message;
  Result fam = runNccl(t.root(), {{"NCCL_SOCKET_FAMILY", "IPv4"}});
  EXPECT_EQ(fam.status, Status::kWarn);
  EXPECT_TRUE(has(fam.remedy, "AF_INET")) << fam.remedy;
  Result file = runNccl(t.root(), {{"NCCL_DEBUG_FILE", "/tmp/nccl.log"}});
  EXPECT_TRUE(has(file.message, "%h or %p")) << file.message;
  Result prod = runNccl(t.root(), {{"NCCL_SOCKET_NTHREADS", "16"}, {"NCCL_NSOCKS_PERTHREAD", "8"}});
  EXPECT_TRUE(has(prod.message, "exceeds NCCL's limit of 64")) << prod.message;
}

TEST(NcclEnvProbe, ConfFilesFollowNcclPrecedenceAndFlagBadLines) {
  TempTree t;
  t.file("/etc/nccl.conf", "NCCL_DEBUG=INFO\nNCCL_IB_HCA = mlx5_0\nNCCL_CROSS_NIC=1\njunk line");
  t.file("/job/nccl.conf", "NCCL_DEBUG=WARN");
  Result r = runNccl(t.root(), {{"NCCL_CONF_FILE", "/job/nccl.conf"}, {"NCCL_CROSS_NIC", "0"}});
  EXPECT_EQ(r.params["settings"]["NCCL_DEBUG"], "WARN");   // the user file before /etc/nccl.conf
  EXPECT_EQ(r.params["settings"]["NCCL_CROSS_NIC"], "0");  // the environment before any file
  EXPECT_EQ(r.status, Status::kWarn);
  EXPECT_TRUE(has(r.message, "/etc/nccl.conf:2")) << r.message;
  EXPECT_TRUE(has(r.message, "/etc/nccl.conf:4")) << r.message;
  EXPECT_FALSE(r.params["settings"].contains("NCCL_IB_HCA"));
  Result missing = runNccl(t.root(), {{"NCCL_CONF_FILE", "/job/missing.conf"}});
  EXPECT_TRUE(has(missing.message, "NCCL_CONF_FILE=/job/missing.conf does not exist")) << missing.message;
}

TEST(NcclEnvProbe, HomeConfIsReadOnlyWithoutNcclConfFile) {
  TempTree t;
  t.file("/home/u/.nccl.conf", "NCCL_DEBUG=INFO").file("/etc/nccl.conf", "NCCL_DEBUG=WARN");
  EXPECT_EQ(runNccl(t.root(), {{"HOME", "/home/u"}}).params["settings"]["NCCL_DEBUG"], "INFO");
  t.file("/job.conf", "NCCL_CROSS_NIC=1");
  Result r = runNccl(t.root(), {{"HOME", "/home/u"}, {"NCCL_CONF_FILE", "/job.conf"}});
  EXPECT_EQ(r.params["settings"]["NCCL_DEBUG"], "WARN");  // NCCL_CONF_FILE replaces ~/.nccl.conf
  EXPECT_EQ(r.params["settings"]["NCCL_CROSS_NIC"], "1");
}

TEST(NcclEnvProbe, ExternalNetWithoutPluginFails) {
  TempTree t;
  Result r = runNccl(t.root(), {{"NCCL_NET", "AWS Libfabric"}});
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_TRUE(has(r.message, "no net plugin loads")) << r.message;
  t.file("/opt/amazon/ofi-nccl/lib/libnccl-net.so", "");
  Result ok = runNccl(t.root(), {{"NCCL_NET", "AWS Libfabric"}});
  EXPECT_EQ(ok.params["net_plugin"], "/opt/amazon/ofi-nccl/lib/libnccl-net.so");
  Result named = runNccl(t.root(), {{"NCCL_NET_PLUGIN", "ofi"}});
  EXPECT_EQ(named.status, Status::kWarn);  // libnccl-net-ofi.so is not there
}

}  // namespace
}  // namespace pf::probes
