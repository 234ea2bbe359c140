#pragma once
// What an insight fixture's expect.json asks of a graded kernel's insights, on either backend:
// "first" (the costliest cause), "has" and "lacks" (among them or not), "none" (nothing said),
// "compared_with" (the first insight leads with a comparison with that kernel).

#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cugrade::e2e {

inline std::vector<std::string> insight_kinds(const nlohmann::json& kernel) {
  std::vector<std::string> kinds;
  for (const auto& i : kernel.value("insights", nlohmann::json::array())) {
    kinds.push_back(i.at("kind").get<std::string>());
  }
  return kinds;
}

inline bool has_kind(const std::vector<std::string>& kinds, const std::string& kind) {
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

inline void expect_insights(const nlohmann::json& kernel, const nlohmann::json& wanted) {
  const auto kinds = insight_kinds(kernel);
  const std::string seen = kernel.value("name", "?") + " said " + testing::PrintToString(kinds) +
                           "\n" + kernel.value("insights", nlohmann::json::array()).dump(2) + "\n" +
                           kernel.value("profile", nlohmann::json::object()).dump();
  if (wanted.contains("first")) {
    ASSERT_FALSE(kinds.empty()) << seen;
    EXPECT_EQ(kinds.front(), wanted.at("first").get<std::string>()) << seen;
  }
  for (const auto& kind : wanted.value("has", nlohmann::json::array())) {
    EXPECT_TRUE(has_kind(kinds, kind.get<std::string>())) << seen;
  }
  for (const auto& kind : wanted.value("lacks", nlohmann::json::array())) {
    EXPECT_FALSE(has_kind(kinds, kind.get<std::string>())) << seen;
  }
  if (wanted.contains("compared_with")) {
    ASSERT_FALSE(kinds.empty()) << seen;
    const std::string other = wanted.at("compared_with").get<std::string>();
    const std::string first = kernel.at("insights").at(0).at("message").get<std::string>();
    EXPECT_EQ(first.rfind(kernel.value("name", "?"), 0), 0u) << seen;
    EXPECT_TRUE(first.find(" " + other + " on the same input") != std::string::npos ||
                first.find(" " + other + "'s on the same input") != std::string::npos)
        << seen;
  }
  if (wanted.value("none", false)) {
    EXPECT_TRUE(kinds.empty()) << seen;
  }
}

} // namespace cugrade::e2e
