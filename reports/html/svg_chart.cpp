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
using charts::Style;

// A wide viewBox drawn at the page's width (width 100%): about 1:1 on a 1,000 px page, so 11 px text stays 11 px.
constexpr double kWidth = 960, kLeft = 84, kRight = 24, kTop = 34, kPlotHeight = 300;
constexpr double kLegendRow = 18, kCharWidth = 6.8;  // sans-serif 11 px: an upper bound of the mean glyph width

std::string valueText(double v, const charts::Axis& a) {
  if (a.unit == "us" || a.binarySuffix) return charts::tickLabel(v, a);
  return charts::plainNumber(v, 4) + (a.unit.empty() ? "" : " " + a.unit);
}

struct LegendEntry {
  std::string name, color;
  bool marker = false, dashed = false, block = false, hollow = false;  ///< hollow: a predicted marker
};

// Entries left to right, wrapped onto as many rows as they need below the plot: nothing is cut.
std::string drawLegend(const std::vector<LegendEntry>& entries, double top, double& height) {
  std::string svg;
  double x = kLeft, y = top;
  for (const LegendEntry& e : entries) {
    const double w = 24 + kCharWidth * static_cast<double>(e.name.size()) + 18;
    if (x > kLeft && x + w > kWidth - kRight) {
      x = kLeft;
      y += kLegendRow;
    }
    if (e.block)
      svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"10\" fill=\"{}\"/>", x, y - 9, e.color);
    else if (e.marker)
      svg += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" {}=\"{}\"{}/>", x + 7, y - 4,
                         e.hollow ? "stroke" : "fill", e.color, e.hollow ? " fill=\"#fff\"" : "");
    else
      svg += fmt::format("<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"{}/>", x,
                         x + 18, y - 4, y - 4, e.color, e.dashed ? " stroke-dasharray=\"5 3\"" : "");
    svg += fmt::format("<text class=\"lg\" x=\"{}\" y=\"{}\">{}</text>\n", x + 24, y, escape(e.name));
    x += w;
  }
  height = y - top + kLegendRow;
  return svg;
}

}  // namespace

const char* const kChartCss =
    ".plot{fill:none;stroke:#999}.grid{stroke:#eee}.zero{stroke:#333;stroke-width:1.5}.band{opacity:.25}"
    "text{font-size:11px;font-family:sans-serif}.alarm{stroke:#fff;stroke-width:1.5}"
    ".ct{font-size:14px;font-weight:bold}.tx{text-anchor:middle}.ty{text-anchor:end}.xt,.yt{text-anchor:middle}"
    ".cv{text-anchor:middle;font-size:10px}.cl{text-anchor:middle}";

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

std::string svgChart(const charts::Chart& chart) {
  charts::Chart c = chart;
  if (!c.x.fitted() || !c.y.fitted()) charts::fitAxes(c);  // a chart built by hand (tests) still gets its axes
  const double w = kWidth - kLeft - kRight, h = kPlotHeight, bottom = kTop + h;
  std::string body;
  body += fmt::format("<text x=\"{}\" y=\"20\" class=\"ct\">{}</text>\n", kLeft, escape(c.title));
  if (!c.x.fitted() || !c.y.fitted()) {
    body += fmt::format("<text x=\"{}\" y=\"{}\">no data</text>", kLeft, kTop + h / 2);
    return fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"{}\" viewBox=\"0 0 {} {}\" "
        "width=\"100%\" role=\"img\"><title>{}</title>\n{}</svg>\n",
        escape(c.id), kWidth, bottom + 50, escape(c.title), body);
  }
  auto px = [&](double v) { return kLeft + project(v, c.x.lo, c.x.hi, c.x.scale, w); };
  auto py = [&](double v) { return bottom - project(v, c.y.lo, c.y.hi, c.y.scale, h); };
  auto placeable = [&](double v, const charts::Axis& a) { return a.scale == Scale::kLinear || v > 0; };
  body += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"plot\"/>\n", kLeft, kTop, w, h);
  for (const charts::Tick& t : c.x.ticks)
    body += fmt::format(
        "<line class=\"grid\" x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\"/><text class=\"tx\" "
        "x=\"{0:.1f}\" y=\"{3}\">{4}</text>\n",
        px(t.value), kTop, bottom, bottom + 16, escape(t.label));
  for (const charts::Tick& t : c.y.ticks)
    body += fmt::format(
        "<line class=\"grid\" x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\"/><text class=\"ty\" "
        "x=\"{3}\" y=\"{4:.1f}\">{5}</text>\n",
        kLeft, kLeft + w, py(t.value), kLeft - 6, py(t.value) + 4, escape(t.label));
  if (c.y.scale == Scale::kLinear && c.y.lo < 0 && c.y.hi > 0)  // where a change turns from better to worse
    body += fmt::format("<line class=\"zero\" x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\"/>\n", kLeft, kLeft + w,
                        py(0), py(0));
  body += fmt::format("<text class=\"xt\" x=\"{}\" y=\"{}\">{}</text>\n", kLeft + w / 2, bottom + 34,
                      escape(charts::axisTitle(c.x)));
  body += fmt::format("<text class=\"yt\" transform=\"translate(14 {}) rotate(-90)\">{}</text>\n", kTop + h / 2,
                      escape(charts::axisTitle(c.y)));
  std::vector<LegendEntry> legend;
  std::map<double, double> stackTop;  // stacked bars: where the next segment starts at each x
  size_t colorIndex = 0;
  for (const charts::Series& s : c.series) {
    const std::string color = s.regression ? charts::kAlarmColor : charts::seriesColor(colorIndex++);
    const std::string name = charts::legendName(s);
    const bool dashed = s.predicted || s.style == Style::kIdeal;
    const std::string dash = dashed ? " stroke-dasharray=\"6 4\"" : "";
    auto hover = [&](const charts::Point& p) {
      return escape(name + ": " + valueText(p.y, c.y) + " at " + charts::tickLabel(p.x, c.x));
    };
    if (s.style == Style::kBand) {
      std::string upper, lower;
      for (const auto& p : s.points) {
        if (!p.low || !p.high || !placeable(*p.low, c.y) || !placeable(p.x, c.x)) continue;
        upper += fmt::format("{:.1f},{:.1f} ", px(p.x), py(*p.high));
        lower = fmt::format("{:.1f},{:.1f} ", px(p.x), py(*p.low)) + lower;
      }
      body += fmt::format("<polygon class=\"band\" fill=\"{}\" points=\"{}{}\"><title>{}</title></polygon>\n", color,
                          upper, lower, escape(name));
    } else if (s.style == Style::kStacked) {
      for (const auto& p : s.points) {
        const double base = stackTop[p.x], top = base + p.y;
        stackTop[p.x] = top;
        body += fmt::format(
            "<rect fill=\"{}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"24\" height=\"{:.1f}\"><title>{}</title></rect>\n",
            color, px(p.x) - 12, py(top), std::max(0.0, py(base) - py(top)), hover(p));
      }
    } else {
      std::string line;
      for (const auto& p : s.points)
        if (placeable(p.x, c.x) && placeable(p.y, c.y)) line += fmt::format("{:.1f},{:.1f} ", px(p.x), py(p.y));
      if (s.style != Style::kMarkers)
        body += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{} points=\"{}\"/>\n", color, dash,
                            line);
      for (const auto& p : s.points) {
        if (!placeable(p.x, c.x) || !placeable(p.y, c.y)) continue;
        const double x = px(p.x);
        if (p.low && p.high && placeable(*p.low, c.y))  // error bar with caps
          body += fmt::format(
              "<path stroke=\"{0}\" fill=\"none\" d=\"M{1:.1f},{2:.1f}V{3:.1f}M{4:.1f},{2:.1f}H{5:.1f}M{4:.1f},{3:.1f}"
              "H{5:.1f}\"/>\n",
              color, x, py(*p.low), py(*p.high), x - 3, x + 3);
        if (s.regression)
          body += fmt::format(
              "<circle class=\"alarm\" fill=\"{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"6\"><title>{}</title></circle>\n",
              color, x, py(p.y), hover(p));
        else if (s.style != Style::kIdeal)
          body += fmt::format("<circle fill=\"{}\"{} cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\"><title>{}</title></circle>\n",
                              s.predicted ? "#fff" : color, s.predicted ? " stroke=\"" + color + "\"" : "", x, py(p.y),
                              hover(p));
      }
    }
    legend.push_back({name, color, s.style == Style::kMarkers, dashed,
                      s.style == Style::kStacked || s.style == Style::kBand,
                      s.style == Style::kMarkers && s.predicted});
  }
  double legendHeight = 0;
  body += drawLegend(legend, bottom + 58, legendHeight);
  const double height = bottom + 58 + legendHeight;
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart{}\" id=\"{}\" viewBox=\"0 0 {} {}\" width=\"100%\" "
      "role=\"img\"><title>{}</title>\n{}</svg>\n",
      c.secondary ? " secondary" : "", escape(c.id), kWidth, height, escape(c.title), body);
}

}  // namespace pf::reports::html
