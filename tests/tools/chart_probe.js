// SPDX-License-Identifier: Apache-2.0
// Added to a copy of an HTML report by tests/integration/html_browser.sh: once the page is laid out, it writes
// what the browser drew into <pre id="pf-boxes"> as JSON, for the script to read from the dumped DOM:
//   boxes     each chart's plot area (the legend is outside it), for the data-pixel check (chart_pixels.py);
//   alarms    each regression marker's box (red circles), which chart_pixels.py finds red in the screenshot;
//   problems  what a reader would see wrong: a tick or scale label in e-notation, text cut off at its chart's
//             edge (legends above all: a name that runs past the SVG is clipped).
addEventListener('load', () => {
  const boxes = [], alarms = [], problems = [];
  const page = (r) => ({x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height});
  const eNotation = /\d(\.\d+)?e[+-]?\d/i;
  for (const svg of document.querySelectorAll('svg.chart, svg.heatmap')) {
    boxes.push({id: svg.id, ...page((svg.querySelector('rect.plot') || svg).getBoundingClientRect())});
    const frame = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll('text')) {
      const text = t.textContent;
      const axis = t.matches('.tx, .ty, .cv, .scale-label');
      if (eNotation.test(text) || (axis && /e[+-]/.test(text)))
        problems.push(`${svg.id}: "${text}" is in e-notation`);
      const r = t.getBoundingClientRect();
      if (r.width === 0) continue;  // empty text draws nothing
      const out = r.left < frame.left - 0.5 || r.right > frame.right + 0.5 || r.top < frame.top - 0.5 ||
                  r.bottom > frame.bottom + 0.5;
      if (out) problems.push(`${svg.id}: "${text}" is clipped (${t.getAttribute('class') || 'text'} runs past the chart)`);
    }
    for (const c of svg.querySelectorAll('circle.alarm')) alarms.push({id: svg.id, ...page(c.getBoundingClientRect())});
  }
  const p = document.createElement('pre');
  p.id = 'pf-boxes';
  p.textContent = JSON.stringify({height: document.documentElement.scrollHeight, boxes, alarms, problems});
  document.body.appendChild(p);
});
