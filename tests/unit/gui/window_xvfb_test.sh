#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Starts the real window in Xvfb with two scaling, two sweep, the pairs and a compare document, photographs each tab
# from inside the viewer (--screenshot) and requires drawn data in every plot area it reports
# (tests/tools/chart_pixels.py: saturated pixels, which axes, grid and text never have).
# Usage: window_xvfb_test.sh VIEWER GOLDEN_DOCUMENTS_DIR CHART_PIXELS_PY OUT_DIR
set -euo pipefail
viewer=$1 docs=$2 pixels=$3 out=$4
rm -rf "$out" && mkdir -p "$out"
# Bounded: xvfb-run ends the server when the viewer exits; timeout ends both if it hangs.
timeout -k 5 90 xvfb-run -a -s "-screen 0 1600x1000x24" \
  "$viewer" --screenshot "$out" "$docs/capacity.json" "$docs/scale.json" "$docs/sweep.json" "$docs/sweep_v1.json" "$docs/pairs.json" \
  "$docs/compare.json"
for tab in scaling sweeps comparison pairs; do
  [[ -s "$out/viewer-$tab.png" ]] || { echo "FAIL: no screenshot of the $tab tab"; ls "$out"; exit 1; }
  echo "$tab:"
  python3 "$pixels" "$out/viewer-$tab.png" "$out/viewer-$tab.json" 200
done
echo "PASS"
