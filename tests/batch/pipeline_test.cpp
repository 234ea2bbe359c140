// How a batch grades one student: the class's shared settings (batch_options::grading) with the
// student's own submission, commit, id and deadline, the deadline the journal records for them.
#include "grader/batch/pipeline.h"
#include "grader/batch/plan.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace cugrade::batch {
namespace {

batch_options class_settings() {
  batch_options o;
  o.grading.assignment = "reduction";
  o.grading.backend = "emu";
  o.grading.spec_loading.hidden = spec::hidden_tests::from_file;
  o.grading.spec_loading.hidden_file = "/course/private/reduction-hidden.json";
  o.grading.deadline = "2026-12-15T23:59:00Z";
  o.grading.kernel_timeout_seconds = 30;
  o.grading.kernels = {"reduce_convergent"};
  o.out_dir = "/class/batch";
  o.formats = {"json", "text"};
  return o;
}

std::string recorded_deadline(const roster_entry& e, const batch_options& o) {
  return nlohmann::json::parse(grading_inputs(e, o)).value("deadline", "?");
}

TEST(GradingOptions, AStudentTakesTheClassSettingsWithTheirOwnSubmissionAndDeadline) {
  const auto o = class_settings();
  grader::backend_choice chosen;
  chosen.kind = reports::backend_kind::emu;
  chosen.note = "no usable GPU";
  const roster_entry alice{"alice", "/repos/alice", "abc123", "2026-12-18T23:59:00Z", "", 2};
  const auto g = grading_options(o, chosen, alice);
  EXPECT_EQ(g.assignment, "reduction");
  EXPECT_EQ(g.backend, "emu");
  EXPECT_EQ(g.spec_loading.hidden, spec::hidden_tests::from_file);
  EXPECT_EQ(g.spec_loading.hidden_file, "/course/private/reduction-hidden.json");
  EXPECT_EQ(g.kernel_timeout_seconds, 30.0);
  EXPECT_EQ(g.kernels, std::vector<std::string>{"reduce_convergent"});
  EXPECT_EQ(g.submission, "/repos/alice");
  EXPECT_EQ(g.commit, "abc123");
  EXPECT_EQ(g.student, "alice");
  EXPECT_EQ(g.deadline, "2026-12-18T23:59:00Z"); // her extension, over the class's --deadline
  EXPECT_EQ(g.deadline.value_or(""), recorded_deadline(alice, o));
  ASSERT_TRUE(g.chosen_backend.has_value()); // probed once for the class, never per student
  EXPECT_EQ(g.chosen_backend->note, "no usable GPU");
  EXPECT_FALSE(g.write_files); // the batch writes the files from the journal, in its own folder
  EXPECT_TRUE(g.out_dir.empty());
}

TEST(GradingOptions, AStudentWithoutADeadlineTakesTheClassDeadlineOrNone) {
  auto o = class_settings();
  const roster_entry bob{"bob", "/repos/bob", {}, {}, "", 3};
  const auto g = grading_options(o, grader::backend_choice{}, bob);
  EXPECT_EQ(g.deadline, "2026-12-15T23:59:00Z");
  EXPECT_EQ(g.deadline.value_or(""), recorded_deadline(bob, o));
  EXPECT_FALSE(g.commit.has_value());
  o.grading.deadline.reset(); // no --deadline: the spec's, chosen by the grading
  EXPECT_FALSE(grading_options(o, grader::backend_choice{}, bob).deadline.has_value());
  EXPECT_EQ(recorded_deadline(bob, o), "");
}

} // namespace
} // namespace cugrade::batch
