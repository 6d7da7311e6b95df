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
exit $fail
