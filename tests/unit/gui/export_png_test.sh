#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# preflight-viewer --export-png without a display: one PNG per chart named <stem>-<chart id>.png, exit 0;
# an unreadable file: exit 2, a message naming it, nothing written for it, the good file still exported;
# --help and --version without a display: exit 0 with the usage; the window without a display: exit 2, a message.
# Usage: export_png_test.sh VIEWER GOLDEN_DOCUMENTS_DIR
set -euo pipefail
viewer=$1 docs=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

timeout 60 "$viewer" --export-png "$out/a" "$docs/sweep.json" "$docs/capacity.json" "$docs/pairs.json"
for f in sweep-sweep.all_reduce.float.sum.bandwidth sweep-sweep.all_reduce.float.sum.time \
         capacity-scale.efficiency capacity-scale.breakdown pairs-pairs.matrix; do
  [[ -s "$out/a/$f.png" ]] || { echo "FAIL: $f.png not written"; ls "$out/a"; exit 1; }
done

echo '{"schema_version": 2, "results": [' > "$out/broken.json"
rc=0
timeout 60 "$viewer" --export-png "$out/b" "$out/broken.json" "$docs/sweep.json" 2> "$out/err" || rc=$?
[[ $rc -eq 2 ]] || { echo "FAIL: exit $rc for an unreadable file, expected 2"; exit 1; }
grep -q "broken.json" "$out/err" || { echo "FAIL: the message does not name the file:"; cat "$out/err"; exit 1; }
if ls "$out/b" | grep -q '^broken-'; then echo "FAIL: files written for the unreadable document"; exit 1; fi
ls "$out/b" | grep -q '^sweep-' || { echo "FAIL: the readable document was not exported"; exit 1; }
unset QT_QPA_PLATFORM
rc=0
timeout 30 env -u DISPLAY -u WAYLAND_DISPLAY "$viewer" --help > "$out/help" 2>&1 || rc=$?
[[ $rc -eq 0 ]] || { echo "FAIL: --help without a display exits $rc"; cat "$out/help"; exit 1; }
grep -q "Usage:" "$out/help" && grep -q -- "--export-png" "$out/help" || { echo "FAIL: no usage:"; cat "$out/help"; exit 1; }
timeout 30 env -u DISPLAY -u WAYLAND_DISPLAY "$viewer" --version | grep -q "preflight-viewer" || { echo "FAIL: --version"; exit 1; }
rc=0
timeout 30 env -u DISPLAY -u WAYLAND_DISPLAY "$viewer" "$docs/sweep.json" 2> "$out/err" || rc=$?
[[ $rc -eq 2 ]] && grep -q "no display" "$out/err" || { echo "FAIL: window without a display: exit $rc"; cat "$out/err"; exit 1; }
echo "PASS"
