// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The artefact kinds: each recognised by its content (whatever the file is called), and what each reader makes of
// its documented shape: RAS text and JSON, MONITOR lines, NCCL DIAG lines, torchelastic error files, Slurm's srun and
// slurmstepd lines, kernel logs. Bad content (binary junk, broken JSON, a huge line) is skipped or reported, never
// a crash.
#include <gtest/gtest.h>

#include <string>

#include "artefacts/artefact.hpp"
#include "artefacts/clock.hpp"
#include "pf/error.hpp"

namespace pf::doctor {
namespace {

std::string kindOf(const std::string& head) {
  std::string why;
  const ArtefactKind* k = recogniseArtefact(head, why);
  return k ? k->key() : "skipped: " + why;
}

ArtefactOut readAs(const std::string& text, const std::string& file = "f") {
  std::string why;
  const ArtefactKind* k = recogniseArtefact(text.substr(0, kHeadBytes), why);
  EXPECT_NE(k, nullptr) << why;
  ArtefactOut out;
  if (!k) return out;
  auto r = k->open(file);
  // Two blocks, cut at a line end, as LineBlockReader hands them over.
  const std::size_t cut = text.find('\n', text.size() / 2);
  if (cut == std::string::npos) {
    r->block(text);
  } else {
    r->block(std::string_view(text).substr(0, cut + 1));
    r->block(std::string_view(text).substr(cut + 1));
  }
  r->finish(out);
  return out;
}

const std::string kRasReport =
    "NCCL version 2.26.2 compiled with CUDA 12.6\n"
    "CUDA runtime version 12060, driver version 12060\n\n"
    "Job summary\n===========\n\n"
    "  Nodes  Processes         GPUs  Processes     GPUs\n"
    "(total)   per node  per process    (total)  (total)\n"
    "      4          8            1         32       32\n\n"
    "Communicators... (0.00s)\n=============\n\n"
    "Group     Comms     Nodes     Ranks     Ranks     Ranks    Status  Errors\n"
    "    #  in group  per comm  per node  per comm  in group\n"
    "    0         1         4         8        32        32   RUNNING  MISMATCH\n\n"
    "Errors\n======\n\n"
    "DEAD\n"
    "  1 job process is considered dead (unreachable via the RAS network)\n"
    "  Process 4711 on node node3 managing GPU 3\n\n"
    "Warnings\n========\n\n"
    "#0-0 (fa93daea854b060b) MISMATCH\n"
    "  Communicator ranks have different AllGather operation counts\n"
    "  30 ranks have launched up to operation 641\n"
    "  2 ranks have launched up to operation 640\n"
    "  Rank 12 -- GPU 4 managed by process 323032 on node 10.137.190.124\n"
    "  Rank 13 -- GPU 5 managed by process 323033 on node 10.137.190.124\n\n";

TEST(ArtefactKinds, RecognisedByContentNotName) {
  EXPECT_EQ(kindOf(kRasReport), "ras-text");
  EXPECT_EQ(kindOf("{\"message\": {\"message\": \"RuntimeError: x\", \"extraInfo\": {\"py_callstack\": \"T\", "
                   "\"timestamp\": \"1714000000\"}}}"),
            "torchelastic-error");
  EXPECT_EQ(kindOf("{\n  \"nccl_version\": \"2.28.7\",\n  \"communicators\": [\n"), "ras-json");
  EXPECT_EQ(kindOf("{\n  \"timestamp\": \"2026-01-15 10:42:37\",\n  \"group\": \"LIFECYCLE\",\n  \"event\": "
                   "\"PEER_DEAD\",\n"),
            "ras-json");
  EXPECT_EQ(kindOf("[2026-01-15 10:42:37] PEER_DEAD: Process 12 on node n3 managing GPU 1 \n"), "ras-text");
  EXPECT_EQ(kindOf("node01:15 NCCL DIAG === NCCL Diagnostics ===\nnode01:15 NCCL DIAG [OK] p2p: all verified\n"),
            "nccl-diag");
  EXPECT_EQ(kindOf("[ 1234.567890] mlx5_core 0000:3b:00.0: Port module event: module 0, Cable unplugged\n"
                   "[ 1240.000001] NVRM: Xid (PCI:0000:3b:00): 79, pid=1, GPU has fallen off the bus.\n"),
            "kernel-log");
  EXPECT_EQ(kindOf("Dec  2 09:19:05 node7 kernel: [12345.678901] NVRM: Xid (PCI:0000:3b:00): 79, pid=1\n"
                   "Dec  2 09:19:06 node7 kernel: [12346.000000] mlx5_core 0000:3b:00.0 ib0: Link down\n"),
            "kernel-log");
  EXPECT_EQ(kindOf("[Wed Dec  2 09:19:05 2026] NVRM: Xid (PCI:0000:3b:00): 79, pid=1\n"), "kernel-log");
  EXPECT_EQ(kindOf("starting\nsrun: error: node12: task 3: Exited with exit code 1\n"), "slurm-output");
  EXPECT_EQ(kindOf("# nThread 1 nGpus 1 minBytes 8 maxBytes 128M step: 2(factor)\n"), "nccl-tests-text");
  EXPECT_EQ(kindOf("node1:1:1 [0] NCCL INFO Bootstrap : Using eth0\n"), "log");
  EXPECT_EQ(kindOf(""), "log");  // an empty log is a log with nothing in it
  // JSON lines (structured logging) are a log; one JSON document of no known shape is not.
  EXPECT_EQ(kindOf("{\"msg\": \"a\"}\n{\"msg\": \"b\"}\n"), "log");
  EXPECT_EQ(kindOf("{\n  \"lr\": 0.1,\n  \"epochs\": 3\n}\n").substr(0, 24), "skipped: a JSON document");
  // NCCL's lines without the host prefix start like a JSON array ("[0]"): text after the value makes it a log.
  EXPECT_EQ(kindOf("[0] misc/socket.cc:71 NCCL WARN socketProgress: Connection closed by remote peer\n"
                   "[0] NCCL INFO misc/socket.cc:80 -> 6\n"),
            "log");
  EXPECT_EQ(kindOf("[1, 2]\n").substr(0, 24), "skipped: a JSON document");
  EXPECT_EQ(kindOf("# Job 4242\n\n| file | what |\n|---|---|\n"),
            "skipped: a Markdown document (notes beside the artefacts, not a log)");
  EXPECT_EQ(kindOf("# Job 4242\nsrun: error: n1: task 1: Killed\n```\n").substr(0, 30),
            "skipped: a Markdown document (");
  EXPECT_EQ(kindOf(std::string("\x80\x04\x95\x10\x00\x00", 6)).substr(0, 25), "skipped: a Python pickle ");
  EXPECT_EQ(kindOf(std::string("\x7f"
                               "ELF\x02\x01\x01\x00\x00\x00",
                               10)),
            "skipped: binary data (not a log or a known document)");
}

TEST(ArtefactKinds, RasTextNamesDeadProcessAndAheadRanks) {
  const ArtefactOut out = readAs(kRasReport, "ras.txt");
  ASSERT_EQ(out.findings.size(), 3u);
  EXPECT_EQ(out.findings[0].id, "ras.dead_process");
  EXPECT_EQ(out.findings[0].host, "node3");
  EXPECT_EQ(out.findings[0].line, 23u);
  EXPECT_NE(out.findings[0].message.find("GPU 3"), std::string::npos);
  // The two listed ranks are behind (640 < 641): each is named as lagging.
  EXPECT_EQ(out.findings[1].id, "ras.collective_lagging");
  EXPECT_EQ(out.findings[1].rank, 12);
  EXPECT_EQ(out.findings[1].host, "10.137.190.124");
  EXPECT_EQ(out.findings[2].rank, 13);
  EXPECT_NE(out.findings[2].message.find("launched 640 operations, others up to 641"), std::string::npos);
}

TEST(ArtefactKinds, RasTextSaysWhenTheListedRanksAreAhead) {
  // NVIDIA/nccl#1911: RAS lists the two ranks at 641; the thirty at 640 are the ones behind.
  std::string r = kRasReport;
  r.replace(r.find("30 ranks have launched up to operation 641"), 42, "30 ranks have launched up to operation 640");
  r.replace(r.find("2 ranks have launched up to operation 640"), 41, "2 ranks have launched up to operation 641");
  const ArtefactOut out = readAs(r);
  ASSERT_EQ(out.findings.size(), 2u);
  EXPECT_EQ(out.findings[1].rank, -1);
  EXPECT_NE(out.findings[1].message.find("ranks 12, 13 are ahead; the others lag"), std::string::npos)
      << out.findings[1].message;
}

TEST(ArtefactKinds, RasJsonMissingAndLaggingRanks) {
  const std::string j = R"({
  "nccl_version": "2.28.7", "cuda_runtime_version": 12080, "cuda_driver_version": 12080,
  "timestamp": "2026-04-22 10:43:40", "communicators_count": 1,
  "communicators": [{"hash": "0x1f", "secondary_hash": "0x1:0x2", "size": 4, "ranks_count": 3,
    "missing_ranks_count": 1,
    "ranks": [
      {"rank": 0, "host": "node1", "pid": 10, "cuda_dev": 0, "nvml_dev": 0,
       "status": {"init_state": 0, "async_error": 0, "finalize_called": false, "destroy_flag": false, "abort_flag": false},
       "collective_counts": {"AllReduce": 88, "AllGather": 4}},
      {"rank": 1, "host": "node1", "pid": 11, "cuda_dev": 1, "nvml_dev": 1,
       "status": {"init_state": 0, "async_error": 6, "finalize_called": false, "destroy_flag": false, "abort_flag": true},
       "collective_counts": {"AllReduce": 88, "AllGather": 4}},
      {"rank": 2, "host": "node2", "pid": 12, "cuda_dev": 0, "nvml_dev": 0,
       "status": {"init_state": 0, "async_error": 0, "finalize_called": false, "destroy_flag": false, "abort_flag": false},
       "collective_counts": {"AllReduce": 87, "AllGather": 4}}],
    "missing_ranks": [{"rank": 3, "host": "node2", "pid": 13, "cuda_dev": 1, "nvml_dev": 1,
                       "status": {"unresponsive": true, "considered_dead": true}}]}],
  "ras": {"collection_time_sec": 0.012, "timeouts_count": 0}
})";
  const ArtefactOut out = readAs(j);
  EXPECT_EQ(out.worldSize, 4);
  ASSERT_EQ(out.findings.size(), 3u);
  EXPECT_EQ(out.findings[0].id, "ras.dead_process");
  EXPECT_EQ(out.findings[0].rank, 3);
  EXPECT_EQ(out.findings[0].host, "node2");
  EXPECT_EQ(out.findings[1].id, "ras.rank_error");
  EXPECT_EQ(out.findings[1].rank, 1);
  EXPECT_EQ(out.findings[2].id, "ras.collective_lagging");
  EXPECT_EQ(out.findings[2].rank, 2);
  EXPECT_NE(out.findings[2].message.find("87 AllReduce operations, others up to 88"), std::string::npos);
}

TEST(ArtefactKinds, RasMonitorLinesAreTimedEvents) {
  const ArtefactOut out = readAs(
      "[2026-01-15 10:42:37] PEER_NEW: Process 12 on node n3 managing GPU 1 \n"
      "[2026-01-15 10:42:55] PEER_DEAD: Process 12 on node n3 managing GPU 1 \n");
  ASSERT_EQ(out.events.size(), 2u);
  EXPECT_FALSE(out.events[0].failure);
  EXPECT_TRUE(out.events[1].failure);
  EXPECT_EQ(out.events[1].host, "n3");
  EXPECT_EQ(out.events[1].stamp.clock, Clock::kWall);
  ASSERT_EQ(out.findings.size(), 1u);
  EXPECT_EQ(out.findings[0].id, "ras.dead_process");
}

TEST(ArtefactKinds, DiagLinesBecomeFindings) {
  const ArtefactOut out = readAs(
      "node01:15 NCCL DIAG === NCCL Diagnostics ===\n"
      "node01:15 NCCL DIAG [OK]   p2p: all 56 directed GPU P2P edges verified\n"
      "node02:16 NCCL DIAG [WARN] ECC: uncorrected ECC errors on GPU 2\n"
      "node01:15 NCCL DIAG NCCL diagnostics completed in 245.3 ms across 8 ranks\n");
  ASSERT_EQ(out.findings.size(), 1u);
  EXPECT_EQ(out.findings[0].id, "diag.ecc");
  EXPECT_TRUE(out.findings[0].fail);
  EXPECT_EQ(out.findings[0].host, "node02");
  EXPECT_EQ(out.findings[0].line, 3u);
}

TEST(ArtefactKinds, DiagReportOverSeveralLinesIsOneFinding) {
  // NCCL 2.31's environment check (src/ras/diagnostics_env.cc) behind torchrun's tag.
  const ArtefactOut out = readAs(
      "[default0]:w0:41 NCCL DIAG [INFO] NCCL environment: mismatch across 4 ranks in comm 0x9e for NCCL_IB_GID_INDEX\n"
      "[default0]:w0:41 NCCL DIAG [INFO] NCCL environment: NCCL_IB_GID_INDEX=3 on rank(s) 0-1\n"
      "[default0]:w0:41 NCCL DIAG [INFO] NCCL environment: NCCL_IB_GID_INDEX=(unset) on rank(s) 2-3\n"
      "[default0]:w0:41 NCCL DIAG [OK]   p2p: all 2 directed GPU P2P edges verified\n");
  ASSERT_EQ(out.findings.size(), 1u);
  EXPECT_EQ(out.findings[0].id, "diag.nccl_environment");
  EXPECT_FALSE(out.findings[0].fail);  // a difference between ranks warns
  EXPECT_EQ(out.findings[0].host, "w0");
  EXPECT_NE(out.findings[0].text.find("=(unset) on rank(s) 2-3"), std::string::npos) << out.findings[0].text;
}

TEST(ArtefactKinds, NcclTestsJson) {
  // The keys nccl-tests' -J writes (src/util.cu); a row whose in-place result came back wrong, and an NCCL error.
  const std::string j = R"({"version": 1, "start_time": "2026-04-22 09:00:01", "args": ["all_reduce_perf"],
    "env": [], "nccl_version": 22602, "config": {"nthreads": 1, "ngpus": 1},
    "results": [{"size": 8, "count": 2, "type": "float", "redop": "sum", "root": -1,
                 "in_place": {"time": 20.1, "alg_bw": 0.0, "bus_bw": 0.0, "nwrong": 0},
                 "out_of_place": {"time": 20.3, "alg_bw": 0.0, "bus_bw": 0.0, "nwrong": 0}},
                {"size": 1048576, "count": 262144, "type": "float", "redop": "sum", "root": -1,
                 "in_place": {"time": 90.0, "alg_bw": 11.6, "bus_bw": 21.8, "nwrong": 12},
                 "out_of_place": {"time": 91.0, "alg_bw": 11.5, "bus_bw": 21.6, "nwrong": 0}}],
    "out_of_bounds": {"count": 12, "okay": false}, "average_bus_bandwidth": {"bandwidth": 10.9, "okay": "unchecked"},
    "errors": ["NCCL failure common.cu:1064 'unhandled system error'"], "end_time": "2026-04-22 09:00:09"})";
  EXPECT_EQ(kindOf(j), "nccl-tests-json");
  const ArtefactOut out = readAs(j);
  ASSERT_EQ(out.findings.size(), 2u);
  EXPECT_EQ(out.findings[0].id, "nccl_tests.wrong_results");
  EXPECT_NE(out.findings[0].message.find("1048576 bytes float in_place"), std::string::npos);
  EXPECT_EQ(out.findings[1].id, "nccl_tests.error");
  // A run that hung writes no end: the document stops early.
  const ArtefactOut cut = readAs(j.substr(0, 300));
  ASSERT_EQ(cut.findings.size(), 1u);
  EXPECT_EQ(cut.findings[0].id, "nccl_tests.incomplete");
}

TEST(ArtefactKinds, TorchelasticErrorFile) {
  const ArtefactOut out = readAs(
      R"({"message": {"message": "DistBackendError: [Rank 3] NCCL error: remote process exited", "extraInfo":
          {"py_callstack": "Traceback (most recent call last):\n  File \"train.py\", line 9", "timestamp": "1776854557"}}})",
      "error.json");
  ASSERT_EQ(out.events.size(), 1u);
  EXPECT_EQ(out.events[0].rank, 3);
  EXPECT_EQ(out.events[0].stamp.clock, Clock::kUtc);
  EXPECT_EQ(isoUtc(*toUtcUs(out.events[0].stamp, 0)), "2026-04-22T10:42:37.000000Z");
  ASSERT_EQ(out.coverage.size(), 1u);
  EXPECT_EQ(out.coverage[0].second, std::set<int>{3});
  // Broken JSON of the recognised shape is said, not thrown.
  const ArtefactOut bad = readAs("{\"message\": {\"extraInfo\": {\"py_callstack\": \"x\"");
  ASSERT_EQ(bad.events.size(), 1u);
  EXPECT_FALSE(bad.events[0].failure);
}

// PyTorch's own analyser stopping on its own exception (torch 2.15 on gloo dumps) is said as the analyser's failure,
// not read as the job's; fr_trace output that holds an analysis, or a job's traceback, stays a log.
TEST(ArtefactKinds, FrTraceOutputThatStoppedIsTheAnalysersFailure) {
  const std::string crash =
      "tabulate is not installed. Proceeding without it.\n"
      "Traceback (most recent call last):\n"
      "  File \"<frozen runpy>\", line 198, in _run_module_as_main\n"
      "  File \"/usr/lib/python3/site-packages/torch/distributed/flight_recorder/fr_trace.py\", line 60, in main\n"
      "    db = build_db(details, args, version)\n"
      "  File \"/usr/lib/python3/site-packages/torch/distributed/flight_recorder/components/builder.py\", line 212\n"
      "    pg_name = _pg_guids[(original_pg_name, first_rank)]\n"
      "              ~~~~~~~~~^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
      "KeyError: ('0', 3)\n";
  EXPECT_EQ(kindOf(crash), "fr-trace-output");
  const ArtefactOut out = readAs(crash, "fr_trace.txt");
  ASSERT_EQ(out.findings.size(), 1u);
  EXPECT_EQ(out.findings[0].id, "fr_trace.analyser_failed");
  EXPECT_FALSE(out.findings[0].fail);
  EXPECT_EQ(out.findings[0].text, "KeyError: ('0', 3)");
  EXPECT_EQ(kindOf("Culprit rank 1; Error type: SIZE_OR_SYNTAX_MISMATCH\n" + crash), "log");
  EXPECT_EQ(kindOf("Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\nKeyError: 'x'\n"),
            "log");
}

TEST(ArtefactKinds, SlurmLines) {
  const ArtefactOut out = readAs(
      "hello\n"
      "srun: error: node12: task 3: Exited with exit code 1\n"
      "srun: error: node13: tasks 4-7: Killed\n"
      "slurmstepd: error: *** JOB 4242 ON node12 CANCELLED AT 2026-04-22T11:00:01 DUE TO TIME LIMIT ***\n");
  ASSERT_EQ(out.events.size(), 3u);
  EXPECT_EQ(out.events[0].host, "node12");
  EXPECT_EQ(out.events[0].rank, 3);
  EXPECT_EQ(out.events[0].line, 2u);
  EXPECT_EQ(out.events[1].host, "node13");
  EXPECT_EQ(out.events[1].rank, -1);
  EXPECT_EQ(out.events[2].kind, "slurm-cancelled");
  EXPECT_EQ(out.events[2].stamp.clock, Clock::kWall);
  EXPECT_EQ(out.events[2].stamp.usOfDay, (11 * 3600 + 1) * int64_t{1000000});
  ASSERT_EQ(out.findings.size(), 1u);
  EXPECT_EQ(out.findings[0].id, "slurm.time_limit");
}

TEST(ArtefactKinds, KernelLogBootOffsetsAnchoredInTheSameLog) {
  const ArtefactOut out = readAs(
      "[12000.000000] mlx5_core 0000:3b:00.0 ib0: Link down\n"
      "Dec  2 09:19:05 node7 kernel: [12345.678901] usb 1-1: new device\n"
      "[12346.178901] NVRM: Xid (PCI:0000:3b:00): 79, pid=1, GPU has fallen off the bus.\n");
  ASSERT_EQ(out.events.size(), 2u);
  EXPECT_EQ(out.events[0].kind, "ib-link");
  EXPECT_EQ(out.events[0].nic, "0000:3b:00.0");
  EXPECT_EQ(out.events[1].kind, "xid");
  EXPECT_EQ(out.events[1].gpu, "0000:3b:00");
  // 0.5 s after the anchor line; the link event 345.678901 s before it.
  EXPECT_EQ(out.events[1].stamp.clock, Clock::kWallNoYear);
  EXPECT_EQ(out.events[1].stamp.usOfDay, (9 * 3600 + 19 * 60 + 5) * int64_t{1000000} + 500000);
  EXPECT_EQ(out.events[0].stamp.usOfDay, (9 * 3600 + 13 * 60 + 19) * int64_t{1000000} + 321099);
}

TEST(ArtefactKinds, KernelLogWithoutAnchorKeepsBootOffsets) {
  const ArtefactOut out = readAs("[ 1240.000001] NVRM: Xid (PCI:0000:3b:00): 79, pid=1\n[ 1241.5] junk\n");
  ASSERT_EQ(out.events.size(), 1u);
  EXPECT_EQ(out.events[0].stamp.clock, Clock::kBoot);
  EXPECT_EQ(out.events[0].stamp.bootUs, 1240000001);
}

TEST(ArtefactKinds, HugeLineAndJunkDoNotBreakTheReaders) {
  std::string huge(3 << 20, 'x');
  huge += " srun: error: n1: task 1: Exited with exit code 1\nsrun: error: n2: task 2: Killed\n";
  const ArtefactOut out = readAs("srun: error: n0: task 0: Killed\n" + huge);
  ASSERT_EQ(out.events.size(), 2u);  // the huge line's marker lies past what is read of a line
  EXPECT_EQ(out.events[1].line, 3u);
  // Found by the artefact fuzzer: a line of spaces inside a RAS entry.
  EXPECT_NO_THROW(readAs("Errors\n======\n\nDEAD\n     \n  Process 1 on node n managing GPU 0\n"));
  for (const char* doc : {"{\"communicators\": [1, {\"ranks\": 5}], \"nccl_version\": 3}",
                          "{\"nccl_version\": \"x\", \"communicators\": [{\"ranks\": [{\"collective_counts\": 5",
                          "{\"event\": \"PEER_DEAD\", \"peer\": 7}"})
    EXPECT_NO_THROW(readAs(doc)) << doc;
}

}  // namespace
}  // namespace pf::doctor
