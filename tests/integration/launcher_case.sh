#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
#
# The `--local-ranks` launcher owns its job (issue 48, items 8 and 10):
#   kill-launcher  SIGKILL to the launcher mid-sweep: mpirun and both ranks are gone within seconds (they used to
#                  run the sweep to its end);
#   kill-mpirun    SIGKILL to mpirun itself: the ranks follow it, and the launcher exits 3;
#   no-network CMD...  no network interface at all (unshare -n, root): MPI cannot start; exit 3 with Preflight's
#                  message, and the --json document says so (verdict error, exit_code 3), never exit 1.
# The processes of a run are found by a marker no other process has: the name of its --json file.
# Exits 0 with PASS, 77 to skip (with the reason), 1 with FAIL. Environment: PF_BIN, PF_PYTHON.
set -uo pipefail
work=$(mktemp -d /tmp/pf-launcher.XXXXXX)
marker="pf-owned-$$-$RANDOM"
doc="$work/$marker.json"
top=""
cleanup() {
  [[ -n $top ]] && kill -KILL -- "-$top" 2> /dev/null
  local left
  left=$(pgrep -f "$marker")
  [[ -n $left ]] && kill -KILL $left 2> /dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  echo "--- stderr:"
  tail -n 30 "$work/err.txt" 2> /dev/null
  exit 1
}
skip() {
  echo "SKIP: $*"
  exit 77
}
waitfor() {  # waitfor SECONDS TEST...: polls until the test holds; false when it never did
  local limit=$1
  shift
  for _ in $(seq $((limit * 10))); do
    "$@" && return 0
    sleep 0.1
  done
  return 1
}
# The run's processes (launcher, mpirun, ranks; `timeout` until it notices its child died), one line each.
left() { pgrep -a -f "$marker"; }
none_left() { [[ -z $(left) ]]; }
two_ranks() { [[ $(pgrep -P "$mpirun" | wc -l) -ge 2 ]]; }

# start: a sweep that runs for tens of seconds; sets launcher and mpirun once both ranks run.
start() {
  setsid timeout -s KILL 120 "$PF_BIN" sweep all_reduce --local-ranks 2 -b 8 -e 64M -n 200 --json "$doc" \
    > "$work/out.txt" 2> "$work/err.txt" &
  top=$!
  waitfor 20 pgrep -P "$top" > /dev/null || fail "the launcher did not start"
  launcher=$(pgrep -P "$top")
  waitfor 20 pgrep -P "$launcher" > /dev/null || fail "mpirun did not start"
  mpirun=$(pgrep -P "$launcher")
  waitfor 30 two_ranks || fail "the two ranks did not start"
  sleep 1
  kill -0 "$launcher" 2> /dev/null || fail "the sweep ended within a second: nothing to kill"
}
# gone_within SECONDS WHAT: every process of the run has ended within SECONDS of the kill.
gone_within() {
  local t0=$SECONDS
  waitfor "$1" none_left || fail "$2: still running $1 s later:"$'\n'"$(left)"
  echo "$2: every process of the run ended within $((SECONDS - t0 + 1)) s"
}

case "$1" in
  kill-launcher)
    start
    kill -KILL "$launcher"
    gone_within 10 "SIGKILL to the launcher"
    { wait "$top"; } 2> /dev/null  # timeout's status (137: its child was killed) means nothing here
    top=""
    # mpirun stopped the ranks with SIGTERM: rank 0 left its document so far, whole and marked partial.
    if [[ -e $doc ]]; then
      "$PF_PYTHON" -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["context"]["extra"]["partial"]' \
        "$doc" || fail "$doc is not a whole document marked partial"
    fi
    ;;
  kill-mpirun)
    start
    kill -KILL "$mpirun"
    gone_within 10 "SIGKILL to mpirun"
    wait "$top"
    rc=$?
    top=""
    [[ $rc -eq 3 ]] || fail "the launcher exited $rc after its mpirun was killed, expected 3"
    grep -q "mpirun ended on signal 9" "$work/err.txt" || fail "the launcher did not say that mpirun was killed"
    ;;
  no-network)
    shift
    [[ $(id -u) -eq 0 ]] || skip "unshare -n needs root"
    unshare -n true 2> /dev/null || skip "unshare -n does not work here (no network namespaces)"
    timeout 120 unshare -n "$PF_BIN" "$@" --local-ranks 2 --json "$doc" > "$work/out.txt" 2> "$work/err.txt"
    rc=$?
    [[ $rc -eq 3 ]] || fail "exit $rc with no network interface, expected 3 (MPI could not start)"
    grep -q "preflight $1: MPI did not start: mpirun exited with status [0-9]* before any rank got through MPI" \
      "$work/err.txt" || fail "no message of Preflight's own saying that MPI did not start"
    grep -q "no network interface is up on this machine, not even loopback.*ip link set lo up" "$work/err.txt" ||
      fail "the message does not say what is missing and what to do"
    grep -q "a check failed" "$work/err.txt" && fail "the start-up failure reads as a failed check"
    "$PF_PYTHON" - "$doc" << 'PY' || fail "$doc does not tell the start-up failure (verdict error, exit_code 3)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "error" and d["exit_code"] == 3, (d["verdict"], d["exit_code"])
assert d["context"]["extra"]["partial"] is True, d["context"]["extra"]
assert d["context"]["extra"]["partial_reason"].startswith("partial: MPI did not start"), d["context"]["extra"]
PY
    timeout 30 "$PF_BIN" report "$doc" > /dev/null 2>&1
    rrc=$?
    [[ $rrc -eq 3 ]] || fail "preflight report of the document exits $rrc, expected 3 as it says"
    none_left || fail "processes of the run left:"$'\n'"$(left)"
    echo "exit 3: $(grep -m1 'MPI did not start' "$work/err.txt")"
    ;;
  *)
    echo "usage: $0 kill-launcher|kill-mpirun|no-network COMMAND..."
    exit 2
    ;;
esac
echo PASS
