#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fault cases (issue 19, item 5): a rank killed or stopped mid-run, the launcher interrupted, an output location
# that cannot take the document. Each case starts `preflight --local-ranks 2` (this process tree: timeout ->
# preflight, the launcher -> mpirun -> the ranks), does the harm, and checks the exit code, the time the
# survivors took, the message and the document. Exits 0 with PASS when the behaviour is right, 77 to skip.
# Usage: fault_case.sh CASE [ARGS...]. Environment: PF_BIN, PF_PYTHON.
set -uo pipefail
work=$(mktemp -d)
mnt=""
top=""
cleanup() {
  [[ -n $top ]] && kill -KILL -- "-$top" 2> /dev/null  # the whole process group: launcher, mpirun, ranks
  [[ -n $mnt ]] && umount "$mnt" 2> /dev/null
  rm -rf "$work"
}
trap cleanup EXIT
host=$(hostname -s)
fail() {
  echo "FAIL: $*"
  echo "--- stderr:"
  cat "$work/err.txt" 2> /dev/null
  exit 1
}
now() { date +%s.%N; }
elapsed() { "$PF_PYTHON" -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$2"; }
# waitfor SECONDS TEST...: polls until the test holds; false when it never did.
waitfor() {
  local limit=$1
  shift
  for _ in $(seq $((limit * 10))); do
    "$@" && return 0
    sleep 0.1
  done
  return 1
}

# two_ranks: true once mpirun's two children run preflight, and sets ranks[i] to the pid of rank i. A child
# read before its exec still has mpirun's environment, without the rank: not yet.
two_ranks() {
  ranks=()
  local pid r
  for pid in $(pgrep -P "$mpirun"); do
    r=$(tr '\0' '\n' < "/proc/$pid/environ" 2> /dev/null | sed -n 's/^OMPI_COMM_WORLD_RANK=//p')
    [[ -n $r ]] && ranks[r]=$pid
  done
  [[ -n ${ranks[0]:-} && -n ${ranks[1]:-} ]]
}
# start ARGS...: preflight ARGS --local-ranks 2 in the background, bounded at 120 s; sets launcher, mpirun and
# ranks once both ranks run.
start() {
  # A process group of its own, for cleanup; in the background setsid execs at once, so $! is timeout's pid.
  setsid timeout -s KILL 120 "$PF_BIN" "$@" --local-ranks 2 > "$work/out.txt" 2> "$work/err.txt" &
  top=$!
  waitfor 20 pgrep -P "$top" > /dev/null || fail "the launcher did not start"
  launcher=$(pgrep -P "$top")
  waitfor 20 pgrep -P "$launcher" > /dev/null || fail "mpirun did not start"
  mpirun=$(pgrep -P "$launcher")
  [[ $mpirun =~ ^[0-9]+$ ]] || fail "the launcher has no single child (mpirun): $mpirun"
  waitfor 30 two_ranks || fail "the two ranks did not start"
}
# finish: waits for the job, sets rc and took (seconds from the harm to the end of every process).
finish() {
  wait "$top"
  rc=$?
  took=$(elapsed "$t0" "$(now)")
  top=""
  echo "exit $rc after ${took} s"
}
# partial_json FILE CODE REASON: a whole JSON document flagged partial (never a truncated file) that tells the
# end the process had: exit_code CODE, verdict "timeout" for 4 and "error" otherwise, a partial_reason matching
# the regex REASON; and `preflight report FILE` exits CODE too.
partial_json() {
  "$PF_PYTHON" - "$1" "$2" "$3" << 'PY' || fail "$1 is not a whole document flagged partial, exit $2, '$3'"
import json, re, sys
d = json.load(open(sys.argv[1]))
code, reason = int(sys.argv[2]), sys.argv[3]
extra = d["context"]["extra"]
assert extra.get("partial") is True, d["context"]
assert d["exit_code"] == code, ("exit_code", d["exit_code"], "expected", code)
assert d["verdict"] == ("timeout" if code == 4 else "error"), ("verdict", d["verdict"])
assert re.search(reason, extra["partial_reason"]), ("partial_reason", extra["partial_reason"], "expected", reason)
print("document:", sum(len(r.get("rows", [])) for r in d["results"]), "rows, exit", d["exit_code"], d["verdict"],
      extra["partial_reason"])
PY
  timeout 30 "$PF_BIN" report "$1" > /dev/null 2>&1
  local rc=$?
  [[ $rc -eq $2 ]] || fail "preflight report $1 exits $rc, expected $2 as the document says"
}
# solo ARGS...: preflight ARGS as one process, no launcher, in the background; sets top once it runs.
solo() {
  setsid timeout -s KILL 120 "$PF_BIN" "$@" > "$work/out.txt" 2> "$work/err.txt" &
  top=$!
  waitfor 20 pgrep -P "$top" > /dev/null || fail "preflight did not start"
  launcher=$(pgrep -P "$top")
}
# tiny_tmpfs DIR ro|rw: a 16 KiB tmpfs at DIR, unmounted on exit; skips the case (77) where it cannot be had.
tiny_tmpfs() {
  [[ $(id -u) -eq 0 ]] || { echo "SKIP: mounting a tiny tmpfs needs root"; exit 77; }
  mkdir "$1"
  mount -t tmpfs -o "size=16k,$2" tmpfs "$1" || { echo "SKIP: cannot mount a tmpfs"; exit 77; }
  mnt=$1
}
# refused FILE REGEX: a sweep asked to write FILE exits 2 at once, with a message matching REGEX, measuring nothing.
refused() {
  t0=$(now)
  timeout 60 "$PF_BIN" sweep all_reduce --local-ranks 2 -b 8 -e 1K --json "$1" > "$work/out.txt" 2> "$work/err.txt"
  rc=$? took=$(elapsed "$t0" "$(now)")
  echo "exit $rc after $took s"
  [[ $rc -eq 2 ]] || fail "exit code $rc, expected 2"
  grep -Eq "cannot write '$1': .*$2" "$work/err.txt" || fail "no message"
  [[ ! -s $work/out.txt ]] || fail "it measured before failing: $(cat "$work/out.txt")"
}
sweep=(sweep all_reduce -b 8 -e 64M -n 200 --json "$work/r.json")
scale=(scale --ranks 1,2 --reps 100 --steps 50 --json "$work/r.json")

case "$1" in
  kill)  # kill COMMAND RANK: SIGKILL one rank mid-run; the other ends within seconds, exit 3, naming it
    cmd=$2 rank=$3
    if [[ $cmd == sweep ]]; then
      start "${sweep[@]}"
      waitfor 60 test -s "$work/r.json" || fail "no partial document within 60 s"  # measuring has begun
    elif [[ $cmd == scale ]]; then
      start "${scale[@]}"
      sleep 4
    else  # check and pairs take about a second on one host: killed as soon as both ranks run
      start "$cmd" --json "$work/r.json"
    fi
    t0=$(now)
    kill -KILL "${ranks[$rank]}"
    finish
    [[ $rc -eq 3 ]] || fail "exit code $rc, expected 3"
    "$PF_PYTHON" -c "import sys; sys.exit(float(sys.argv[1]) > 15)" "$took" || fail "took $took s to end"
    # Open MPI names the dead rank and its node; our line says what it means.
    grep -Eq "process rank $rank with PID [0-9]+ on node $host exited on signal 9" "$work/err.txt" ||
      fail "no message naming rank $rank on $host"
    grep -q "a rank died on signal 9 (Killed)" "$work/err.txt" || fail "no preflight line on the dead rank"
    # The survivor rank 0 writes the sweep's document so far; a killed rank 0 leaves its last snapshot. (The
    # others write theirs only at the end, or were killed before measuring: no file, or a whole one.)
    # A killed rank 0 leaves its last snapshot ("the run did not finish"); a survivor rank 0 sees only
    # mpirun's SIGTERM, and the launcher makes its document say what happened, with the launcher's exit code.
    died='^partial: (a rank died on signal 9 \(Killed\)|the run did not finish)$'
    if [[ $cmd == sweep ]]; then
      partial_json "$work/r.json" 3 "$died"
      [[ $rank -eq 0 ]] || grep -q "terminated (SIGTERM); the document so far is in" "$work/err.txt" ||
        fail "rank 0 did not say where the partial document is"
    else
      [[ ! -e $work/r.json ]] || partial_json "$work/r.json" 3 "$died"
    fi
    ;;
  stop)  # stop RANK: SIGSTOP one rank; --timeout ends the job with exit 4, naming the stopped rank
    rank=$2 other=$((1 - $2))
    start "${sweep[@]}" --timeout 10
    waitfor 60 grep -q "^ *8 " "$work/out.txt" || fail "no row measured within 60 s"  # stopped mid-sweep
    t0=$(now)
    kill -STOP "${ranks[$rank]}"
    finish
    [[ $rc -eq 4 ]] || fail "exit code $rc, expected 4"
    "$PF_PYTHON" -c "import sys; sys.exit(float(sys.argv[1]) > 25)" "$took" || fail "took $took s to end"
    grep -q "rank $other on $host: timed out after 10 s (--timeout); stuck: rank $rank (pid ${ranks[$rank]}) on $host is stopped" \
      "$work/err.txt" || fail "no message naming the stopped rank $rank"
    if [[ $rank -ne 0 || -e $work/r.json ]]; then
      partial_json "$work/r.json" 4 '^partial: timed out after 10 s \(--timeout\)$'
    fi
    ;;
  stop-all)  # every rank stopped: no watchdog can run, the launcher ends the job 10 s after --timeout, exit 4
    start "${sweep[@]}" --timeout 5
    waitfor 60 grep -q "^ *8 " "$work/out.txt" || fail "no row measured within 60 s"
    t0=$(now)
    kill -STOP "${ranks[0]}" "${ranks[1]}"
    finish
    [[ $rc -eq 4 ]] || fail "exit code $rc, expected 4"
    "$PF_PYTHON" -c "import sys; sys.exit(float(sys.argv[1]) > 30)" "$took" || fail "took $took s to end"
    grep -q "the ranks had not ended 10 s after --timeout 5: stopping mpirun" "$work/err.txt" || fail "no message"
    partial_json "$work/r.json" 4 '^partial: timed out after 5 s \(--timeout\)$'
    ;;
  signal)  # signal INT|TERM: to the launcher; it exits 130 or 143 and the ranks leave the partial document
    sig=$2
    start "${sweep[@]}"
    waitfor 60 grep -q "^ *8 " "$work/out.txt" || fail "no row measured within 60 s"
    t0=$(now)
    kill -"$sig" "$launcher"
    finish
    want=$([[ $sig == INT ]] && echo 130 || echo 143)
    [[ $rc -eq $want ]] || fail "exit code $rc, expected $want"
    "$PF_PYTHON" -c "import sys; sys.exit(float(sys.argv[1]) > 15)" "$took" || fail "took $took s to end"
    # mpirun turns SIGINT into SIGTERM for the ranks: the launcher's code and words are the document's.
    reason=$([[ $sig == INT ]] && echo 'interrupted \(SIGINT\)' || echo 'terminated \(SIGTERM\)')
    partial_json "$work/r.json" "$want" "^partial: $reason\$"
    grep -q "the document so far is in $work/r.json (marked partial" "$work/err.txt" || fail "no message"
    ;;
  timeout)  # --timeout with two ranks: exit 4, and the document says timeout, exit 4, whichever rank fired
    start "${sweep[@]}" --timeout 4
    t0=$(now)
    finish
    [[ $rc -eq 4 ]] || fail "exit code $rc, expected 4"
    partial_json "$work/r.json" 4 '^partial: timed out after 4 s \(--timeout\)$'
    ;;
  solo)  # solo INT|TERM|timeout: one process, no launcher; exit 130, 143 or 4, and the document says the same
    what=$2
    if [[ $what == timeout ]]; then
      solo "${sweep[@]}" --timeout 3
      want=4 reason='timed out after 3 s \(--timeout\)'
    else
      solo "${sweep[@]}"
      want=$((128 + $(kill -l "$what")))
      reason=$([[ $what == INT ]] && echo 'interrupted \(SIGINT\)' || echo 'terminated \(SIGTERM\)')
      waitfor 60 grep -q "^ *8 " "$work/out.txt" || fail "no row measured within 60 s"
      kill -"$what" "$launcher"
    fi
    t0=$(now)
    finish
    [[ $rc -eq $want ]] || fail "exit code $rc, expected $want"
    partial_json "$work/r.json" "$want" "^partial: $reason\$"
    ;;
  unwritable)  # a read-only output location: exit 2 before anything is measured
    if [[ $(id -u) -eq 0 ]]; then
      tiny_tmpfs "$work/out" ro
    else
      mkdir "$work/out" && chmod 555 "$work/out"
    fi
    refused "$work/out/r.json" "(Read-only|not writable)"
    ;;
  full)  # a full output location: exit 2 before anything is measured
    tiny_tmpfs "$work/out" rw
    dd if=/dev/zero of="$work/out/filler" bs=4k count=8 2> /dev/null  # fails when full, as meant
    refused "$work/out/r.json" "No space left on device"
    ;;
  full-late)  # room for the probe but not the document: exit 3, the previous file whole, no temporary left
    tiny_tmpfs "$work/full" rw
    echo '{"previous": true}' > "$work/full/r.json"
    dd if=/dev/zero of="$work/full/filler" bs=4k count=2 2> /dev/null
    t0=$(now)
    timeout 120 "$PF_BIN" sweep all_reduce --local-ranks 2 -b 8 -e 64K -d all -o all -n 2 -w 1 \
      --json "$work/full/r.json" > "$work/out.txt" 2> "$work/err.txt"
    rc=$? took=$(elapsed "$t0" "$(now)")
    echo "exit $rc after $took s"
    [[ $rc -eq 3 ]] || fail "exit code $rc, expected 3"
    grep -q "cannot write '$work/full/r.json': No space left on device (the previous file" "$work/err.txt" ||
      fail "no message"
    # Unchanged, or (when a snapshot still fitted) a whole partial document: never a truncated file.
    grep -qx '{"previous": true}' "$work/full/r.json" || partial_json "$work/full/r.json" 3 '^partial: '
    [[ -z $(ls -A "$work/full" | grep -v -x -e filler -e r.json) ]] || fail "left behind: $(ls -A "$work/full")"
    ;;
  *) fail "unknown case $1" ;;
esac
echo "PASS"
