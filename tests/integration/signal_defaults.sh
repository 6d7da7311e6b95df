#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
#
# A stop or a crash of `preflight check` reads as one: exit 128 + the signal, no file left in the working
# directory, never exit 1 ("a check failed") and never a hang. Libraries loaded with preflight catch these signals
# before main (libinfinipath, through libfabric's PSM provider: a backtrace file in the working directory, then
# exit(1), which could also hang in the static destructors); main gives them their default action back. Slurm
# sends SIGTERM to a prolog whose job is cancelled, so examples/slurm/prolog.sh depends on this.
# SIGTERM and SIGSEGV land at several moments of a one-rank `check --quick --no-pairs` once main has started (its
# first thread beside the main one; before main, while the libraries load, only IPATH_NO_BACKTRACE=1 keeps
# libinfinipath's handler away); at least one of them must land while it runs. Environment: PF_BIN.
set -u
work=$(mktemp -d /tmp/pf-signals.XXXXXX)
pid=""
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work" || exit 1
ulimit -c 0  # a SIGSEGV must not leave a core file either
fail() { echo "FAIL: $*"; exit 1; }

sigs="TERM SEGV"
# Under AddressSanitizer (ci/sanitize.sh) a SIGSEGV is its report, exit 1, on purpose: test SIGTERM only.
if ldd "$PF_BIN" 2>/dev/null | grep -q libasan; then
  sigs=TERM
  echo "note: AddressSanitizer build, SIGSEGV not sent"
fi
hit=0
for sig in $sigs; do
  want=$((128 + $(kill -l "$sig")))
  for delay in 0 0.1 0.3 0.6; do
    "$PF_BIN" check --quick --no-pairs --json "$work/d.json" >"$work/out.txt" 2>&1 &
    pid=$!
    for _ in $(seq 1000); do
      [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -ge 2 ] || ! kill -0 "$pid" 2>/dev/null && break
      sleep 0.01
    done
    sleep "$delay"
    kill "-$sig" "$pid" 2>/dev/null
    for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && fail "SIG$sig $delay s after the second thread: still running 20 s later (hung)"
    wait "$pid"
    rc=$?
    pid=""
    echo "SIG$sig $delay s after the second thread: exit $rc"
    if [ "$rc" = 0 ]; then continue; fi  # it had finished before the signal
    [ "$rc" = "$want" ] ||
      fail "SIG$sig $delay s after the second thread: exit $rc, expected $want: $(head -c 400 "$work/out.txt")"
    hit=$((hit + 1))
  done
done
[ $hit -gt 0 ] || fail "every run finished before its signal: nothing was tested"
left=$(find "$work" -mindepth 1 ! -name out.txt ! -name 'd.json*' -printf '%f ')
[ -z "$left" ] || fail "left in the working directory: $left"
echo "PASS ($hit signals landed in a run)"
