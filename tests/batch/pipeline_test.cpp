// How a batch grades one student: the class's shared settings (batch_options::grading) with the
// student's own submission, commit, id and deadline, the deadline the journal records for them;
// and a machine that stops working mid-batch (its GPU needs a reset) blames no student.
#include "grader/batch/closing.h"
#include "grader/batch/gpu_suspects.h"
#include "grader/batch/pipeline.h"
#include "grader/batch/plan.h"
#include "grader/process/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <mutex>
#include <sstream>

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

reports::report with_kernels(std::vector<reports::kernel_status> statuses) {
  reports::report r;
  for (const auto s : statuses) {
    reports::kernel_report k;
    k.status = s;
    r.kernels.push_back(k);
  }
  return r;
}

// A kernel in error or out of time on a GPU that stopped working makes the grading's own report
// not gradable (grader/core/gpu_loss.h, its tests in tests/grading): the batch asks the GPU again
// only for a report that is not gradable, never a second time for a kernel's error.
TEST(MachineMayBeAtFault, ForAnUngradableReportOnly) {
  using enum reports::kernel_status;
  EXPECT_FALSE(machine_may_be_at_fault(with_kernels({passed, failed, build_error, missing})));
  EXPECT_FALSE(machine_may_be_at_fault(with_kernels({passed, error})));
  EXPECT_FALSE(machine_may_be_at_fault(with_kernels({timeout})));
  auto ungradable = with_kernels({});
  reports::mark_ungradable(ungradable, "the runner could not start");
  EXPECT_TRUE(machine_may_be_at_fault(ungradable));
}

roster_entry unreachable(const std::string& student) {
  return {student, "/nonexistent/" + student, {}, {}, "", 1};
}

// Three students whose repositories cannot be fetched (not gradable, in no time), graded by one
// worker on the emulator, with `machine_lost` answering as the batch's GPU probe would.
struct lost_machine_batch {
  process::temp_dir tmp{"cugrade-machine-lost-test"};
  batch_options o = class_settings();
  std::vector<roster_entry> students;
  std::unique_ptr<journal> log;
  std::mutex asked_mutex;
  int asked = 0;
  bool stopped = false; ///< whether the last grade_all's pipeline was told to stop

  explicit lost_machine_batch(const std::vector<std::string>& names = {"ann", "ben", "cat"}) {
    for (const auto& name : names) {
      students.push_back(unreachable(name));
    }
    o.out_dir = tmp.path() / "batch";
    o.grading.spec_loading = {};
    o.jobs = 1;
    auto opened = journal::open(o.out_dir);
    EXPECT_TRUE(opened.ok()) << opened.error();
    log = std::move(*opened);
    for (const auto& e : students) {
      log->enqueue(e.student, grading_inputs(e, o));
    }
  }

  // The batch's options with the three students as its roster.
  batch_options roster() const {
    batch_options with = o;
    with.roster.entries = students;
    return with;
  }

  // Grades everyone with `health` as the GPU's probe (empty: it works); returns why the batch
  // stopped (or "").
  std::string grade_all(const std::string& health) {
    slots places(1, {}, 1); // one worker
    return grade_all(places, [&](std::optional<std::size_t>) -> std::optional<lost_gpu> {
      if (health.empty()) {
        return std::nullopt;
      }
      return lost_gpu{0, health};
    });
  }

  // Grades everyone on `places` with `probe` as the batch's GPU probe; returns why GPUs stopped.
  std::string
  grade_all(slots& places,
            const std::function<std::optional<lost_gpu>(std::optional<std::size_t>)>& probe) {
    const auto l = grader::discover_layout();
    EXPECT_TRUE(l.ok()) << l.error();
    grader::backend_choice emu;
    emu.kind = reports::backend_kind::emu;
    std::ostringstream shown_to;
    progress shown(shown_to, students.size(), 0, false, {});
    pipeline p{o, *l, emu, *log, places, shown};
    p.machine_lost = [&](std::optional<std::size_t> gpu) {
      EXPECT_FALSE(gpu.has_value()) << "an unreachable repository stops before any GPU run";
      const std::lock_guard lock(asked_mutex);
      ++asked;
      return probe(gpu);
    };
    std::vector<const roster_entry*> work;
    for (const auto& e : students) {
      work.push_back(&e);
    }
    std::atomic<std::size_t> remaining = work.size();
    { // the threads join at the end of the scope
      const auto workers = start_workers(p, work, remaining);
    }
    stopped = p.stop;
    return p.lost_reason();
  }
};

TEST(MachineLost, TheStudentGradedWhenTheGpuFailedIsLeftForTheNextRunAndTheBatchStops) {
  lost_machine_batch b;
  const auto why = b.grade_all("GPU 0: no NVIDIA GPU found (a GPU may need a reset)");
  EXPECT_EQ(why, "GPU 0: no NVIDIA GPU found (a GPU may need a reset)");
  EXPECT_EQ(b.asked, 1); // one worker: ann's ungradable report asked, then nobody else started
  EXPECT_EQ(gpu_suspects(*b.log), (std::map<std::string, int>{{"ann", 1}}));
  // The next run grades ann after the others, and says why.
  const auto next_run = b.roster(); // the plan points into its roster
  const auto plan = plan_batch(next_run, *b.log, {});
  ASSERT_EQ(plan.to_grade.size(), 3u);
  EXPECT_EQ(plan.to_grade.back()->student, "ann");
  EXPECT_EQ(plan.to_grade.front()->student, "ben");
  ASSERT_EQ(plan.notices.size(), 1u);
  EXPECT_NE(plan.notices[0].find("ann was being graded when the GPU stopped working (1 time)"),
            std::string::npos)
      << plan.notices[0];
  for (const auto& e : b.students) {
    const auto entry = b.log->find(e.student);
    ASSERT_TRUE(entry.has_value()) << e.student;
    EXPECT_EQ(entry->state, student_state::queued) << e.student; // the next run grades them all
    EXPECT_TRUE(entry->report_json.empty()) << e.student;
  }
}

TEST(MachineLost, AHealthyGpuKeepsTheUngradableReportsAndTheBatchGoesOn) {
  lost_machine_batch b;
  add_gpu_suspect(*b.log, "ben"); // an earlier run's GPU stopped while ben was graded
  EXPECT_EQ(b.grade_all(""), "");
  EXPECT_EQ(b.asked, 3);
  EXPECT_TRUE(gpu_suspects(*b.log).empty()); // ben's report reached the journal
  for (const auto& e : b.students) {
    const auto entry = b.log->find(e.student);
    ASSERT_TRUE(entry.has_value()) << e.student;
    EXPECT_GE(entry->state, student_state::graded) << e.student;
    EXPECT_NE(entry->report_json.find("\"gradable\": false"), std::string::npos)
        << entry->report_json.substr(0, 400);
  }
}

// Two GPUs, and GPU 1 stops answering: the gradings that saw it fail are left for the next run,
// GPU 1 leaves service, and the batch grades everyone else without stopping (six students, three
// workers: a batch that stopped would leave some never started).
TEST(MachineLost, OneLostGpuOfTwoLeavesServiceAndTheBatchGoesOnWithTheOther) {
  lost_machine_batch b({"ann", "ben", "cat", "dan", "eve", "fay"});
  slots places(1, {"0", "1"}, 1); // three workers
  const auto why = b.grade_all(places, [&](std::optional<std::size_t>) -> std::optional<lost_gpu> {
    // The real probe asks the GPUs in service only: GPU 1 fails until it is out of service.
    if (places.in_service(1)) {
      return lost_gpu{1, "GPU 1: no usable GPU: CUDA can use none"};
    }
    return std::nullopt;
  });
  EXPECT_EQ(why, "GPU 1: no usable GPU: CUDA can use none");
  EXPECT_FALSE(b.stopped) << "GPU 0 still works";
  EXPECT_TRUE(places.in_service(0));
  EXPECT_FALSE(places.in_service(1));
  EXPECT_EQ(b.asked, 6);
  const auto suspects = gpu_suspects(*b.log);
  // Gradings that asked at once may all have seen GPU 1 fail before it left service.
  ASSERT_GE(suspects.size(), 1u);
  ASSERT_LE(suspects.size(), 3u);
  int graded = 0;
  for (const auto& e : b.students) {
    const auto entry = b.log->find(e.student);
    ASSERT_TRUE(entry.has_value()) << e.student;
    if (suspects.contains(e.student)) {
      EXPECT_EQ(entry->state, student_state::queued) << e.student << " is left for the next run";
    } else {
      EXPECT_GE(entry->state, student_state::graded) << e.student;
      ++graded;
    }
  }
  EXPECT_EQ(graded + static_cast<int>(suspects.size()), 6) << "everyone else was graded";
}

TEST(MachineLost, TheStopWordsNameTheFaultWhatIsLeftAndHowToContinue) {
  const auto words = machine_lost_words("GPU 0: no NVIDIA GPU found", 17, {"ann", "ben\x1b[2J"},
                                        "cugrade batch reduction --roster class.csv --out b", 0);
  EXPECT_NE(words.find("(GPU 0: no NVIDIA GPU found)"), std::string::npos) << words;
  EXPECT_NE(words.find("17 students not graded"), std::string::npos) << words;
  EXPECT_NE(words.find("Being graded then: ann, ben"), std::string::npos) << words;
  EXPECT_EQ(words.find('\x1b'), std::string::npos) << words; // a roster id is shown escaped
  EXPECT_NE(words.find("GPU Recovery Action"), std::string::npos) << words;
  EXPECT_TRUE(words.ends_with("continue: cugrade batch reduction --roster class.csv --out b"))
      << words;
  EXPECT_NE(words.find("the batch stopped with 17"), std::string::npos) << words;
  EXPECT_NE(machine_lost_words("x", 1, {}, "c", 0).find("1 student not graded"), std::string::npos);
  const auto went_on = machine_lost_words("GPU 1: no usable GPU", 1, {"ann"}, "c", 3);
  EXPECT_NE(went_on.find("the batch went on with the 3 GPUs still working and ended with 1 "
                         "student not graded"),
            std::string::npos)
      << went_on;
}

} // namespace
} // namespace cugrade::batch
