#include "harness/protocol/protocol.h"

#include <nlohmann/json.hpp>

namespace cugrade::protocol {

using nlohmann::json;

namespace {

json shape_json(const problems::shape& s) {
  return {{"j", s.j}, {"k", s.k}, {"l", s.l}, {"n", s.n}};
}

problems::shape shape_from(const json& j) {
  problems::shape s;
  s.j = j.value("j", 0L);
  s.k = j.value("k", 0L);
  s.l = j.value("l", 0L);
  s.n = j.value("n", 0L);
  return s;
}

json timing_json(const timing_request& t) {
  return {{"enabled", t.enabled},           {"warmup_seconds", t.warmup_seconds},
          {"warmup_calls", t.warmup_calls}, {"min_samples", t.min_samples},
          {"max_samples", t.max_samples},   {"min_seconds", t.min_seconds},
          {"max_seconds", t.max_seconds},   {"target_rsd", t.target_rsd},
          {"target_rse", t.target_rse},     {"throttle_fraction", t.throttle_fraction},
          {"input_sets", t.input_sets},     {"gate_launches", t.gate_launches},
          {"save_outputs", t.save_outputs}};
}

timing_request timing_request_from(const json& j) {
  timing_request t;
  t.enabled = j.value("enabled", false);
  t.warmup_seconds = j.value("warmup_seconds", t.warmup_seconds);
  t.warmup_calls = j.value("warmup_calls", t.warmup_calls);
  t.min_samples = j.value("min_samples", t.min_samples);
  t.max_samples = j.value("max_samples", t.max_samples);
  t.min_seconds = j.value("min_seconds", t.min_seconds);
  t.max_seconds = j.value("max_seconds", t.max_seconds);
  t.target_rsd = j.value("target_rsd", t.target_rsd);
  t.target_rse = j.value("target_rse", t.target_rse);
  t.throttle_fraction = j.value("throttle_fraction", t.throttle_fraction);
  t.input_sets = j.value("input_sets", t.input_sets);
  t.gate_launches = j.value("gate_launches", t.gate_launches);
  t.save_outputs = j.value("save_outputs", t.save_outputs);
  return t;
}

} // namespace

std::string to_json_text(const plan& p) {
  json cases = json::array();
  for (const auto& c : p.cases) {
    cases.push_back({{"name", c.name},
                     {"shape", shape_json(c.dims)},
                     {"distribution", c.distribution},
                     {"seed", c.seed}});
  }
  const json j = {{"problem", std::string(problems::to_string(p.problem))},
                  {"launcher", p.launcher},
                  {"more_launchers", p.more_launchers},
                  {"library", p.library.string()},
                  {"output_dir", p.output_dir.string()},
                  {"runs", p.runs},
                  {"exact_buffers", p.exact_buffers},
                  {"profile", p.profile},
                  {"time_limit_seconds", p.time_limit_seconds},
                  {"cases", cases},
                  {"timing", timing_json(p.timing)}};
  return j.dump(2);
}

result<plan> plan_from_json_text(const std::string& text) {
  try {
    const json j = json::parse(text);
    plan p;
    const auto kind = problems::find_kind(j.at("problem").get<std::string>());
    if (!kind) {
      return fail("plan: unknown problem \"" + j.at("problem").get<std::string>() + "\"");
    }
    p.problem = *kind;
    p.launcher = j.at("launcher").get<std::string>();
    p.more_launchers = j.value("more_launchers", std::vector<std::string>{});
    p.library = j.at("library").get<std::string>();
    p.output_dir = j.at("output_dir").get<std::string>();
    p.runs = j.value("runs", 2);
    p.exact_buffers = j.value("exact_buffers", false);
    p.profile = j.value("profile", false);
    p.time_limit_seconds = j.value("time_limit_seconds", 0.0);
    for (const auto& c : j.at("cases")) {
      p.cases.push_back({c.at("name").get<std::string>(), shape_from(c.at("shape")),
                         c.at("distribution").get<std::string>(),
                         c.at("seed").get<std::uint64_t>()});
    }
    if (j.contains("timing")) {
      p.timing = timing_request_from(j.at("timing"));
    }
    return p;
  } catch (const json::exception& e) {
    return fail(std::string("plan: malformed plan file: ") + e.what());
  }
}

std::vector<std::string> plan_launchers(const plan& p) {
  std::vector<std::string> all{p.launcher};
  all.insert(all.end(), p.more_launchers.begin(), p.more_launchers.end());
  return all;
}

std::string output_file_name(std::size_t case_index, int run) {
  return "case-" + std::to_string(case_index) + "-run-" + std::to_string(run) + ".bin";
}

} // namespace cugrade::protocol
