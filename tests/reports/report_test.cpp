#include <regex>

#include <gtest/gtest.h>

#include "harness/core/error.h"
#include "reports/report.h"

namespace cugrade::reports {
namespace {

template <named_enum E> void expect_names_round_trip() {
  const auto names = names_of<E>();
  ASSERT_FALSE(names.empty());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const E value = static_cast<E>(i);
    EXPECT_EQ(to_string(value), names[i]);
    EXPECT_EQ(from_string<E>(names[i]), value) << names[i];
  }
}

TEST(ReportEnums, EveryNameRoundTrips) {
  expect_names_round_trip<kernel_status>();
  expect_names_round_trip<test_status>();
  expect_names_round_trip<visibility>();
  expect_names_round_trip<backend_kind>();
  expect_names_round_trip<build_status>();
  expect_names_round_trip<fault_kind>();
}

TEST(HintCode, ASharedCodeReadByItsWordIsTheSameCodeWithItsHiddenWords) {
  const hint_code read("boundary_check");
  EXPECT_EQ(read, hint_code::boundary_check);
  EXPECT_EQ(read.hidden_words(), hint_code::boundary_check.hidden_words());
  EXPECT_FALSE(read.hidden_words().empty());
  EXPECT_TRUE(read.causes_memory_faults());
  EXPECT_FALSE(hint_code::race.causes_memory_faults());
}

TEST(HintCode, AKindsOwnCodeIsItsWordWithTheWordsItsKindGives) {
  const hint_code own("halo_not_loaded", "the halo cells around a tile are not loaded");
  EXPECT_EQ(to_string(own), "halo_not_loaded");
  EXPECT_EQ(own, hint_code("halo_not_loaded")); // read back from a report: the same code
  EXPECT_TRUE(hint_code("halo_not_loaded").hidden_words().empty());
  EXPECT_NE(own, hint_code::wrong_result);
}

TEST(HintCode, AWordNotOfTheSchemasFormIsRefused) {
  for (const std::string_view bad : {"", "Halo", "halo-not-loaded", "9lives", "a b", "_x"}) {
    EXPECT_FALSE(hint_code::well_formed(bad)) << bad;
    EXPECT_THROW(hint_code{bad}, cugrade::error) << bad;
  }
  EXPECT_FALSE(hint_code::well_formed(std::string(65, 'a')));
  EXPECT_TRUE(hint_code::well_formed(std::string(64, 'a')));
  EXPECT_TRUE(hint_code::well_formed("size_threshold2"));
}

TEST(ReportEnums, ContractWordsAreSpelledExactly) {
  EXPECT_EQ(to_string(kernel_status::build_error), "build_error");
  EXPECT_EQ(to_string(kernel_status::forbidden), "forbidden");
  EXPECT_EQ(to_string(test_status::not_run), "not_run");
  EXPECT_EQ(to_string(visibility::after_due_date), "after_due_date");
  EXPECT_EQ(to_string(visibility::after_published), "after_published");
  EXPECT_EQ(to_string(backend_kind::emu), "emu");
  EXPECT_EQ(to_string(hint_code::input_modified), "input_modified");
  EXPECT_EQ(names_of<kernel_status>().size(), 7u);
  EXPECT_EQ(to_string(hint_code::size_threshold), "size_threshold");
  EXPECT_EQ(to_string(hint_code::bytes_for_elements), "bytes_for_elements");
  EXPECT_EQ(names_of<fault_kind>().size(), 17u);
  EXPECT_EQ(to_string(fault_kind::tampering), "tampering");
  EXPECT_EQ(to_string(fault_kind::out_of_memory), "out_of_memory");
  EXPECT_EQ(to_string(fault_kind::input_mutation), "input_mutation");
}

TEST(FaultKind, UnknownNamesReadAsCudaErrorNeverAsNoFault) {
  EXPECT_EQ(fault_kind_named("out_of_bounds"), fault_kind::out_of_bounds);
  EXPECT_EQ(fault_kind_named("guard words"), fault_kind::cuda_error);
  EXPECT_EQ(fault_kind_named(""), fault_kind::cuda_error);
  EXPECT_TRUE(is_memory_fault(fault_kind::misaligned_address));
  EXPECT_FALSE(is_memory_fault(fault_kind::race));
}

TEST(ReportEnums, FromStringNeverMatchesPrefixesOrCase) {
  EXPECT_FALSE(from_string<kernel_status>("pass"));
  EXPECT_FALSE(from_string<kernel_status>("passed "));
  EXPECT_FALSE(from_string<kernel_status>("PASSED"));
  EXPECT_FALSE(from_string<kernel_status>("build"));
  EXPECT_FALSE(from_string<test_status>(""));
  EXPECT_FALSE(from_string<visibility>("hidden_"));
}

TEST(ReportTime, NowIsIso8601Utc) {
  const std::string now = now_iso8601_utc();
  EXPECT_TRUE(std::regex_match(now, std::regex(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)"))) << now;
  EXPECT_GE(now.substr(0, 4), "2024");
}

TEST(Report, DefaultsCarryTheSchemaId) {
  const report r;
  EXPECT_EQ(r.schema, "cugrade.report/1");
  EXPECT_TRUE(r.gradable);
}

TEST(Report, MarkUngradableDropsTheScoreAndSaysWhy) {
  report r;
  r.score = 10;
  mark_ungradable(r, "no CUDA device visible");
  EXPECT_FALSE(r.gradable);
  EXPECT_FALSE(r.score.has_value());
  EXPECT_EQ(r.infrastructure_error, "no CUDA device visible");
}

} // namespace
} // namespace cugrade::reports
