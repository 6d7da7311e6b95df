// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "svg.hpp"

namespace pf::reports::html {
namespace {

using charts::Scale;

constexpr double kWidth = 680, kHeight = 360, kLeft = 70, kRight = 210, kTop = 30, kBottom = 50;
constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                   "#8c564b", "#17becf", "#e377c2", "#7f7f7f", "#bcbd22"};
constexpr size_t kColorCount = sizeof(kColors) / sizeof(kColors[0]);

struct Range {
  double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
  void add(double v, Scale s) {
    if (!std::isfinite(v)) return;                // a stack of huge values can sum to inf: no axis holds it
    if (s != Scale::kLinear && !(v > 0)) return;  // a log axis cannot place zero or below
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return lo > hi; }
};

std::string number(double v) { return fmt::format("{:.4g}", v); }

std::string tickLabel(double v, const charts::Axis& a) { return a.binarySuffix ? charts::binarySize(v) : number(v); }

// Never more ticks than this, whatever the range: a range from a hostile input (1e-300 to 1e308, or a step
// lost in the rounding of huge values) must not grow the chart without bound.
constexpr int kMaxTicks = 24;

std::vector<double> ticks(const Range& r, const charts::Axis& a) {
  std::vector<double> t;
  if (!std::isfinite(r.lo) || !std::isfinite(r.hi) || r.lo > r.hi) return t;
  if (a.scale == Scale::kLog2) return charts::log2Ticks(r.lo, r.hi, 8);
  if (a.scale == Scale::kLog10) {
    const double first = std::floor(std::log10(r.lo)), last = std::ceil(std::log10(r.hi));
    const double step = std::max(1.0, std::ceil((last - first + 1) / kMaxTicks));
    for (int i = 0; i < kMaxTicks && first + i * step <= last; ++i) t.push_back(std::pow(10, first + i * step));
    return t;
  }
  // Linear: a step of 1, 2 or 5 times a power of ten, about four of them over the range (0, 0.5, 1, 1.5...).
  const double raw = (r.hi - r.lo) / 4, mag = std::pow(10, std::floor(std::log10(raw > 0 ? raw : 1)));
  const double step = raw <= mag ? mag : raw <= 2 * mag ? 2 * mag : raw <= 5 * mag ? 5 * mag : 10 * mag;
  if (!std::isfinite(step) || !(step > 0)) return t;
  const double start = std::ceil(r.lo / step) * step;
  for (int i = 0; i < kMaxTicks; ++i) {
    const double v = start + i * step;  // from the start, not by adding: a step below the rounding never ends
    if (!(v <= r.hi + step * 1e-9)) break;
    t.push_back(v);
  }
  return t;
}

}  // namespace

const char* const kChartCss =
    ".plot{fill:none;stroke:#999}.grid{stroke:#eee}.band{opacity:.25}text{font-size:11px;font-family:sans-serif}"
    ".ct{font-size:14px;font-weight:bold}.tx{text-anchor:middle}.ty{text-anchor:end}.xt,.yt{text-anchor:middle}"
    ".cv{text-anchor:middle;font-size:10px}";

std::string standaloneSvg(const std::string& svg) {
  const std::size_t open = svg.find('>');
  if (open == std::string::npos) return svg;
  return svg.substr(0, open + 1) + "<style>" + kChartCss +
         "</style><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>" + svg.substr(open + 1);
}

std::string escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

double project(double value, double lo, double hi, Scale scale, double pixels) {
  auto f = [scale](double v) { return scale == Scale::kLinear ? v : std::log2(v); };
  if (hi <= lo) return pixels / 2;
  return (f(value) - f(lo)) / (f(hi) - f(lo)) * pixels;
}

std::string svgChart(const charts::Chart& c) {
  Range x, y;
  std::map<double, double> stacked;  // the height of each stack of bars: the axis must hold the whole stack
  for (const auto& s : c.series)
    for (const auto& p : s.points) {
      x.add(p.x, c.x.scale);
      y.add(s.style == charts::Style::kStacked ? (stacked[p.x] += p.y) : p.y, c.y.scale);
      if (p.low) y.add(*p.low, c.y.scale);
      if (p.high) y.add(*p.high, c.y.scale);
    }
  if (!stacked.empty() && !x.empty()) {  // bars are drawn around their x: leave half a step on either side
    if (c.x.scale == Scale::kLinear) {
      const double pad = std::max(0.5, (x.hi - x.lo) * 0.05);
      x.lo -= pad;
      x.hi += pad;
    } else {
      x.lo /= 1.4142;
      x.hi *= 1.4142;
    }
  }
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\">"
      "<title>{}</title>\n",
      escape(c.id), kWidth, kHeight, escape(c.title));
  svg += fmt::format("<text x=\"{}\" y=\"18\" class=\"ct\">{}</text>\n", kLeft, escape(c.title));
  if (x.empty() || y.empty()) return svg + "<text x=\"70\" y=\"180\">no data</text></svg>\n";
  if (c.y.scale == Scale::kLinear) y.lo = std::min(0.0, y.lo);  // bandwidths and efficiencies start at zero
  const double w = kWidth - kLeft - kRight, h = kHeight - kTop - kBottom;
  auto px = [&](double v) { return kLeft + project(v, x.lo, x.hi, c.x.scale, w); };
  auto py = [&](double v) { return kTop + h - project(v, y.lo, y.hi, c.y.scale, h); };
  svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"plot\"/>\n", kLeft, kTop, w, h);
  for (double t : ticks(x, c.x))
    if (t >= x.lo && t <= x.hi)
      svg += fmt::format(
          "<line class=\"grid\" x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\"/><text class=\"tx\" "
          "x=\"{0:.1f}\" y=\"{3}\">{4}</text>\n",
          px(t), kTop, kTop + h, kTop + h + 16, escape(tickLabel(t, c.x)));
  for (double t : ticks(y, c.y))
    if (t >= y.lo && t <= y.hi)
      svg += fmt::format(
          "<line class=\"grid\" x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\"/><text class=\"ty\" "
          "x=\"{3}\" y=\"{2:.1f}\">{4}</text>\n",
          kLeft, kLeft + w, py(t), kLeft - 6, escape(tickLabel(t, c.y)));
  auto axisTitle = [](const charts::Axis& a) { return a.unit.empty() ? a.title : a.title + " (" + a.unit + ")"; };
  svg += fmt::format("<text class=\"xt\" x=\"{}\" y=\"{}\">{}</text>\n", kLeft + w / 2, kHeight - 8,
                     escape(axisTitle(c.x)));
  svg += fmt::format("<text class=\"yt\" transform=\"translate(14 {}) rotate(-90)\">{}</text>\n", kTop + h / 2,
                     escape(axisTitle(c.y)));
  std::map<double, double> stackTop;  // stacked bars: where the next segment starts at each x
  for (size_t i = 0; i < c.series.size(); ++i) {
    const charts::Series& s = c.series[i];
    const char* color = kColors[i % kColorCount];
    const std::string name = s.predicted ? s.name + " (predicted)" : s.name;
    const std::string dash = s.predicted || s.style == charts::Style::kIdeal ? " stroke-dasharray=\"6 4\"" : "";
    if (s.style == charts::Style::kBand) {
      std::string upper, lower;
      for (const auto& p : s.points) {
        if (!p.low || !p.high) continue;
        upper += fmt::format("{:.1f},{:.1f} ", px(p.x), py(*p.high));
        lower = fmt::format("{:.1f},{:.1f} ", px(p.x), py(*p.low)) + lower;
      }
      svg += fmt::format("<polygon class=\"band\" fill=\"{}\" points=\"{}{}\"><title>{}</title></polygon>\n", color,
                         upper, lower, escape(name));
    } else if (s.style == charts::Style::kStacked) {
      for (const auto& p : s.points) {
        const double base = stackTop[p.x], top = base + p.y;
        stackTop[p.x] = top;
        svg += fmt::format(
            "<rect fill=\"{}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"18\" height=\"{:.1f}\"><title>{}: {} {} at "
            "{}</title></rect>\n",
            color, px(p.x) - 9, py(top), std::max(0.0, py(base) - py(top)), escape(name), number(p.y), escape(c.y.unit),
            escape(tickLabel(p.x, c.x)));
      }
    } else {
      std::string line;
      for (const auto& p : s.points) line += fmt::format("{:.1f},{:.1f} ", px(p.x), py(p.y));
      if (s.style != charts::Style::kMarkers)
        svg += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{} points=\"{}\"/>\n", color, dash,
                           line);
      for (const auto& p : s.points) {
        if (p.low && p.high)
          svg += fmt::format("<line stroke=\"{}\" x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\"/>\n", color,
                             px(p.x), px(p.x), py(*p.low), py(*p.high));
        if (s.style != charts::Style::kIdeal)
          svg += fmt::format(
              "<circle fill=\"{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\"><title>{}: {} {} at {}</title></circle>\n",
              color, px(p.x), py(p.y), escape(name), number(p.y), escape(c.y.unit), escape(tickLabel(p.x, c.x)));
      }
    }
    svg += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"3\" fill=\"{}\"/><text class=\"lg\" x=\"{}\" "
        "y=\"{}\">{}</text>\n",
        kLeft + w + 10, kTop + 10 + 16 * i, color, kLeft + w + 26, kTop + 14 + 16 * i, escape(name));
  }
  return svg + "</svg>\n";
}

std::string svgHeatmap(const charts::Heatmap& hm) {
  const size_t n = hm.nodes.size();
  const double cell = 36, left = 110, top = 40;
  const double width = std::max(left + cell * static_cast<double>(n) + 20, 330.0);
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"heatmap\" id=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\">"
      "<title>{}</title>\n<text x=\"4\" y=\"18\" class=\"ct\">{}</text>\n",
      escape(hm.id), width, top + cell * static_cast<double>(n) + 20, escape(hm.title), escape(hm.title));
  for (size_t i = 0; i < n; ++i) {
    svg += fmt::format("<text class=\"ty\" x=\"{}\" y=\"{}\">{}</text>\n", left - 6, top + cell * i + cell / 2 + 4,
                       escape(hm.nodes[i]));
    for (size_t j = 0; j < n; ++j) {
      const auto& v = hm.cells[i][j];
      // 100% of expected is green, 0% red; above 100% stays green. Cells without a pair are grey.
      const double f = v ? std::clamp(*v / 100.0, 0.0, 1.0) : 0;
      const std::string fill = v ? fmt::format("hsl({:.0f},70%,55%)", 120 * f) : std::string("#ddd");
      svg += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{} - {}: {}</title>"
          "</rect>\n",
          left + cell * j, top + cell * i, cell - 2, cell - 2, fill, escape(hm.nodes[i]), escape(hm.nodes[j]),
          v ? fmt::format("{:.0f}% of expected", *v) : std::string("no pair"));
      if (v)
        svg += fmt::format("<text class=\"cv\" x=\"{}\" y=\"{}\">{:.0f}</text>\n", left + cell * j + cell / 2 - 1,
                           top + cell * i + cell / 2 + 4, *v);
    }
  }
  return svg + "</svg>\n";
}

}  // namespace pf::reports::html
