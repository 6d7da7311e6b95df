#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `preflight doctor` end to end: exit codes (0 clean, 1 diagnosed, 2 unreadable input), the --json document's
# diagnosis fields, stdin input, several files, .gz/.zst and directory inputs, --help with examples.
#   doctor_cli_test.sh PREFLIGHT DATA_DIR PYTHON3
set -u
pf=$1 data=$2 py=${3:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # name expected actual
  if [ "$2" != "$3" ]; then echo "FAIL $1: expected $2, got $3"; fail=1; else echo "ok   $1"; fi
}

printf 'node1:1:1 [0] NCCL INFO Using network IB\n[rank0]: iteration 1 loss 2.0\n' > "$tmp/clean.log"
"$pf" doctor "$tmp/clean.log" > "$tmp/out" 2>&1; check "clean log exits 0" 0 $?

printf 'hello\nnode7:11:12 [0] misc/shmutils.cc:88 NCCL WARN Error: failed to extend /dev/shm/nccl-X to 9637892 bytes\n' \
  > "$tmp/shm.log"
"$pf" doctor "$tmp/clean.log" "$tmp/shm.log" --json "$tmp/r.json" > "$tmp/out" 2>&1; check "diagnosis exits 1" 1 $?
grep -q "shm.log:2" "$tmp/out"; check "text names file:line" 0 $?
grep -q "fix:" "$tmp/out"; check "text has a fix" 0 $?
"$py" - "$tmp/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
diag = [r for r in d["results"] if r["kind"] == "diagnosis"]
assert d["exit_code"] == 1, d["exit_code"]
assert diag and diag[0]["params"]["category"] == "shm", diag
p = diag[0]["params"]
for k in ("rule_id", "category", "confidence", "fix"):
    assert k in p and p[k] not in (None, ""), k
assert diag[0]["evidence"][0]["source"].endswith("shm.log:2") and diag[0]["evidence"][0]["what"] == "log line"
assert diag[0]["params"]["lines"][0]["file"].endswith("shm.log") and diag[0]["params"]["lines"][0]["line"] == 2
assert any(r["key"] == "doctor.info" for r in d["results"])
PY
check "json carries rule_id/category/confidence/evidence/fix" 0 $?
root=$(cd "$data/../../../.." && pwd)
if [ -f "$root/tests/tools/validate_json.py" ]; then
  "$py" "$root/tests/tools/validate_json.py" "$root/docs/result-schema.json" "$tmp/r.json" > "$tmp/v" 2>&1
  check "document validates against docs/result-schema.json" 0 $?
fi

cat "$tmp/shm.log" | "$pf" doctor - > "$tmp/out" 2>&1; check "stdin input" 1 $?
grep -q "<stdin>:2" "$tmp/out"; check "stdin evidence named <stdin>" 0 $?

"$pf" doctor "$tmp/does-not-exist.log" > "$tmp/out" 2>&1; check "unreadable input exits 2" 2 $?
grep -q "does-not-exist.log" "$tmp/out"; check "message names the input" 0 $?
[ ! -e "$tmp/r2.json" ]
"$pf" doctor "$tmp/does-not-exist.log" --json "$tmp/r2.json" > /dev/null 2>&1
[ ! -e "$tmp/r2.json" ]; check "no partial document on bad input" 0 $?

# Compressed inputs and a directory of per-rank logs read as one job (sorted by name).
gzip -c "$tmp/shm.log" > "$tmp/shm.log.gz"
"$pf" doctor "$tmp/shm.log.gz" > "$tmp/out" 2>&1; check ".gz input diagnosed" 1 $?
grep -q "shm.log.gz:2" "$tmp/out"; check ".gz evidence names the file and line" 0 $?
if command -v zstd > /dev/null; then
  zstd -q -c "$tmp/shm.log" > "$tmp/shm.log.zst"
  "$pf" doctor "$tmp/shm.log.zst" > "$tmp/out" 2>&1; check ".zst input diagnosed" 1 $?
else
  echo "skip .zst input: no zstd command here (the unit tests cover zstd through libzstd)"
fi
mkdir -p "$tmp/ranks"; cp "$tmp/clean.log" "$tmp/ranks/rank0.log"; cp "$tmp/shm.log.gz" "$tmp/ranks/rank1.log.gz"
"$pf" doctor "$tmp/ranks" > "$tmp/out" 2>&1; check "directory input diagnosed" 1 $?
grep -q "ranks/rank1.log.gz:2" "$tmp/out"; check "directory evidence names the file in it" 0 $?
mkdir -p "$tmp/empty"
"$pf" doctor "$tmp/empty" > "$tmp/out" 2>&1; check "empty directory exits 2" 2 $?
head -c 30 "$tmp/shm.log.gz" > "$tmp/cut.log.gz"
"$pf" doctor "$tmp/cut.log.gz" > "$tmp/out" 2>&1; check "truncated .gz exits 2" 2 $?
grep -q "cut.log.gz" "$tmp/out"; check "truncated .gz message names the file" 0 $?
printf '\037\213\010\000garbage that is not deflate data at all' > "$tmp/bad.log.gz"
"$pf" doctor "$tmp/bad.log.gz" > "$tmp/out" 2>&1; check "corrupt .gz exits 2" 2 $?
grep -q "bad.log.gz" "$tmp/out"; check "corrupt .gz message names the file" 0 $?

mkdir -p "$tmp/rules"; echo '{"category": "shm", "rules": []}' > "$tmp/rules/shm.json"
"$pf" doctor "$tmp/shm.log" --rules "$tmp/rules" > "$tmp/out" 2>&1; check "incomplete rules dir exits 2" 2 $?

"$pf" doctor --help > "$tmp/out" 2>&1; check "--help exits 0" 0 $?
grep -q "Examples:" "$tmp/out"; check "--help has examples" 0 $?

"$pf" doctor "$tmp/shm.log" --json - > "$tmp/j.json" 2>/dev/null
"$py" -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/j.json"; check "--json - is pure JSON on stdout" 0 $?

# A 64-rank job with two of its rank logs given (data/multirank-ib): rank 3's IB completion error on mlx5_3, then the
# watchdog on every rank. The first failure is rank 3's, the cause the IB link, the watchdog its consequence.
mr="$data/multirank-ib"
"$pf" doctor "$mr/rank0.log" "$mr/rank3.log" --json "$tmp/mr.json" > "$tmp/mr.txt" 2>&1; check "64-rank job diagnosed" 1 $?
grep -q "first failure: .*multirank-ib/rank3.log:23 rank 3 on host gpu-node-01 at or before E304 10:42:37.883906529" \
  "$tmp/mr.txt"; check "first failure is rank 3's IB error, before rank 0's watchdog" 0 $?
grep -q "evidence: .*rank3.log:23  NET/IB: Got completion from peer 10.0.1.14<47215> .*hca mlx5_3$" "$tmp/mr.txt"
check "evidence keeps the peer and the HCA" 0 $?
grep -q "note: logs of 62 ranks not given (1, 2, 4-63 of 64)" "$tmp/mr.txt"; check "missing logs said as such" 0 $?
grep -q "probably stuck" "$tmp/mr.txt"; check "no guess about ranks without logs" 1 $?
grep -q "collective #-1" "$tmp/mr.txt"; check "no watchdog entry lost its collective" 1 $?
grep -q "a consequence of 1 (rule ib-verbs.completion-error-12-ib-link)" "$tmp/mr.txt"
check "the watchdog is shown as the IB error's consequence" 0 $?
"$py" - "$tmp/mr.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
diag = [r["params"] for r in d["results"] if r["kind"] == "diagnosis"]
top = diag[0]
assert top["rule_id"] == "ib-verbs.completion-error-12-ib-link", top["rule_id"]
assert "mlx5_3" in top["fix"] and "10.0.1.14<47215>" in top["fix"] and "GID_INDEX" not in top["fix"], top["fix"]
assert top["also_matched"] == ["ib-verbs.completion-error-other", "ib-verbs.verbs-call-failed", "ib-verbs.ib-transport-warning"], top["also_matched"]
assert [p["category"] for p in diag].count("ib-verbs") == 1, [p["rule_id"] for p in diag]
wd = [p for p in diag if p["rule_id"] == "timeout-hang.watchdog-timeout"][0]
assert wd["consequence_of"] == top["rule_id"], wd["consequence_of"]
ranks = [r for r in d["results"] if r["key"] == "doctor.ranks"][0]["params"]
f = ranks["first_failure"]
assert f["file"].endswith("rank3.log") and f["line"] == 23 and f["rank"] == 3 and f["host"] == "gpu-node-01", f
assert f["not_later_than"] == "E304 10:42:37.883906529" and "timestamp" not in f, f
assert ranks["ranks_without_logs"] == [1, 2] + list(range(4, 64)), ranks["ranks_without_logs"]
assert ranks["world_size"] == 64 and ranks["world_size_from_init"] is True
assert ranks["waited_on_ranks"] == [], ranks["waited_on_ranks"]
assert [(w["rank"], w["seq"], w["op"]) for w in ranks["watchdog"]] == [(0, 24117, "ALLREDUCE"), (3, 24117, "ALLREDUCE")]
PY
check "json: cause, fix, folded rules, consequence, first failure, missing logs" 0 $?
if [ -f "$root/tests/tools/validate_json.py" ]; then
  "$py" "$root/tests/tools/validate_json.py" "$root/docs/result-schema.json" "$tmp/mr.json" > "$tmp/v" 2>&1
  check "64-rank document validates against docs/result-schema.json" 0 $?
fi

# A later line of the same rank without the WorkNCCL details does not replace its parsed watchdog entry.
printf '%s\n' "[rank3]:[E304 10:42:37.883906529 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=24117, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600012 milliseconds before timing out." \
  "[rank3]:RuntimeError: [Rank 3] Caught collective operation timeout:" > "$tmp/wd.log"
"$pf" doctor "$tmp/wd.log" > "$tmp/out" 2>&1
grep -q "watchdog: rank 3 timed out at collective #24117 (ALLREDUCE) after 600012 ms" "$tmp/out"
check "a later line keeps rank 3's parsed watchdog entry" 0 $?
# A long RoCE line (GIDs) keeps its end, where NCCL names the HCA, in the shortened evidence.
printf '%s\n' "kp-ddp-worker-0:3468:3905 [4] transport/net_ib.cc:2121 NCCL WARN NET/IB: Got completion from peer 10.216.210.236<54862> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid fd00:1148:9000:5000:4:200:3:ff22 remoteGidsfd00:1148:9000:5000:4:200:3:ff1f hca mlx5_4" > "$tmp/roce.log"
"$pf" doctor "$tmp/roce.log" > "$tmp/out" 2>&1
grep -q "evidence: .*roce.log:1  NET/IB: Got completion from peer 10.216.210.236<54862> .* hca mlx5_4$" "$tmp/out"
check "a shortened evidence line keeps the peer and the HCA" 0 $?
grep -q "rule ib-verbs.completion-error-12-retry" "$tmp/out"; check "GIDs in the error (RoCE) keep the RoCE rule" 0 $?

# --confirm takes NCCL_SOCKET_IFNAME from the log's "set by environment" line when the rule captured nothing.
printf '%s\n' "node1:100:100 [0] NCCL INFO NCCL version 2.20.5+cuda12.4" \
  "node1:100:120 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0" \
  "node1:100:120 [0] NCCL WARN Bootstrap : no socket interface found" > "$tmp/second.log"
mkdir -p "$tmp/root/sys/class/net/eth0"; echo up > "$tmp/root/sys/class/net/eth0/operstate"
env -u NCCL_SOCKET_IFNAME "$pf" doctor "$tmp/second.log" --confirm --root "$tmp/root" > "$tmp/out" 2>&1
check "second log: the cause refuted on this node exits 0" 0 $?
grep -q "did not name" "$tmp/out"; check "--confirm does not say the log did not name NCCL_SOCKET_IFNAME" 1 $?
grep -q "confirm: refuted - eth0 exists here (operstate up); NCCL_SOCKET_IFNAME=eth0 from the log" "$tmp/out"
check "--confirm checks the log's NCCL_SOCKET_IFNAME" 0 $?

# A job's artefact folder (tests/fixtures/doctor-artefacts/): every file recognised by its content, one timeline.
job=$root/tests/fixtures/doctor-artefacts/sbatch-ib-hang
"$pf" doctor "$job" --json "$tmp/job.json" > "$tmp/out" 2>&1; check "sbatch folder diagnosed" 1 $?
grep -q "first failure: 2026-04-22T10:42:36.400000Z node3" "$tmp/out"; check "text names the first failure in time" 0 $?
grep -q "not given: kernel logs of node2" "$tmp/out"; check "text says which kernel logs were not given" 0 $?
"$py" - "$tmp/job.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a = [r for r in d["results"] if r["key"] == "doctor.artefacts"][0]
p = a["params"]
kinds = sorted(i["kind"] for i in p["inputs"])
assert kinds == ["kernel-log", "log", "ras-text", "slurm-output", "torchelastic-error"], kinds
f = p["first_failure"]
assert f["kind"] == "rule:ib-verbs.nic-link-lost-kernel" and f["host"] == "node3", f
assert f["time_utc"] == "2026-04-22T10:42:36.400000Z" and f["nic"] == "0000:c1:00.0", f
ib = [e for e in p["timeline"] if e["kind"] == "rule:ib-verbs.completion-error-12-ib-link"][0]
assert ib["nic"] == "mlx5_3" and ib["peer"] == "10.0.0.2<47372>" and ib["time_utc"] == "2026-04-22T10:42:37.000000Z", ib
assert [x["id"] for x in p["findings"]] == ["ras.collective_lagging"] and p["findings"][0]["rank"] == 3, p["findings"]
assert any(n.startswith("torchelastic error files of ranks 0-2") for n in p["not_given"]), p["not_given"]
assert a["status"] == "fail" and p["world_size"] == 4
assert [s["file"].rsplit("/", 1)[1] for s in p["skipped"]] == ["README.md"], p["skipped"]
PY
check "json doctor.artefacts: kinds, first failure, NIC and peer, RAS finding, not given" 0 $?
"$py" - "$tmp/job.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
diag = {r["params"]["rule_id"]: r["params"] for r in d["results"] if r["kind"] == "diagnosis"}
order = [r["params"]["rule_id"] for r in d["results"] if r["kind"] == "diagnosis"]
assert order[:3] == ["ib-verbs.nic-link-lost-kernel", "ib-verbs.completion-error-12-ib-link",
                     "timeout-hang.watchdog-timeout"], order
assert diag["ib-verbs.completion-error-12-ib-link"]["consequence_of"] == "ib-verbs.nic-link-lost-kernel"
assert diag["timeout-hang.watchdog-timeout"]["consequence_of"] == "ib-verbs.completion-error-12-ib-link"
PY
check "json diagnoses: the kernel's cable error first, NCCL's retry error its consequence, the watchdog last" 0 $?
grep -q "a consequence of 1 (rule ib-verbs.nic-link-lost-kernel)" "$tmp/out"
check "text says the retry error is a consequence of the cable error" 0 $?
grep -q "fix: the job's first failure was on this rank's host node3 (.*node3/kern.log:3): that failure, not a divergent code path" "$tmp/out"
check "RAS's lagging rank 3 is put down to the first failure on its host, not a code path" 0 $?
if [ -f "$root/tests/tools/validate_json.py" ]; then
  "$py" "$root/tests/tools/validate_json.py" "$root/docs/result-schema.json" "$tmp/job.json" > "$tmp/v" 2>&1
  check "artefact document validates against docs/result-schema.json" 0 $?
fi
"$pf" doctor "$root/tests/fixtures/doctor-artefacts/k8s-pod-logs" > "$tmp/out" 2>&1; check "pod-logs folder diagnosed" 1 $?
grep -q "ras.dead_process host trainer-worker-1 rank 2" "$tmp/out"; check "RAS JSON names the dead rank" 0 $?
grep -q "first failure: 2026-04-22T10:42:31.000000Z gpu 0000:3b:00" "$tmp/out"; check "Xid from dmesg -T first" 0 $?
grep -q "names none of the job's: its events are on no host (save each node's dmesg under the host name the logs give its processes, e.g. trainer-worker-0/dmesg.txt" "$tmp/out"
check "a dmesg -T named after the Kubernetes node, not the pod: on no host, said how to name it" 0 $?

# An artefact alone can report the failure: a RAS status naming a dead rank, with no log at all.
mkdir -p "$tmp/rasonly"; cp "$root/tests/fixtures/doctor-artefacts/k8s-pod-logs/ras-status.json" "$tmp/rasonly/"
"$pf" doctor "$tmp/rasonly" > "$tmp/out" 2>&1; check "RAS status alone: a dead rank exits 1" 1 $?
grep -q "the artefacts below report one" "$tmp/out"; check "text says the artefacts report the failure" 0 $?

# Recognised by content, not name: an ncclras report named like a log, a torchelastic file named .txt.
mkdir -p "$tmp/renamed"
cp "$job/ncclras-10-45.txt" "$tmp/renamed/rank7.log"
cp "$job/torchelastic/attempt_0/3/error.json" "$tmp/renamed/notes.txt"
printf '\177ELF\002\001\001\000junk' > "$tmp/renamed/core.bin"
"$pf" doctor "$tmp/renamed" --json "$tmp/r3.json" > "$tmp/out" 2>&1; check "renamed artefacts diagnosed" 1 $?
"$py" - "$tmp/r3.json" <<'PY'
import json, sys
p = [r for r in json.load(open(sys.argv[1]))["results"] if r["key"] == "doctor.artefacts"][0]["params"]
k = {i["file"].rsplit("/", 1)[1]: i["kind"] for i in p["inputs"]}
assert k == {"rank7.log": "ras-text", "notes.txt": "torchelastic-error"}, k
assert [s["file"].rsplit("/", 1)[1] for s in p["skipped"]] == ["core.bin"], p["skipped"]
assert p["skipped"][0]["reason"].startswith("binary data"), p["skipped"]
PY
check "kinds by content; binary listed as skipped with its reason" 0 $?
grep -q "skipped: .*core.bin - binary data" "$tmp/out"; check "text lists the skipped file" 0 $?

# Only unreadable content: exit 2 naming it. A huge line without newline: read, no crash.
"$pf" doctor "$tmp/renamed/core.bin" > "$tmp/out" 2>&1; check "only binary input exits 2" 2 $?
grep -q "core.bin: binary data" "$tmp/out"; check "message names the binary input" 0 $?
"$py" -c "import sys; sys.stdout.write('x' * (40 << 20) + ' srun: error: n1: task 1: Killed\nsrun: error: n2: task 2: Killed\n')" > "$tmp/huge.out"
"$pf" doctor "$tmp/huge.out" --json "$tmp/h.json" > "$tmp/out" 2>&1; rc=$?
[ $rc -le 1 ]; check "40 MiB line read without a crash" 0 $?
"$pf" doctor "$tmp/clean.log" --utc-offset 2h > "$tmp/out" 2>&1; check "bad --utc-offset exits 2" 2 $?
"$pf" doctor "$job" --utc-offset +02:00 --json "$tmp/tz.json" > /dev/null 2>&1
"$py" -c "
import json, sys
p = [r for r in json.load(open(sys.argv[1]))['results'] if r['key'] == 'doctor.artefacts'][0]['params']
assert p['first_failure']['time_utc'] == '2026-04-22T08:42:36.400000Z', p['first_failure']
" "$tmp/tz.json"; check "--utc-offset converts local times" 0 $?
exit $fail
