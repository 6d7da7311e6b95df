#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Opens HTML reports in a real browser (headless Chromium) and checks what a reader sees: each page is rendered
# by preflight, a copy of it with a measuring script added (tests/tools/chart_probe.js) reports where each chart
# lands and what it finds wrong (a label in e-notation, text such as a legend name cut off at its chart's edge),
# and a full-page screenshot of the untouched page must hold coloured (data) pixels inside every chart's plot area
# and red ones where a regression is marked (tests/tools/chart_pixels.py). The screenshots stay in OUT_DIR; the
# report-*.png images of docs/images/ are copies of them.
# Usage: html_browser.sh OUT_DIR PAGE...   (env: PF_BIN; CHROMIUM to pick the browser). A PAGE is
#   DOC                    `preflight report DOC`, named after the file
#   NAME=DOC,DOC...        `preflight report DOC DOC...`: several documents on one page (sweeps overlaid)
#   NAME=regression:BASE   `preflight compare BASE SLOWER`, SLOWER a copy of the sweep BASE with its five largest
#                          sizes 40% slower (tests/tools/plant_regression.py): a real regression, which the page
#                          must mark (one red marker or more per planted size)
# Exit 0 all drawn, 1 a chart is empty or wrong or a page did not render, 77 no browser (skipped, with the reason).
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=$1
shift
browser=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [[ -z "$browser" ]]; then
  echo "SKIP: no chromium; install Debian's 'chromium' package (ci/packages.extra lists it)"
  exit 77
fi
mkdir -p "$out"
width=1000
run_browser() {  # the flags both runs share: same width, same fonts, no scrollbar to shift the layout
  timeout 90 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
    --user-data-dir="$out/profile" "$@" 2> "$out/browser.log"
}
# Renders PAGE as $out/NAME.html; prints NAME and the number of regression markers it must show.
render() {
  local spec=$1 name docs planted=0
  if [[ $spec == *=* ]]; then
    name=${spec%%=*}
    docs=${spec#*=}
  else
    name=$(basename "$spec" .json)
    docs=$spec
  fi
  rm -f "$out/$name.html"
  if [[ $docs == regression:* ]]; then
    local base=${docs#regression:}
    mkdir -p "$out/$name.docs"  # the copy's file name is its legend name: today.json
    planted=$(python3 "$here/../tools/plant_regression.py" "$base" "$out/$name.docs/today.json" 1.4 -5: | wc -l)
    "$PF_BIN" compare "$base" "$out/$name.docs/today.json" --format html --output "$out/$name.html" > /dev/null
  else
    local files
    IFS=, read -r -a files <<< "$docs"
    "$PF_BIN" report "${files[@]}" --format html --output "$out/$name.html" > /dev/null
  fi
  echo "$name $planted"
}
status=0
for spec in "$@"; do
  read -r name planted < <(render "$spec")
  html="$out/$name.html"
  [[ -s "$html" ]] || { echo "FAIL: $name: preflight wrote no HTML"; status=1; continue; }
  python3 - "$html" "$out/$name.measure.html" "$here/../tools/chart_probe.js" << 'PY'
import sys
page, probe = open(sys.argv[1]).read(), open(sys.argv[3]).read()
open(sys.argv[2], "w").write(page.replace("</body>", "<script>" + probe + "</script></body>"))
PY
  run_browser --window-size=$width,800 --virtual-time-budget=3000 --dump-dom "file://$out/$name.measure.html" |
    python3 -c 'import html, re, sys
m = re.search(r"<pre id=\"pf-boxes\">([^<]*)</pre>", sys.stdin.read())
print(html.unescape(m.group(1)) if m else "", end="")' > "$out/$name.boxes.json"
  if [[ ! -s "$out/$name.boxes.json" ]]; then
    echo "FAIL: $name: the browser did not render the page"; cat "$out/browser.log"; status=1; continue
  fi
  height=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["height"]) + 1)' "$out/$name.boxes.json")
  run_browser --window-size=$width,"$height" --screenshot="$out/$name.png" "file://$html"
  [[ -s "$out/$name.png" ]] || { echo "FAIL: $name: no screenshot"; cat "$out/browser.log"; status=1; continue; }
  charts=$(grep -o '<svg[^>]*class="\(chart\|heatmap\)' "$html" | wc -l)
  echo "$name: page ${width}x${height}, $charts charts"
  if ((charts > 0)); then
    python3 "$here/../tools/chart_pixels.py" "$out/$name.png" "$out/$name.boxes.json" || status=1
  fi
  alarms=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1])).get("alarms", [])))' "$out/$name.boxes.json")
  if ((alarms < planted)); then
    echo "FAIL: $name: $planted sizes made slower, $alarms regression markers drawn"; status=1
  elif ((planted > 0)); then
    echo "  $alarms regression markers for $planted sizes made slower"
  fi
done
((status == 0)) && echo "PASS: every chart drawn and readable in $# pages"
exit $status
