#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Opens HTML reports in a real browser (headless Chromium) and checks that every chart is drawn: each
# document is rendered with `preflight report DOC --format html`, a copy of the page with a measuring script
# added reports where each chart lands, and a full-page screenshot of the untouched page must hold coloured
# (data) pixels inside every chart's plot area (legends are outside it) (tests/tools/chart_pixels.py). The screenshots stay in OUT_DIR; the
# one in docs/images/ was made by this script.
# Usage: html_browser.sh OUT_DIR DOC...   (env: PF_BIN; CHROMIUM to pick the browser)
# Exit 0 all drawn, 1 a chart is empty or a page did not render, 77 no browser (skipped, with the reason).
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
status=0
for doc in "$@"; do
  name=$(basename "$doc" .json)
  html="$out/$name.html"
  rm -f "$html"
  "$PF_BIN" report "$doc" --format html --output "$html" > /dev/null
  [[ -s "$html" ]] || { echo "FAIL: $name: preflight report wrote no HTML"; status=1; continue; }
  python3 - "$html" "$out/$name.measure.html" << 'PY'
import sys
page = open(sys.argv[1]).read()
probe = """<script>addEventListener('load', () => {
  const boxes = [];
  for (const e of document.querySelectorAll('svg.chart, svg.heatmap')) {
    const r = (e.querySelector('rect.plot') || e).getBoundingClientRect();  // the plot area, not the legend
    boxes.push({id: e.id, x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height});
  }
  const p = document.createElement('pre');
  p.id = 'pf-boxes';
  p.textContent = JSON.stringify({height: document.documentElement.scrollHeight, boxes});
  document.body.appendChild(p);
});</script>"""
open(sys.argv[2], "w").write(page.replace("</body>", probe + "</body>"))
PY
  run_browser --window-size=$width,800 --virtual-time-budget=3000 --dump-dom "file://$out/$name.measure.html" |
    sed -n 's|.*<pre id="pf-boxes">\([^<]*\)</pre>.*|\1|p' > "$out/$name.boxes.json"
  if [[ ! -s "$out/$name.boxes.json" ]]; then
    echo "FAIL: $name: the browser did not render the page"; cat "$out/browser.log"; status=1; continue
  fi
  height=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["height"]) + 1)' "$out/$name.boxes.json")
  run_browser --window-size=$width,"$height" --screenshot="$out/$name.png" "file://$html"
  [[ -s "$out/$name.png" ]] || { echo "FAIL: $name: no screenshot"; cat "$out/browser.log"; status=1; continue; }
  charts=$(grep -o '<svg[^>]*class="\(chart\|heatmap\)"' "$html" | wc -l)
  echo "$name: page ${width}x${height}, $charts charts"
  if ((charts > 0)); then
    python3 "$here/../tools/chart_pixels.py" "$out/$name.png" "$out/$name.boxes.json" || status=1
  fi
done
((status == 0)) && echo "PASS: every chart drawn in $# pages"
exit $status
