// The grader's checks of timed outputs: matmul on sampled rows, the reduction's pragmatic bound,
// and the whole record of a case (stale, out of bounds, modified inputs, cached results,
// fingerprints that disagree with the verified output).

#include "grader/perf/output_check.h"
#include "grader/perf/timed_verification.h"
#include "grader/process/temp_dir.h"
#include "harness/protocol/timing.h"

#include <fstream>
#include <gtest/gtest.h>

namespace cugrade::perf {
namespace {

namespace fs = std::filesystem;

problems::buffer as_f32(const std::vector<double>& values) {
  problems::buffer b;
  b.type = problems::element_type::f32;
  b.bytes.resize(values.size() * 4);
  for (std::size_t i = 0; i < values.size(); ++i) {
    b.as<float>()[i] = static_cast<float>(values[i]);
  }
  return b;
}

TEST(SampleRows, AreDistinctSortedAndHoldTheEnds) {
  const auto rows = sample_rows(2048, 64, 5);
  ASSERT_EQ(rows.size(), 64u);
  EXPECT_EQ(rows.front(), 0u);
  EXPECT_EQ(rows.back(), 2047u);
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
  EXPECT_EQ(std::adjacent_find(rows.begin(), rows.end()), rows.end());
  EXPECT_EQ(sample_rows(10, 64, 5).size(), 10u);
  EXPECT_NE(sample_rows(2048, 64, 5), sample_rows(2048, 64, 6));
}

struct matmul_case {
  problems::test_case tc{
      "m", problems::kind_named("matmul"), {.j = 300, .k = 70, .l = 50}, "real", 3};
  const problems::problem& p = problems::get(problems::kind_named("matmul"));
  std::vector<problems::buffer> in = p.generate(tc);
  problems::buffer out = as_f32(p.reference(tc, in));
};

TEST(CheckOutput, PassesARightMatmulOnSampledRows) {
  const matmul_case m;
  check_policy policy;
  policy.matmul_rows = 16;
  const auto v = check_output(m.p, m.tc, m.in, m.out, policy);
  EXPECT_TRUE(v.passed) << v.detail;
}

TEST(PreparedChecks, PrepareEachInputSetOnceForEveryRound) {
  const matmul_case m;
  check_policy policy;
  policy.matmul_rows = 16;
  prepared_checks shared;
  int made = 0;
  const auto make = [&] {
    ++made;
    return prepare_check(m.p, m.tc, m.in, policy);
  };
  const auto& first = shared.get(m.tc, make);
  const auto& again = shared.get(m.tc, make);
  EXPECT_EQ(&first, &again);
  EXPECT_EQ(made, 1);
  EXPECT_TRUE(check_prepared(m.p, first, m.out, policy).passed);
  auto other = m.tc;
  other.seed += 1; // another input set
  (void)shared.get(other, make);
  EXPECT_EQ(made, 2);
}

TEST(CheckOutput, FindsAWrongElementInACheckedRowAndNamesIt) {
  matmul_case m;
  m.out.as<float>()[299 * 50 + 7] += 1.0f; // the last row is always checked
  check_policy policy;
  policy.matmul_rows = 16;
  const auto v = check_output(m.p, m.tc, m.in, m.out, policy);
  EXPECT_FALSE(v.passed);
  EXPECT_NE(v.detail.find("P[299][7]"), std::string::npos) << v.detail;
}

TEST(CheckOutput, AcceptsAReductionWithinThePragmaticBoundOnly) {
  const problems::test_case tc{
      "r", problems::kind_named("reduction"), {.n = 100000}, "real_offset", 9};
  const auto& p = problems::get(problems::kind_named("reduction"));
  const auto in = p.generate(tc);
  const double exact = p.reference(tc, in)[0]; // about 1e5; sum|x| about 1e5 too
  EXPECT_TRUE(check_output(p, tc, in, as_f32({exact + 50}), {}).passed);
  const auto far = check_output(p, tc, in, as_f32({exact + 500}), {});
  EXPECT_FALSE(far.passed);
  EXPECT_NE(far.detail.find("0.001 * sum|x|"), std::string::npos) << far.detail;
  EXPECT_FALSE(check_output(p, tc, in, as_f32({-exact}), {}).passed);
}

// A fake runner's leftovers: outputs of a histogram case over two input sets and the fresh call.
class TimedCase : public ::testing::Test {
protected:
  static constexpr int sets = 2;
  void SetUp() override {
    for (int set = 0; set <= sets; ++set) {
      const auto role = set == sets ? protocol::output_role::fresh : protocol::output_role::first;
      save(set, role, right_output(set));
      m_rec.checks.push_back(check_of(set, right_output(set)));
      if (set < sets) {
        save(set, protocol::output_role::last, right_output(set));
        m_rec.checks.push_back(check_of(set, right_output(set)));
      }
    }
    std::rotate(m_rec.checks.begin() + 1, m_rec.checks.begin() + 2, m_rec.checks.end() - 1);
  }

  problems::buffer right_output(int set) const {
    const auto in = protocol::input_set_inputs(m_p, m_tc, set, sets);
    auto expected = m_p.reference(m_tc, in);
    problems::buffer b;
    b.type = problems::element_type::u32;
    b.bytes.resize(expected.size() * 4);
    for (std::size_t i = 0; i < expected.size(); ++i) {
      b.as<std::uint32_t>()[i] = static_cast<std::uint32_t>(expected[i]);
    }
    return b;
  }
  static protocol::sample_check check_of(int set, const problems::buffer& b) {
    const auto d = protocol::digest_of(b.type, b.bytes.data(), b.count());
    return {set, d.sum, d.abs_sum, d.poison_words, d.non_finite, false};
  }
  void save(int set, protocol::output_role role, const problems::buffer& b) {
    const auto name = protocol::timed_output_file_name(0, set, role);
    std::ofstream(m_dir / name, std::ios::binary)
        .write(reinterpret_cast<const char*>(b.bytes.data()),
               static_cast<std::streamsize>(b.bytes.size()));
    m_rec.saved.push_back({set, std::string(protocol::to_string(role)), name});
  }
  [[nodiscard]] timed_check verify() const {
    return verify_timed_case(m_p, m_tc, sets, m_rec, m_dir, {});
  }

  const problems::problem& m_p = problems::get(problems::kind_named("histogram"));
  problems::test_case m_tc{"h", problems::kind_named("histogram"), {.n = 3000}, "uniform", 17};
  protocol::timing_record m_rec;
  process::temp_dir m_tmp{"cugrade-verify"};
  fs::path m_dir = m_tmp.path();
};

TEST_F(TimedCase, PassesWhenEveryOutputIsRight) {
  const auto c = verify();
  EXPECT_TRUE(c.ok()) << c.message;
  EXPECT_EQ(c.outputs_checked, 5);
}

TEST_F(TimedCase, FailsACallThatLeftPoison) {
  m_rec.checks[1].poison_words = 256;
  const auto c = verify();
  EXPECT_EQ(c.verdict, timed_verdict::stale);
  EXPECT_NE(c.message.find("timed call 2 (input set 1)"), std::string::npos) << c.message;
}

TEST_F(TimedCase, FailsAStorePastTheEnd) {
  m_rec.checks[0].canary_overwritten = true;
  EXPECT_EQ(verify().verdict, timed_verdict::out_of_bounds);
}

TEST_F(TimedCase, FailsModifiedInputsBeforeTheWrongOutputsTheyCause) {
  m_rec.input_modified = true;
  m_rec.checks[2].non_finite = 1;
  EXPECT_EQ(verify().verdict, timed_verdict::input_modified);
}

TEST_F(TimedCase, CatchesAFreshCallAnsweredFromACache) {
  save(sets, protocol::output_role::fresh, right_output(0)); // set 0's answer, same address
  const auto c = verify();
  EXPECT_EQ(c.verdict, timed_verdict::cached);
  EXPECT_NE(c.message.find("fresh-contents call"), std::string::npos) << c.message;
}

TEST_F(TimedCase, CatchesAWrongLastOutput) {
  auto wrong = right_output(1);
  wrong.as<std::uint32_t>()[5] += 1;
  save(1, protocol::output_role::last, wrong);
  const auto c = verify();
  EXPECT_EQ(c.verdict, timed_verdict::wrong);
  EXPECT_NE(c.message.find("last timed call on input set 1"), std::string::npos) << c.message;
}

// A set's last output equal to its first (compared on the device by the runner) names the
// first's file: checked once, as the first, whichever entry the record lists first.
TEST_F(TimedCase, ALastOutputNamingTheFirstsFileIsCheckedOnceAsTheFirst) {
  for (auto& s : m_rec.saved) {
    if (s.role == "last") {
      fs::remove(m_dir / s.file);
      s.file = protocol::timed_output_file_name(0, s.set, protocol::output_role::first);
    }
  }
  const auto c = verify();
  EXPECT_TRUE(c.ok()) << c.message;
  EXPECT_EQ(c.outputs_checked, 3);           // two firsts and the fresh call
  std::swap(m_rec.saved[0], m_rec.saved[1]); // set 0: "last" listed before "first"
  m_rec.checks.insert(m_rec.checks.begin() + 2, {0, 1.0, 1.0, 0, 0, false});
  const auto wrong = verify();
  EXPECT_EQ(wrong.verdict, timed_verdict::wrong); // the first's digest check still ran
  EXPECT_NE(wrong.message.find("timed call 3 on input set 0"), std::string::npos) << wrong.message;
}

TEST_F(TimedCase, ChecksALastOutputNamingAnotherSetsFileAgainstItsOwnSet) {
  for (auto& s : m_rec.saved) {
    if (s.role == "last" && s.set == 1) {
      s.file = protocol::timed_output_file_name(0, 0, protocol::output_role::first);
    }
  }
  const auto c = verify();
  EXPECT_EQ(c.verdict, timed_verdict::wrong) << c.message;
  EXPECT_NE(c.message.find("last timed call on input set 1"), std::string::npos) << c.message;
}

TEST_F(TimedCase, CatchesACallWhoseFingerprintDiffersFromTheVerifiedOutput) {
  m_rec.checks.insert(m_rec.checks.begin() + 2, {0, 1.0, 1.0, 0, 0, false});
  const auto c = verify();
  EXPECT_EQ(c.verdict, timed_verdict::wrong);
  EXPECT_NE(c.message.find("timed call 3 on input set 0"), std::string::npos) << c.message;
}

TEST_F(TimedCase, ReportsAFaultAndMissingEvidence) {
  auto faulty = m_rec;
  faulty.stop_reason = "fault";
  faulty.note = "illegal_address during a timed call";
  EXPECT_EQ(verify_timed_case(m_p, m_tc, sets, faulty, m_dir, {}).verdict, timed_verdict::fault);
  fs::remove(m_dir / protocol::timed_output_file_name(0, 1, protocol::output_role::first));
  EXPECT_EQ(verify().verdict, timed_verdict::incomplete);
}

} // namespace
} // namespace cugrade::perf
