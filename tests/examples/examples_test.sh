#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
#
# The files in examples/ are what operators copy: they must parse and, where they can run on one machine, run.
#   - every shell script passes `bash -n`; the MPIJob manifest is valid YAML with the fields mpi-operator needs;
#   - the Slurm prolog runs against this build and exits 0 on this (healthy) machine, leaving a valid document;
#   - examples/thresholds.toml loads and its values reach the result document;
#   - a broken threshold file is refused with exit 2 and no document left behind.
# Environment (from CMake): PF_BIN, PF_SCHEMA, PF_VALIDATE, PF_PYTHON, PF_SOURCE.
set -u
fail() { echo "FAIL: $*"; exit 1; }
EX="$PF_SOURCE/examples"
WORK=$(mktemp -d /tmp/pf-examples.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

for f in "$EX"/slurm/*.sh "$EX"/slurm/*.sbatch; do bash -n "$f" || fail "$f: shell syntax"; done

if /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
  /usr/bin/python3 - "$EX/kubernetes/mpijob.yaml" <<'PYEOF' || fail "mpijob.yaml"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert d["apiVersion"] == "kubeflow.org/v2beta1" and d["kind"] == "MPIJob"
specs = d["spec"]["mpiReplicaSpecs"]
cmd = specs["Launcher"]["template"]["spec"]["containers"][0]["command"]
assert cmd[0] == "mpirun" and "preflight" in cmd and cmd[cmd.index("preflight") + 1] == "check", cmd
assert specs["Worker"]["replicas"] == int(cmd[cmd.index("-np") + 1]), "one rank per worker"
PYEOF
else
  echo "note: python3-yaml missing, manifest not parsed"
fi

PREFLIGHT="$PF_BIN" PREFLIGHT_OUT="$WORK/log" SLURM_JOB_ID=42 bash "$EX/slurm/prolog.sh" ||
  fail "the prolog failed on a healthy machine: $(cat "$WORK/log/prolog.log")"
"$PF_PYTHON" "$PF_VALIDATE" "$PF_SCHEMA" "$WORK/log/prolog-42.json" || fail "prolog document"

"$PF_BIN" check --no-pairs --thresholds "$EX/thresholds.toml" --json "$WORK/t.json" >/dev/null ||
  fail "check with examples/thresholds.toml"
"$PF_PYTHON" - "$WORK/t.json" <<'PYEOF' || fail "thresholds did not reach the document"
import json, sys
t = json.load(open(sys.argv[1]))["context"]["extra"]["thresholds"]
assert t["pairs.bandwidth_fail_fraction"] == 0.5 and t["baseline.regression_percent"] == 20, t
assert t["source"].endswith("thresholds.toml"), t["source"]
PYEOF

printf '[pairs]\nbandwidth_fail_fraction = 2\n' >"$WORK/bad.toml"
"$PF_BIN" check --no-pairs --thresholds "$WORK/bad.toml" --json "$WORK/bad.json" 2>"$WORK/err"
rc=$?
[ $rc = 2 ] || fail "bad threshold file: exit $rc, expected 2"
grep -q "bad.toml" "$WORK/err" && grep -q "out of range" "$WORK/err" || fail "message: $(cat "$WORK/err")"
[ ! -e "$WORK/bad.json" ] || fail "a document was left behind after a usage error"
echo PASS
