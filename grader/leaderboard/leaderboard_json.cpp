#include "grader/leaderboard/leaderboard_json.h"

#include "reports/schema_validator.h"

namespace cugrade::leaderboard {

extern const char* const leaderboard_schema_text; // leaderboard_schema.cpp, generated

namespace {

using ojson = nlohmann::ordered_json;

void put_optional(ojson& j, const char* key, const std::optional<double>& v) {
  if (v) {
    j[key] = *v;
  }
}

ojson case_json(const reports::case_figure& c) {
  ojson j{{"shape", c.shape},
          {"distribution", c.distribution},
          {"speedup", c.speedup},
          {"interval", {c.speedup_low, c.speedup_high}},
          {"reference_source", c.reference_source}};
  if (c.rate) {
    j["rate"] = *c.rate;
    j["unit"] = c.unit;
  }
  put_optional(j, "roof", c.roof);
  put_optional(j, "library_rate", c.library_rate);
  if (!c.library_name.empty()) {
    j["library_name"] = c.library_name;
  }
  return j;
}

ojson ranked_json(const entry& e, bool with_cases) {
  ojson j{{"name", e.name},
          {"rank", *e.rank},
          {"band", *e.band},
          {"speedup", *e.where.metric},
          {"interval", {e.where.low, e.where.high}},
          {"device", e.device}};
  if (with_cases) {
    j["cases"] = ojson::array();
    for (const auto& c : e.cases) {
      j["cases"].push_back(case_json(c));
    }
  }
  if (!e.insights.empty()) {
    j["insights"] = e.insights;
  }
  return j;
}

ojson board_json(const board& b) {
  ojson j{{"name", b.name}, {"overall", b.overall}};
  if (b.overall) {
    j["kernels"] = b.kernels;
  }
  j["ranked"] = ojson::array();
  for (const auto& e : b.ranked) {
    j["ranked"].push_back(ranked_json(e, !b.overall));
  }
  j["unranked"] = ojson::array();
  for (const auto& e : b.unranked) {
    j["unranked"].push_back({{"name", e.name}, {"reason", e.where.reason}});
  }
  return j;
}

} // namespace

ojson to_json(const leaderboard& board) {
  ojson j{{"schema", schema_id},
          {"title", board.title},
          {"assignment", {{"name", board.assignment}, {"spec_sha256", board.spec_sha256}}},
          {"created_at", board.created_at},
          {"devices", board.devices},
          {"protocol",
           {{"metric", metric_rule},
            {"interval", interval_rule},
            {"bands", band_rule},
            {"timing", timing_protocol}}}};
  j["boards"] = ojson::array();
  for (const auto& b : board.boards) {
    j["boards"].push_back(board_json(b));
  }
  return j;
}

std::string render_json(const leaderboard& board) {
  return to_json(board).dump(2, ' ', false, ojson::error_handler_t::replace) + "\n";
}

const nlohmann::json& leaderboard_schema() {
  static const nlohmann::json schema = nlohmann::json::parse(leaderboard_schema_text);
  return schema;
}

std::vector<std::string> validate_leaderboard(const nlohmann::json& doc) {
  return reports::validate(leaderboard_schema(), doc);
}

} // namespace cugrade::leaderboard
