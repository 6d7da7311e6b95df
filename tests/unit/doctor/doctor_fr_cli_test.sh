#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `preflight doctor FOLDER` on what real gloo jobs with planted faults left behind (tests/fixtures/flight-recorder/:
# each rank's pickled Flight Recorder dump, its log and torchelastic error files), as a user gives it: the folder
# holds one dump per rank, as PyTorch writes them. The verdict must name the rank, the group, the sequence id, the
# operation and the sizes that PyTorch's fr_trace named on the same dumps (fr_trace_normalised.txt beside them).
#   doctor_fr_cli_test.sh PREFLIGHT FIXTURES PYTHON3
set -u
pf=$1 fx=$2 py=${3:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # name expected actual
  if [ "$2" != "$3" ]; then echo "FAIL $1: expected $2, got $3"; fail=1; else echo "ok   $1"; fi
}

# case exit kind culprit seq op input_sizes
run_case() {
  c=$1
  mkdir -p "$tmp/$c"
  cp "$fx/$c"/rank_? "$fx/$c"/rank_?.log "$tmp/$c/"
  cp "$fx/$c"/error_*.json "$tmp/$c/" 2>/dev/null
  "$pf" doctor "$tmp/$c" --json "$tmp/$c.json" > "$tmp/$c.txt" 2>&1; check "$c: exit code" "$2" $?
  "$py" - "$tmp/$c.json" "$3" "$4" "$5" "$6" "$7" <<'PY'
import json, sys
path, kind, culprit, seq, op, sizes = sys.argv[1:]
d = json.load(open(path))
a = [r for r in d["results"] if r["key"] == "doctor.artefacts"][0]["params"]
kinds = sorted({i["kind"] for i in a["inputs"]})
assert "flight-recorder" in kinds, kinds
h = a["sections"]["flight_recorder"]["headline"]
assert h["kind"] == kind, h
assert h["ranks"] == [int(culprit)], h
assert str(h["seq"]) == seq and h["op"] == op, h
assert json.dumps(h["input_sizes"]) == sizes, h["input_sizes"]
f = [x for x in a["findings"] if x["id"] == "flight_recorder." + kind]
assert len(f) == 1 and f[0]["rank"] == int(culprit), a["findings"]
PY
  check "$c: $3 rank $4 at seq $5 $6 $7" 0 $?
}

run_case skip_allreduce 1 not-reached 2 3 gloo:all_reduce '[[1024]]'
grep -q "^Flight Recorder: rank 2 never reached seq 3 gloo:all_reduce in group 0 (default_pg)" "$tmp/skip_allreduce.txt"
check "skip_allreduce: the verdict leads the text" 0 $?
# fr_trace: "Culprit rank 1" at seq 3, rank 0's dump missing.
run_case size_mismatch 1 mismatch 1 3 gloo:all_reduce '[[1024]]'
grep -q "dumps not given: rank 0" "$tmp/size_mismatch.txt"; check "size_mismatch: rank 0's missing dump said" 0 $?
# fr_trace: "Missing dump files from ranks {3}". A missing dump alone is a gap, not a failure of its own.
run_case killed_rank 1 missing-rank 3 3 gloo:all_reduce '[[1024]]'
grep -q "Flight Recorder dumps of ranks 3 (1 of 4 ranks)" "$tmp/killed_rank.txt"; check "killed_rank: not given said" 0 $?
run_case straggler 1 straggler 1 4 gloo:all_reduce '[[1024]]'
# PyTorch's analyser saved beside the dumps after it stopped on them (KeyError): its traceback is the analyser's
# failure, said as such, and no diagnosis is guessed from its words for a job whose collectives all completed.
cp "$fx/straggler/fr_trace.txt" "$tmp/straggler/"
"$pf" doctor "$tmp/straggler" > "$tmp/straggler_fr_trace.txt" 2>&1
grep -q "fr_trace.analyser_failed: PyTorch's Flight Recorder analyser (fr_trace) stopped with KeyError" \
  "$tmp/straggler_fr_trace.txt"; check "straggler: fr_trace's own exception said as the analyser's" 0 $?
grep -q "similar-reports" "$tmp/straggler_fr_trace.txt"; check "straggler: no diagnosis from the analyser's words" 1 $?
run_case mismatched_group 1 mismatch 3 1 gloo:all_reduce '[[1024]]'
# Point-to-point (gloo behind torch's generic recorder hook): the send rank 1 never received, and a receive rank 2
# posted twice as large as rank 1's send. The text names the culprit, its peer and both ops.
run_case p2p_unmatched_send 1 not-reached 1 2 'gloo_hooked:send 0->1' '[[1048576]]'
grep -q "^Flight Recorder: rank 1 never posted the receive matching rank 0's p2p seq 2 gloo_hooked:send 0->1 in group 0" \
  "$tmp/p2p_unmatched_send.txt"
check "p2p_unmatched_send: the culprit, its peer and the send lead the text" 0 $?
run_case p2p_size_mismatch 1 mismatch 2 4 'gloo_hooked:send 1->2' '[[1048576]]'
grep -q "rank 2's p2p seq 3 gloo_hooked:recv 2<-1 receives sizes \[\[2097152\]\] where rank 1's p2p seq 4" \
  "$tmp/p2p_size_mismatch.txt"
check "p2p_size_mismatch: both ops and both sizes said" 0 $?

# A dump that would run code (a pickle GLOBAL) is refused and counted as not given; the others are still read.
mkdir -p "$tmp/hostile"
cp "$fx/skip_allreduce"/rank_0 "$fx/skip_allreduce"/rank_1 "$fx/skip_allreduce"/rank_3 "$tmp/hostile/"
printf '\200\002}q\000(X\007\000\000\000entriesq\001cos\nsystem\nq\002X\002\000\000\000idq\003\205q\004Rq\005u.' \
  > "$tmp/hostile/rank_2"
"$pf" doctor "$tmp/hostile" > "$tmp/hostile.txt" 2>&1; rc=$?
[ $rc -le 1 ]; check "hostile dump: no crash, no usage error" 0 $?
grep -q "not read: .*rank_2" "$tmp/hostile.txt"; check "hostile dump: refused and named" 0 $?
grep -q "missing-rank: dumps of rank 2 not given" "$tmp/hostile.txt"; check "hostile dump: its rank counted as not given" 0 $?
# A file name that is not UTF-8 (bytes, as Linux allows) still gives a JSON document: names are made valid UTF-8.
mkdir -p "$tmp/bytes"
cp "$fx/skip_allreduce"/rank_0 "$fx/skip_allreduce"/rank_1 "$fx/skip_allreduce"/rank_3 "$tmp/bytes/"
cp "$fx/skip_allreduce"/rank_2 "$tmp/bytes/$(printf 'r\377ank_2')"
"$pf" doctor "$tmp/bytes" --json "$tmp/bytes.json" > "$tmp/bytes.txt" 2>&1; check "non-UTF-8 file name: exit code" 1 $?
"$py" -c "import json, sys; json.load(open(sys.argv[1]))" "$tmp/bytes.json"; check "non-UTF-8 file name: valid JSON" 0 $?
exit $fail
