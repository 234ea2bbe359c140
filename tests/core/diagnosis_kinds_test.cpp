// A kind's part of diagnosis is registered by its name (grader/core/detail/diagnosis_kinds.h):
// every registration names a registered kind once, its codes are its own, the shared rules keep
// one order whatever the kind, and every code a report can carry is in the hints catalogue.

#include "grader/core/detail/diagnosis_kinds.h"

#include "harness/core/file_io.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>

namespace cugrade::grader::detail {
namespace {

TEST(DiagnosisKinds, EachRegistrationNamesARegisteredKindOnce) {
  std::set<std::string> seen;
  for (const kind_diagnosis& d : registered_diagnoses()) {
    EXPECT_TRUE(problems::find_kind(d.kind).ok()) << d.kind << " is not a problem kind";
    EXPECT_TRUE(seen.insert(d.kind).second) << d.kind << " is registered twice";
    for (const kind_rule& r : d.rules) {
      EXPECT_NE(r.check, nullptr) << d.kind;
    }
  }
  // A kind without a registration gets the shared rules alone (a new kind may start so).
  for (const std::string& name : problems::names()) {
    const kind_diagnosis& d = diagnosis_of(problems::kind_named(name));
    EXPECT_TRUE(d.kind == name || (d.kind.empty() && d.rules.empty())) << name;
  }
}

TEST(DiagnosisKinds, AKindsCodesAreItsOwn) {
  std::set<std::string> taken;
  for (const auto& c : reports::hint_code::shared_codes()) {
    taken.insert(c.word());
  }
  for (const kind_diagnosis& d : registered_diagnoses()) {
    EXPECT_FALSE(d.codes.empty()) << d.kind << " has rules but no code of its own";
    for (const auto& c : d.codes) {
      EXPECT_TRUE(reports::hint_code::well_formed(c.word()));
      EXPECT_FALSE(c.hidden_words().empty()) << c.word() << ": nothing to say for hidden tests";
      EXPECT_TRUE(taken.insert(c.word()).second)
          << d.kind << "'s code " << c.word() << " is shared or another kind's";
    }
  }
}

// Ties between equally explaining hints follow the rules' order: the shared rules stand in one
// order for every kind, and each kind's rules in the order it registered them.
TEST(DiagnosisKinds, TheSharedRulesKeepOneOrderForEveryKind) {
  std::vector<rule> shared_order;
  for (const std::string& name : problems::names()) {
    const problems::kind k = problems::kind_named(name);
    const kind_diagnosis& d = diagnosis_of(k);
    const std::vector<rule> all = rules_for(k);
    EXPECT_EQ(all.size(), 19u + d.rules.size()) << name;
    std::vector<rule> shared;
    std::vector<rule> own;
    for (const rule r : all) {
      const bool kinds = std::any_of(d.rules.begin(), d.rules.end(),
                                     [&](const kind_rule& kr) { return kr.check == r; });
      (kinds ? own : shared).push_back(r);
    }
    if (shared_order.empty()) {
      shared_order = shared;
    }
    EXPECT_EQ(shared, shared_order) << name;
    std::vector<rule> registered_places_order;
    for (const rule_place place :
         {rule_place::after_faults, rule_place::after_early_exits, rule_place::after_size_patterns,
          rule_place::after_precision, rule_place::after_memory_faults}) {
      for (const kind_rule& kr : d.rules) {
        if (kr.place == place) {
          registered_places_order.push_back(kr.check);
        }
      }
    }
    EXPECT_EQ(own, registered_places_order) << name;
  }
  ASSERT_FALSE(shared_order.empty());
  EXPECT_EQ(shared_order.front(), barrier_fault);
  EXPECT_EQ(shared_order.back(), other_fault);
}

TEST(DiagnosisKinds, EveryCodeIsInTheHintsCatalogue) {
  const auto catalogue = read_file(std::filesystem::path(CUGRADE_SOURCE_DIR) / "docs/hints.md");
  ASSERT_TRUE(catalogue.ok());
  std::vector<reports::hint_code> codes = reports::hint_code::shared_codes();
  for (const kind_diagnosis& d : registered_diagnoses()) {
    codes.insert(codes.end(), d.codes.begin(), d.codes.end());
  }
  for (const auto& c : codes) {
    EXPECT_NE(catalogue->find("`" + c.word() + "`"), std::string::npos)
        << c.word() << " is not in docs/hints.md";
  }
}

} // namespace
} // namespace cugrade::grader::detail
