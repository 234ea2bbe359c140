#include "grader/build/forbidden_uses.h"

#include <gtest/gtest.h>

using namespace cugrade::build;

namespace {

const student_source source{"scan.cu", R"(#include <cstdio>
#include <fstream>
#include <future>
extern "C" void scan(const float* input, long n, float* output) {
  if (FILE* f = std::fopen("x", "r")) { std::fclose(f); }
  std::ofstream log("y");
  auto start = std::chrono::steady_clock::now();
  worker.join();
}
)",
                            "scan.emu.cpp"};

inline_chain at(int line) {
  return {{"/usr/include/c++/12/bits/inlined.h", 100}, {"/work/sub/scan.cu", line}};
}

policy_violation uses(std::string symbol, std::string reason) {
  return {std::move(symbol), false, std::move(reason)};
}

} // namespace

TEST(ForbiddenUses, TheWordsOfASymbolAreWhatAStudentWrites) {
  EXPECT_EQ(source_words("fopen"), std::vector<std::string>{"fopen"});
  EXPECT_EQ(source_words("_ZNSt6chrono3_V212steady_clock3nowEv"),
            (std::vector<std::string>{"now", "steady_clock", "chrono"}));
  EXPECT_EQ(source_words("_ZNSt14basic_ofstreamIcSt11char_traitsIcEED1Ev"),
            (std::vector<std::string>{"basic_ofstream", "ofstream"}));
  EXPECT_EQ(source_words("_ZTVSt14basic_ofstreamIcSt11char_traitsIcEE"),
            (std::vector<std::string>{"basic_ofstream", "ofstream"}));
  EXPECT_EQ(source_words("_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_"
                         "deleteIS1_EEPFvvE"),
            std::vector<std::string>{"thread"});
  EXPECT_EQ(source_words("_ZSt16__ostream_insertIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_"
                         "PKS3_l"),
            std::vector<std::string>{});
}

TEST(ForbiddenUses, TheCallIsQuotedWithTheNamesItIsQualifiedBy) {
  EXPECT_EQ(call_as_written("  FILE* f = std::fopen(\"x\", \"r\");", {"fopen"}), "std::fopen");
  EXPECT_EQ(call_as_written("  worker.join();", {"join", "thread"}), "worker.join");
  EXPECT_EQ(call_as_written("  pool->join();", {"join"}), "pool->join");
  EXPECT_EQ(call_as_written("  auto t = std::chrono::steady_clock::now();", {"now"}),
            "std::chrono::steady_clock::now");
  EXPECT_EQ(call_as_written("  std::ofstream log(\"y\");", {"basic_ofstream", "ofstream"}),
            "std::ofstream");
  EXPECT_EQ(call_as_written("  my_fopen(x); fopen_s(y);", {"fopen"}), "");
  EXPECT_EQ(call_as_written("}", {"basic_ofstream", "ofstream"}), "");
}

TEST(ForbiddenUses, NamesEachCallAtTheStudentsLineInSourceOrder) {
  violation_places places;
  places.references["fopen"] = {at(5)};
  places.references["fclose"] = {at(5)};
  places.references["_ZNSt13basic_filebufIcSt11char_traitsIcEE4openEPKcSt13_Ios_Openmode"] = {
      at(6)};
  // The destructor runs at the closing brace, which says nothing: the call at 6 is enough.
  places.references["_ZNSt14basic_ofstreamIcSt11char_traitsIcEED1Ev"] = {at(9)};
  places.references["_ZNSt6chrono3_V212steady_clock3nowEv"] = {{{"scan.emu.cpp", 7}}};
  const std::vector<policy_violation> violations{
      uses("_ZNSt13basic_filebufIcSt11char_traitsIcEE4openEPKcSt13_Ios_Openmode",
           "files are not allowed"),
      uses("_ZNSt14basic_ofstreamIcSt11char_traitsIcEED1Ev", "files are not allowed"),
      uses("_ZNSt6chrono3_V212steady_clock3nowEv", "clocks and timing are not allowed"),
      uses("fclose", "files are not allowed"), uses("fopen", "files are not allowed")};
  EXPECT_EQ(
      describe_violations(violations, places, source),
      (std::vector<std::string>{
          "std::fclose at scan.cu:5 (files are not allowed)",
          "std::fopen at scan.cu:5 (files are not allowed)",
          "`std::ofstream log(\"y\");` at scan.cu:6 (files are not allowed)",
          "std::chrono::steady_clock::now at scan.cu:7 (clocks and timing are not allowed)"}));
  EXPECT_TRUE(headers_to_place(violations, places, source).empty());
}

TEST(ForbiddenUses, ACallOnlyInLibraryCodeIsNamedByTheStudentsInclude) {
  violation_places places;
  places.references["_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_"
                    "deleteIS1_EEPFvvE"] = {{{"/usr/include/c++/12/bits/std_thread.h", 142}}};
  const std::vector<policy_violation> violations{
      uses("_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE",
           "threads are not allowed"),
      uses("_ZTINSt6thread6_StateE", "threads are not allowed")}; // only in data: no chain
  EXPECT_EQ(headers_to_place(violations, places, source),
            std::set<std::string>{"/usr/include/c++/12/bits/std_thread.h"});
  // Without the preprocessor's answer, the readable names are all there is.
  EXPECT_EQ(describe_violations(violations, places, source),
            std::vector<std::string>{"std::thread (threads are not allowed)"});
  places.include_lines["/usr/include/c++/12/bits/std_thread.h"] = 3;
  EXPECT_EQ(describe_violations(violations, places, source),
            std::vector<std::string>{"`#include <future>` at scan.cu:3 (threads are not allowed)"});
}

TEST(ForbiddenUses, DefinitionsAreNamedAtTheirLine) {
  violation_places places;
  places.definitions["malloc"] = {"/work/sub/scan.cu", 4};
  places.definitions["main"] = {"/usr/include/elsewhere.h", 1};
  const std::vector<policy_violation> violations{
      {"main", true, "which the grader owns"},
      {"malloc", true, "which the runtime already defines"}};
  EXPECT_EQ(describe_violations(violations, places, source),
            (std::vector<std::string>{"defines main, which the grader owns",
                                      "defines malloc at scan.cu:4, which the runtime already "
                                      "defines"}));
}

TEST(ForbiddenUses, ACallRepeatedOftenIsNamedAFewTimes) {
  student_source repeated{"scan.cu", "", ""};
  violation_places places;
  for (int line = 1; line <= 9; ++line) {
    repeated.text += "  std::fopen(name, mode);\n";
    places.references["fopen"].push_back(at(line));
  }
  EXPECT_EQ(describe_violations({uses("fopen", "files are not allowed")}, places, repeated, 2),
            (std::vector<std::string>{"std::fopen at scan.cu:1 (files are not allowed)",
                                      "std::fopen at scan.cu:2 (files are not allowed)"}));
}
