#include "grader/leaderboard/html_page.h"

#include "grader/leaderboard/html_text.h"
#include "grader/leaderboard/svg_charts.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace cugrade::leaderboard {

namespace {

constexpr std::string_view style = R"css(
body { font-family: sans-serif; margin: 2em auto; max-width: 800px; color: #222; }
h1 { margin-bottom: 0.2em; }
.meta { color: #555; }
table { border-collapse: collapse; margin: 0.8em 0; }
th, td { padding: 3px 10px; text-align: left; border-bottom: 1px solid #ddd; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.band1 td, rect.band1 { background: #eef3fb; fill: #eef3fb; }
tr.band0 td, rect.band0 { background: #ffffff; fill: #ffffff; }
svg { display: block; margin: 0.5em 0 1.5em; font-size: 12px; }
svg .grid { stroke: #ccc; stroke-width: 1; }
svg .tick { fill: #555; text-anchor: middle; font-size: 10px; }
svg .caption { fill: #333; }
svg .interval { stroke: #2a5db0; stroke-width: 3; }
svg .metric { fill: #c0392b; }
svg .reference, svg .roof, svg .library { stroke-dasharray: 4 3; stroke-width: 1.5; }
svg .reference { stroke: #555; } svg .roof { stroke: #c0392b; } svg .library { stroke: #27ae60; }
svg .reference-label, svg .roof-label, svg .library-label { font-size: 10px; text-anchor: middle; }
svg .bar { fill: #2a5db0; }
.unranked li { margin: 2px 0; }
)css";

std::string head(const leaderboard& b) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
      "'unsafe-inline'\">\n<title>{}</title>\n<style>{}</style>\n</head>\n",
      html_escape(b.title), style);
}

std::string list_text(const std::vector<std::string>& items, std::string_view none) {
  if (items.empty()) {
    return std::string(none);
  }
  std::string out;
  for (const auto& i : items) {
    out += (out.empty() ? "" : "; ") + html_escape(i);
  }
  return out;
}

std::string header(const leaderboard& b) {
  return fmt::format(
      "<h1>{}</h1>\n<p class=\"meta\">Assignment <b>{}</b> &middot; device: <span "
      "id=\"device\">{}</span> &middot; generated <span id=\"date\">{}</span></p>\n"
      "<h2>How to read this page</h2>\n<ul id=\"protocol\">\n<li><b>Metric:</b> {}.</li>\n"
      "<li><b>Interval:</b> {}.</li>\n<li><b>Bands:</b> {}. Entries in one band are tied: "
      "their order inside the band is by speedup but is not significant.</li>\n"
      "<li><b>Timing:</b> {}.</li>\n<li><b>Names:</b> nicknames chosen by students, or "
      "pseudonyms.</li>\n</ul>\n",
      html_escape(b.title), html_escape(b.assignment), list_text(b.devices, "none ranked"),
      html_escape(b.created_at), metric_rule, interval_rule, band_rule, timing_protocol);
}

// What each insight kind means, in the lectures' terms (docs/insight.md): the page's legend.
const std::vector<std::pair<std::string, std::string>>& insight_meanings() {
  static const std::vector<std::pair<std::string, std::string>> meanings{
      {"uncoalesced_access",
       "a warp's loads or stores touch many 32-byte sectors where consecutive threads reading "
       "consecutive elements would touch few (coalescing)"},
      {"bank_conflicts", "the threads of a warp reach different words of one shared-memory bank, "
                         "so one access takes several wavefronts"},
      {"excess_traffic", "the kernel moves at least twice the global bytes the lecture's "
                         "technique moves: data is read again instead of reused (from shared "
                         "memory, in tiling)"},
      {"global_atomics", "every update is an atomic on global memory; a privatised copy in shared "
                         "memory takes them off the contended bins"},
      {"idle_lanes", "the working threads are spread over every warp instead of packed into the "
                     "first ones, so no warp goes idle early"},
      {"low_occupancy", "too few warps fit on an SM (shared memory, registers or block size) to "
                        "hide memory latency"}};
  return meanings;
}

std::string kind_words(std::string kind) {
  std::replace(kind.begin(), kind.end(), '_', ' ');
  return kind;
}

// Each kind links to its meaning in the legend at the end of the page.
std::string insight_links(const entry& e) {
  std::string out;
  for (const auto& kind : e.insights) {
    out += fmt::format("{}<a class=\"insight\" href=\"#insight-{}\">{}</a>",
                       out.empty() ? "" : ", ", html_escape(kind), html_escape(kind_words(kind)));
  }
  return out;
}

std::string ranked_table(const board& b) {
  if (b.ranked.empty()) {
    return "<p>No ranked entry.</p>\n";
  }
  std::string out = "<table class=\"ranked\">\n<tr><th>rank</th><th>band</th><th>name</th>"
                    "<th>speedup</th><th>95% interval</th>" +
                    std::string(b.overall ? "" : "<th>why slower</th>") + "</tr>\n";
  for (const auto& e : b.ranked) {
    out += fmt::format("<tr class=\"entry band{}\" data-band=\"{}\"><td class=\"num\">{}</td>"
                       "<td class=\"num\">{}</td><td class=\"name\">{}</td><td "
                       "class=\"num\">{}</td><td class=\"num\">[{}, {}]</td>{}</tr>\n",
                       *e.band % 2, *e.band, *e.rank, *e.band, html_escape(e.name),
                       speedup_text(*e.where.metric), speedup_text(e.where.low),
                       speedup_text(e.where.high),
                       b.overall ? "" : "<td class=\"insights\">" + insight_links(e) + "</td>");
  }
  return out + "</table>\n";
}

// The meaning of every insight kind an entry on the page links to.
std::string insight_legend(const leaderboard& board) {
  std::set<std::string> used;
  for (const auto& b : board.boards) {
    for (const auto& e : b.ranked) {
      used.insert(e.insights.begin(), e.insights.end());
    }
  }
  if (used.empty()) {
    return {};
  }
  std::string out = "<section id=\"insights\">\n<h2>Why slower: what the insights mean</h2>\n"
                    "<p>Measured per kernel on its profile shape (docs/insight.md); each student's "
                    "report names the line that costs the time.</p>\n<dl>\n";
  for (const auto& [kind, meaning] : insight_meanings()) {
    if (used.contains(kind)) {
      out += fmt::format("<dt id=\"insight-{}\">{}</dt><dd>{}</dd>\n", html_escape(kind),
                         html_escape(kind_words(kind)), html_escape(meaning));
    }
  }
  return out + "</dl>\n</section>\n";
}

std::string unranked_list(const board& b) {
  if (b.unranked.empty()) {
    return {};
  }
  std::string out = "<h3>Unranked</h3>\n<ul class=\"unranked\">\n";
  for (const auto& e : b.unranked) {
    out +=
        fmt::format("<li><span class=\"name\">{}</span>: <span class=\"reason\">{}</span></li>\n",
                    html_escape(e.name), html_escape(e.where.reason));
  }
  return out + "</ul>\n";
}

std::string roofline_section(const board& b, const std::string& chart_prefix) {
  if (b.overall || b.ranked.empty()) {
    return {};
  }
  std::string out;
  const auto& cases = b.ranked.front().cases;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto chart = roofline_chart(b, i, fmt::format("{}-roof{}", chart_prefix, i));
    if (!chart.empty()) {
      out += fmt::format("<h4>Roofline: {} {}</h4>\n{}", html_escape(cases[i].shape),
                         html_escape(cases[i].distribution), chart);
    }
  }
  return out.empty() ? "<p>The reports carry no roofline figures for this kernel.</p>\n"
                     : "<h3>Achieved rate against the roof</h3>\n" + out;
}

// `index` numbers the board on the page, for unique chart ids.
std::string board_section(const board& b, std::size_t index) {
  const auto prefix = fmt::format("board{}", index);
  const auto heading =
      b.overall ? "Overall (" + list_text(b.kernels, "no kernel") + ")" : html_escape(b.name);
  return fmt::format("<section class=\"board\" id=\"board-{}\">\n<h2>{}</h2>\n{}{}{}{}</section>\n",
                     html_escape(b.name), heading, ranked_table(b),
                     speedup_chart(b, prefix + "-speedup"), roofline_section(b, prefix),
                     unranked_list(b));
}

} // namespace

std::string render_html(const leaderboard& board) {
  std::string body = header(board);
  for (std::size_t i = 0; i < board.boards.size(); ++i) {
    body += board_section(board.boards[i], i);
  }
  body += insight_legend(board);
  return head(board) + "<body>\n" + body + "</body>\n</html>\n";
}

} // namespace cugrade::leaderboard
