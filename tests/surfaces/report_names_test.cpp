// Report files (issue 36, item 6): one student's report file must never hold another's. Students
// eve and eve.gradescope with --format gradescope would both write reports/eve.gradescope.json;
// such ids are refused, by batch and by grade. A report file overwritten after it was written
// (by another student's, or by hand) is noticed when the batch resumes, rewritten from the
// journal, and the batch says so.
#include "grader/process/temp_dir.h"
#include "tests/surfaces/surfaces_support.h"

#include <gtest/gtest.h>

namespace cugrade::surfaces {
namespace {

namespace fs = std::filesystem;

// Each student's report files are that student's: what a collision breaks. Its JSON file is a
// cugrade report of that student, its Gradescope file Gradescope's results.
void expect_own_reports(const fs::path& out, const std::vector<std::string>& students) {
  for (const auto& s : students) {
    const auto report = e2e::read_json(out / "reports" / (s + ".json"));
    ASSERT_TRUE(report.is_object()) << s << ".json is not JSON";
    EXPECT_EQ(report.value("schema", "").rfind("cugrade.report/", 0), 0u)
        << s << ".json holds another format's file: " << report.dump().substr(0, 300);
    if (report.contains("submission")) {
      EXPECT_EQ(report["submission"].value("student", ""), s);
    }
    const auto results = e2e::read_json(out / "reports" / (s + ".gradescope.json"));
    EXPECT_TRUE(results.is_object() && results.contains("tests") && !results.contains("schema"))
        << s << ".gradescope.json is not Gradescope's results: " << results.dump().substr(0, 300);
  }
}

void expect_refused_id(const std::vector<std::string>& ids) {
  const process::temp_dir tmp("cugrade-surfaces-names");
  open_to_everyone(tmp.path());
  class_folder c(tmp.path());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    c.add(ids[i], compile_error_source(), "", "student" + std::to_string(i));
  }
  const auto out = tmp.path() / "out";
  const auto r = run_batch(c.roster(), out, {"--format", "gradescope,junit,text"});
  EXPECT_EQ(r.exit_code, 2) << "ids " << testing::PrintToString(ids) << " were graded\n"
                            << r.err.substr(0, 3000);
  EXPECT_NE(r.err.find("\"" + ids.back() + "\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("report file"), std::string::npos) << r.err;
  if (r.exit_code == 0) {
    expect_own_reports(out, ids); // what went wrong, for the record
  }
}

TEST(ReportNames, EveAndEveGradescopeCannotShareAReportFile) {
  expect_refused_id({"eve", "eve.gradescope"});
}

TEST(ReportNames, IdsEndingInAFormatStemAreRefusedWhateverTheirCase) {
  expect_refused_id({"eve", "Eve.GradeScope"});
  expect_refused_id({"mallory", "mallory.not-gradable"});
  expect_refused_id({"trent", "trent.junit"});
}

TEST(ReportNames, GradeRefusesAStudentIdEndingInAFormatStem) {
  const process::temp_dir tmp("cugrade-surfaces-names");
  open_to_everyone(tmp.path());
  class_folder c(tmp.path());
  c.add("eve", compile_error_source());
  const auto out = tmp.path() / "out";
  const cli_result r =
      run_cugrade({"grade", small_spec().string(), (tmp.path() / "eve").string(), "--backend",
                   backend(), "--out", out.string(), "--student", "eve.gradescope"});
  EXPECT_EQ(r.exit_code, 2) << r.err.substr(0, 3000);
  EXPECT_NE(r.err.find("eve.gradescope"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out / "eve.gradescope.json"));
}

// Copies bob's files with these suffixes over alice's, runs the batch again and expects alice's
// files back as they were, each named in what the batch says.
void expect_resume_rewrites(const fs::path& roster, const fs::path& out,
                            const std::vector<std::string>& suffixes) {
  const std::vector<std::string> formats{"--format", "gradescope,text"};
  const auto reports = out / "reports";
  std::map<std::string, std::string> written;
  for (const auto& suffix : suffixes) {
    const auto alice = reports / ("alice" + suffix);
    const auto bob = reports / ("bob" + suffix);
    written["alice" + suffix] = text_of(alice);
    ASSERT_NE(text_of(alice), text_of(bob)) << suffix;
    fs::copy_file(bob, alice, fs::copy_options::overwrite_existing);
  }
  const auto resumed = run_batch(roster, out, formats);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err.substr(0, 3000);
  for (const auto& [file, bytes] : written) {
    EXPECT_EQ(text_of(reports / file), bytes) << file << " still holds bob's report";
    EXPECT_NE(resumed.err.find("reports/" + file), std::string::npos)
        << "the batch did not say it rewrote " << file << "\n"
        << resumed.err;
  }
  EXPECT_NE(resumed.err.find("rewriting"), std::string::npos) << resumed.err;
  // bob's files were never touched: nothing to say about them.
  EXPECT_EQ(resumed.err.find("reports/bob"), std::string::npos) << resumed.err;
}

TEST(ReportNames, ResumeRewritesAReportFileOverwrittenByAnotherStudent) {
  const process::temp_dir tmp("cugrade-surfaces-names");
  open_to_everyone(tmp.path());
  class_folder c(tmp.path());
  c.add("alice", compile_error_source());
  // bob's build fails with other words, so his files differ from alice's.
  c.add("bob", compile_error_source() + "\nint bob_was_here = ;\n");
  const auto roster = c.roster();
  const auto out = tmp.path() / "out";
  const auto first = run_batch(roster, out, {"--format", "gradescope,text"});
  ASSERT_EQ(first.exit_code, 0) << first.err.substr(0, 3000);
  {
    SCOPED_TRACE("the Gradescope and text files overwritten, the JSON file intact");
    expect_resume_rewrites(roster, out, {".gradescope.json", ".txt"});
  }
  {
    SCOPED_TRACE("the JSON file overwritten");
    expect_resume_rewrites(roster, out, {".json"});
  }
}

} // namespace
} // namespace cugrade::surfaces
