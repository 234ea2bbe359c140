#include "grader/leaderboard/svg_charts.h"

#include "grader/leaderboard/html_text.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <vector>

namespace cugrade::leaderboard {

namespace {

constexpr double chart_width = 760;
constexpr double label_width = 220;
constexpr double right_margin = 90;
constexpr double row_height = 24;
constexpr double top_margin = 40;
constexpr double bottom_margin = 34;

// A logarithmic axis mapping [lo, hi] onto the plot's horizontal extent.
struct log_axis {
  double lo, hi;
  [[nodiscard]] double x(double v) const {
    const double t = (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo));
    return label_width + t * (chart_width - label_width - right_margin);
  }
};

log_axis axis_over(double lo, double hi) {
  lo = std::max(lo, 1e-12);
  hi = std::max(hi, lo * 1.01);
  return {lo / 1.15, hi * 1.15};
}

// Ticks at 1, 2 and 5 times powers of ten inside the axis (at least its two ends).
std::vector<double> ticks(const log_axis& a) {
  std::vector<double> out;
  for (int p = static_cast<int>(std::floor(std::log10(a.lo))); p <= std::ceil(std::log10(a.hi)); ++p) {
    for (double m : {1.0, 2.0, 5.0}) {
      const double v = m * std::pow(10.0, p);
      if (v >= a.lo && v <= a.hi) {
        out.push_back(v);
      }
    }
  }
  return out;
}

double plot_height(std::size_t rows) {
  return static_cast<double>(rows) * row_height;
}

// The chart's opening tag and the clip that keeps long names out of the plot (`id` is unique
// on the page).
std::string svg_open(std::size_t rows, const std::string& label, const std::string& id) {
  const double height = top_margin + plot_height(rows) + bottom_margin;
  return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"{0}\" "
                     "width=\"{1}\" height=\"{2}\" viewBox=\"0 0 {1} {2}\">\n"
                     "<defs><clipPath id=\"{3}-names\"><rect x=\"0\" y=\"0\" width=\"{4}\" "
                     "height=\"{2}\"/></clipPath></defs>\n",
                     html_escape(label), chart_width, height, id, label_width - 8);
}

std::string axis_svg(const log_axis& a, std::size_t rows, const std::string& caption) {
  const double bottom = top_margin + plot_height(rows);
  std::string out;
  for (double t : ticks(a)) {
    out += fmt::format("<line class=\"grid\" x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\"/>"
                       "<text class=\"tick\" x=\"{0:.1f}\" y=\"{3}\">{4}</text>\n",
                       a.x(t), top_margin, bottom, bottom + 14, rate_text(t));
  }
  out += fmt::format("<text class=\"caption\" x=\"{}\" y=\"{}\">{}</text>\n", label_width,
                     bottom + 30, html_escape(caption));
  return out;
}

double row_y(std::size_t i) {
  return top_margin + static_cast<double>(i) * row_height + row_height / 2;
}

std::string row_label(const entry& e, std::size_t i, const std::string& id) {
  return fmt::format("<rect class=\"band{}\" x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\"/>"
                     "<text class=\"name\" clip-path=\"url(#{}-names)\" x=\"6\" y=\"{}\">#{} "
                     "{}</text>\n",
                     *e.band % 2, row_y(i) - row_height / 2, chart_width, row_height, id,
                     row_y(i) + 4, *e.rank, html_escape(e.name));
}

// A vertical marker across the plot, labelled at its top.
// A vertical marker across the plot, labelled above it on text line `line` (0 or 1, so two
// markers close together stay readable).
std::string marker(const log_axis& a, double v, std::size_t rows, const std::string& cls,
                   const std::string& label, int line = 0) {
  return fmt::format("<line class=\"{0}\" x1=\"{1:.1f}\" y1=\"{2}\" x2=\"{1:.1f}\" y2=\"{3}\"/>"
                     "<text class=\"{0}-label\" x=\"{1:.1f}\" y=\"{4}\">{5}</text>\n",
                     cls, a.x(v), top_margin - 4, top_margin + plot_height(rows),
                     top_margin - 8 - 14 * line, html_escape(label));
}

struct rate_row {
  const entry* e;
  const reports::case_figure* c;
};

std::vector<rate_row> rate_rows(const board& b, std::size_t shape) {
  std::vector<rate_row> out;
  for (const auto& e : b.ranked) {
    if (shape < e.cases.size() && e.cases[shape].rate) {
      out.push_back({&e, &e.cases[shape]});
    }
  }
  return out;
}

} // namespace

std::string speedup_chart(const board& b, const std::string& id) {
  if (b.ranked.empty()) {
    return {};
  }
  double lo = 1, hi = 1;
  for (const auto& e : b.ranked) {
    lo = std::min(lo, e.where.low);
    hi = std::max(hi, e.where.high);
  }
  const auto a = axis_over(lo, hi);
  const auto rows = b.ranked.size();
  std::string out = svg_open(rows, "speedups on " + b.name + " with their intervals", id);
  for (std::size_t i = 0; i < rows; ++i) {
    out += row_label(b.ranked[i], i, id);
  }
  out += axis_svg(a, rows, "speedup over the reference (log scale); bar: interval");
  out += marker(a, 1.0, rows, "reference", "reference 1.0");
  for (std::size_t i = 0; i < rows; ++i) {
    const auto& e = b.ranked[i];
    out += fmt::format(
        "<g class=\"entry\" data-band=\"{0}\"><title>{1}: {2} [{3}, {4}], band {0}</title>"
        "<line class=\"interval\" x1=\"{5:.1f}\" y1=\"{8}\" x2=\"{6:.1f}\" y2=\"{8}\"/>"
        "<circle class=\"metric\" cx=\"{7:.1f}\" cy=\"{8}\" r=\"4\"/>"
        "<text class=\"value\" x=\"{9}\" y=\"{10}\">{2}</text></g>\n",
        *e.band, html_escape(e.name), speedup_text(*e.where.metric), speedup_text(e.where.low),
        speedup_text(e.where.high), a.x(e.where.low), a.x(e.where.high), a.x(*e.where.metric),
        row_y(i), chart_width - right_margin + 8, row_y(i) + 4);
  }
  return out + "</svg>\n";
}

std::string roofline_chart(const board& b, std::size_t shape, const std::string& id) {
  const auto rows = rate_rows(b, shape);
  if (rows.empty()) {
    return {};
  }
  const auto& first = *rows.front().c;
  double lo = *first.rate, hi = *first.rate;
  for (const auto& r : rows) {
    lo = std::min(lo, *r.c->rate);
    hi = std::max(hi, *r.c->rate);
  }
  hi = std::max({hi, first.roof.value_or(hi), first.library_rate.value_or(hi)});
  lo = std::min(lo, first.library_rate.value_or(lo));
  const auto a = axis_over(lo, hi);
  std::string out = svg_open(rows.size(), "achieved " + first.unit + " on " + b.name + ", " +
                                              first.shape + " " + first.distribution,
                                   id);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out += row_label(*rows[i].e, i, id);
  }
  out += axis_svg(a, rows.size(), "achieved " + first.unit + " (log scale)");
  if (first.roof) {
    out += marker(a, *first.roof, rows.size(), "roof", "device roof " + rate_text(*first.roof));
  }
  if (first.library_rate) {
    const auto name = first.library_name.empty() ? std::string("library") : first.library_name;
    out += marker(a, *first.library_rate, rows.size(), "library",
                  name + " " + rate_text(*first.library_rate), 1);
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    out += fmt::format("<g class=\"rate\"><title>{0}: {1} {2}</title>"
                       "<rect class=\"bar\" x=\"{3}\" y=\"{4}\" width=\"{5:.1f}\" height=\"{6}\"/>"
                       "<text class=\"value\" x=\"{7}\" y=\"{8}\">{1}</text></g>\n",
                       html_escape(r.e->name), rate_text(*r.c->rate), html_escape(r.c->unit),
                       label_width, row_y(i) - 6, std::max(1.0, a.x(*r.c->rate) - label_width),
                       12, chart_width - right_margin + 8, row_y(i) + 4);
  }
  return out + "</svg>\n";
}

} // namespace cugrade::leaderboard
