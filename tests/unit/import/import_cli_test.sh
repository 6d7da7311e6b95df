#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `preflight report` on nccl-tests output end to end: a real output imports (exit 0, a valid document), a file
# without a table is exit 2 naming the file and leaves no --output behind, warnings go to stderr as FILE:LINE,
# stdin works.
#   import_cli_test.sh PREFLIGHT SRCROOT PYTHON3
set -u
pf=$1 root=$2 py=${3:-python3}
fx=$root/tests/fixtures/nccl-tests
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # name expected actual
  if [ "$2" != "$3" ]; then echo "FAIL $1: expected $2, got $3"; fail=1; else echo "ok   $1"; fi
}

"$pf" report "$fx/ztan-a3mega-16ranks.txt" --format json > "$tmp/doc.json" 2> "$tmp/err"; check "real output exits 0" 0 $?
"$py" - "$tmp/doc.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["context"]["tool"] == "nccl-tests" and d["context"]["world_size"] == 16, d["context"]
assert d["results"][0]["key"] == "sweep.all_reduce" and len(d["results"][0]["rows"]) == 62
PY
check "json document has the 16 ranks and 62 rows" 0 $?
if "$py" -c "import jsonschema" 2>/dev/null; then
  "$py" "$root/tests/tools/validate_json.py" "$root/docs/result-schema.json" "$tmp/doc.json"
  check "document validates against docs/result-schema.json" 0 $?
  "$pf" report "$fx/synthetic-nccl-tests-J.json" --format json --output "$tmp/j.json" 2> /dev/null
  "$py" "$root/tests/tools/validate_json.py" "$root/docs/result-schema.json" "$tmp/j.json"
  check "imported -J document validates" 0 $?
fi

"$pf" report "$fx/synthetic-garbage.txt" --output "$tmp/out.json" > "$tmp/out" 2>&1; check "garbage exits 2" 2 $?
grep -q "synthetic-garbage.txt" "$tmp/out"; check "message names the file" 0 $?
[ ! -e "$tmp/out.json" ]; check "no --output file left on error" 0 $?
[ -z "$(ls -A "$tmp" | grep -v -e '^doc.json$' -e '^err$' -e '^out$' -e '^j.json$')" ]; check "no temporary file left" 0 $?

"$pf" report "$fx/dgx-spark-playbooks-103-version-line.txt" > "$tmp/out" 2> "$tmp/err"; check "warnings exit 0" 0 $?
grep -q "dgx-spark-playbooks-103-version-line.txt:16: skipped:" "$tmp/err"; check "stderr names FILE:LINE" 0 $?
grep -q "^ *8192 *2048 *float *sum" "$tmp/out"; check "table printed" 0 $?

"$pf" report "$fx/nccl-tests-322-failure-mid-run.txt" --format csv > /dev/null 2>&1; check "failure in the run exits 3" 3 $?
"$pf" report "$fx/synthetic-na-halves-cputime-timestamp.txt" > /dev/null 2>&1; check "wrong elements exit 1" 1 $?
"$pf" report - --format csv < "$fx/aws-ofi-nccl-65-old-layout-info.txt" > "$tmp/out" 2>&1; check "stdin" 0 $?
grep -q "^sweep.all_reduce,all_reduce,8388608" "$tmp/out"; check "stdin csv rows" 0 $?
"$pf" report "$fx/synthetic-two-collectives.txt" "$fx/ztan-a3mega-16ranks.txt" --format csv > "$tmp/out" 2>&1
check "several files" 0 $?
grep -q "^sweep.all_reduce.f2," "$tmp/out"; check "several files keep keys unique" 0 $?
exit $fail
