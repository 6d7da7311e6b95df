#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 48's reproducers against the command line: each hostile input or option ends with exit 2 and a message
# naming the input (the file, or the option), within a few seconds, never a signal, a hang or an exit code the
# input chose. Big inputs are generated here at run time.
#   hostile_input_test.sh PREFLIGHT SRCROOT PYTHON3
set -u
pf=$1 root=$2 py=${3:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# expect NAME CODE PATTERN COMMAND...: runs COMMAND under a 20 s limit; its exit code must be CODE and its
# stderr must hold PATTERN (a fixed string) exactly once.
expect() {
  name=$1 code=$2 pattern=$3
  shift 3
  timeout -s KILL 20 "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
  rc=$?
  n=$(grep -cF -- "$pattern" "$tmp/err")
  if [ "$rc" != "$code" ] || [ "$n" != 1 ]; then
    echo "FAIL $name: exit $rc (want $code), '$pattern' found $n times in:"; head -c 600 "$tmp/err"; echo
    fail=1
  else
    echo "ok   $name"
  fi
}
golden=$root/tests/golden/documents/sweep.json

# 1. 52,000 levels of nesting inside a document (105 KB): a stack overflow when the document was copied.
"$py" -c "
import json, sys
d = json.load(open(sys.argv[1]))
s = json.dumps(d)
print(s[:-1] + ', \"x\": ' + '[' * 52000 + ']' * 52000 + '}')" "$golden" > "$tmp/deep.json"
for f in md html csv json; do
  expect "deep nesting, report --format $f" 2 "deep.json' nests JSON more than 256 levels" "$pf" report "$tmp/deep.json" --format $f
done
expect "deep nesting, compare" 2 "deep.json' nests JSON" "$pf" compare "$golden" "$tmp/deep.json"
expect "deep nesting, check --baseline" 2 "deep.json' nests JSON" "$pf" check --baseline "$tmp/deep.json"

# 2. An nccl-tests row whose count times the element size wraps to 0 (then size % 0: SIGFPE).
printf '#  size  count  type  redop  root  time  algbw  busbw #wrong  time  algbw  busbw #wrong\n' > "$tmp/wrap.txt"
printf '   1024  9223372036854775808  float  sum  -1  10.0  0.10  0.10  0  10.0  0.10  0.10  0\n' >> "$tmp/wrap.txt"
expect "count overflow, report" 2 "wrap.txt:2 was skipped: count 9223372036854775808 of float elements does not fit" \
  "$pf" report "$tmp/wrap.txt" --format md
expect "count overflow, compare" 2 "wrap.txt:2 was skipped: count" "$pf" compare "$tmp/wrap.txt" "$tmp/wrap.txt"
printf '   2048  512  float  sum  -1  10.0  0.10  0.10  0  10.0  0.10  0.10  0\n' >> "$tmp/wrap.txt"
expect "count overflow beside a good row" 0 "wrap.txt:2: skipped: count 9223372036854775808" \
  "$pf" report "$tmp/wrap.txt" --format md

# 3. A nan threshold passed the range check and switched the baseline gate off.
printf '[baseline]\nregression_percent = nan\n' > "$tmp/nan.toml"
expect "nan threshold" 2 "nan.toml: 'baseline.regression_percent' = nan is out of range" \
  "$pf" check --thresholds "$tmp/nan.toml"

# 4. report exited with whatever exit_code the document held (139 looked like a crash, 256 like a pass).
for code in 139 256 1099511627776 -1; do
  "$py" -c "
import json, sys
d = json.load(open(sys.argv[1])); d['exit_code'] = int(sys.argv[2]); json.dump(d, open(sys.argv[3], 'w'))" \
    "$golden" "$code" "$tmp/code.json"
  expect "exit_code $code, report" 2 "code.json': exit_code: " "$pf" report "$tmp/code.json"
  expect "exit_code $code, prometheus" 2 "code.json': exit_code: " "$pf" report "$tmp/code.json" --format prometheus
done
printf '{"schema_version": 2.5}' > "$tmp/v.json"
expect "schema_version 2.5" 2 "v.json': schema_version: 2.5 is not a whole number" "$pf" report "$tmp/v.json"

# 5. Huge bandwidths made the chart's tick loop grow the output to 4 GB; endless and blocking inputs.
sed 's/  6\.35 /1.7976931348623157e308 /' "$root/tests/fixtures/nccl-tests/aws-ofi-nccl-65-old-layout-info.txt" \
  > "$tmp/huge.txt"
for f in html md; do
  timeout -s KILL 20 "$pf" report "$tmp/huge.txt" --format $f > "$tmp/huge.$f" 2> "$tmp/err"
  rc=$? size=$(wc -c < "$tmp/huge.$f")
  if [ $rc -gt 4 ] || [ "$size" -gt 5000000 ]; then echo "FAIL huge algbw, $f: exit $rc, $size bytes"; fail=1; else echo "ok   huge algbw, $f ($size bytes)"; fi
done
mkfifo "$tmp/fifo"
expect "fifo, report" 2 "fifo' is not a regular file" "$pf" report "$tmp/fifo"
expect "fifo, compare" 2 "fifo' is not a regular file" "$pf" compare "$golden" "$tmp/fifo"
expect "/dev/zero, report" 2 "'/dev/zero' is not a regular file" "$pf" report /dev/zero
expect "/dev/urandom, compare" 2 "'/dev/urandom' is not a regular file" "$pf" compare /dev/urandom "$golden"
timeout -s KILL 20 sh -c "'$pf' report - < /dev/zero" > /dev/null 2> "$tmp/err"
rc=$?
if [ $rc != 2 ] || ! grep -qF "'<stdin>' is larger than 256 MiB" "$tmp/err"; then
  echo "FAIL endless stdin: exit $rc"; head -c 300 "$tmp/err"; fail=1
else echo "ok   endless stdin"; fi
truncate -s 10G "$tmp/ten.json"
expect "10 GB file" 2 "ten.json' is larger than 256 MiB" "$pf" report "$tmp/ten.json"

# 6, 7, 11. Options: a timeout that overflows the clock, a rank count no machine runs, CLI11's conversions.
for t in 1e10 inf nan -1; do
  expect "--timeout $t" 2 "--timeout " "$pf" sweep all_reduce --timeout "$t"
done
expect "--local-ranks 100000" 2 "--local-ranks 100000 is more ranks than this machine runs usefully" \
  "$pf" sweep all_reduce --local-ranks 100000
expect "-f 4294967297" 2 "preflight sweep: Could not convert: --stepfactor = 4294967297" "$pf" sweep all_reduce -f 4294967297
expect "-n 2147483648" 2 "preflight sweep: Could not convert: --iters = 2147483648" "$pf" sweep all_reduce -n 2147483648
# 3. Every number from an option is finite and in range (nan compares false with both bounds).
expect "compare --threshold nan" 2 "--threshold 'nan'" "$pf" compare "$golden" "$golden" --threshold nan
expect "compare --noise-k nan" 2 "--noise-k must be" "$pf" compare "$golden" "$golden" --noise-k nan
expect "compare --latency-slack-us inf" 2 "--latency-slack-us must be" "$pf" compare "$golden" "$golden" --latency-slack-us inf
expect "pairs --max-seconds nan" 2 "--max-seconds above 0" "$pf" pairs --max-seconds nan
expect "scale --bucket-cap-mb inf" 2 "--bucket-cap-mb must be" "$pf" scale --bucket-cap-mb inf

# 9. A bad row names the file and its path, in compare and before any rank starts under check --baseline.
"$py" -c "
import json, sys
d = json.load(open(sys.argv[1])); del d['results'][0]['rows'][1]['size_bytes']; json.dump(d, open(sys.argv[2], 'w'))" \
  "$golden" "$tmp/row.json"
expect "missing row field, compare" 2 "row.json': results[0].rows[1]: size_bytes: missing" \
  "$pf" compare "$golden" "$tmp/row.json"
expect "missing row field, check --baseline" 2 "row.json': results[0].rows[1]: size_bytes: missing" \
  "$pf" check --baseline "$tmp/row.json" --local-ranks 2
exit $fail
