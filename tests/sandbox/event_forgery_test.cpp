// The runner's event log is untrusted input: forged, reordered or oversized lines make it
// "tampered" (no results believed), and the runner's writer notices lines it did not write.

#include "grader/process/temp_dir.h"
#include "harness/protocol/protocol.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <fstream>

namespace cugrade::protocol {
namespace {

namespace fs = std::filesystem;

const std::string start_line =
    R"({"event":"start","backend":"emu","device":"d","driver":"x","runtime":"y"})";
const std::string begin_line = R"({"event":"case_begin","case":0,"run":0})";
const std::string end_line =
    R"({"event":"case_end","case":0,"run":0,"completed":true,"error_kind":"","message":"",)"
    R"("canary_overwritten":false,"input_modified":false,"seconds":0.1,"output_file":"case-0-run-0.bin"})";
const std::string done_line = R"({"event":"done"})";

runner_log read_lines(const std::vector<std::string>& lines) {
  const process::temp_dir dir("events");
  {
    std::ofstream out(dir.path() / events_file_name);
    for (const auto& line : lines) {
      out << line << "\n";
    }
  }
  return read_events(dir.path() / events_file_name);
}

std::string honest_output_name() {
  return output_file_name(0, 0);
}

TEST(EventForgery, AnHonestLogIsBelieved) {
  ASSERT_EQ(honest_output_name(), "case-0-run-0.bin") << "update end_line to the protocol's name";
  const auto log = read_lines({start_line, begin_line, end_line, done_line});
  EXPECT_TRUE(log.tampering.empty()) << log.tampering;
  EXPECT_TRUE(log.finished);
  ASSERT_EQ(log.runs.size(), 1u);
}

TEST(EventForgery, LinesAfterDoneMakeTheLogTampered) {
  const auto log = read_lines({start_line, begin_line, end_line, done_line, end_line});
  EXPECT_FALSE(log.tampering.empty());
  EXPECT_EQ(log.fault_kind, cugrade::fault_kind::tampering);
  EXPECT_TRUE(log.runs.empty());
  EXPECT_FALSE(log.finished);
  EXPECT_EQ(log.open_case, std::size_t{0});
}

TEST(EventForgery, ASecondStartOrAnUnknownEventIsTampering) {
  EXPECT_FALSE(read_lines({start_line, start_line}).tampering.empty());
  EXPECT_FALSE(
      read_lines({start_line, R"({"event":"verdict","status":"passed"})"}).tampering.empty());
  EXPECT_FALSE(read_lines({begin_line, begin_line}).tampering.empty());
  EXPECT_FALSE(read_lines({start_line, R"({"event":"tampered"})"}).tampering.empty());
}

TEST(EventForgery, ACaseEndWithoutItsBeginIsTampering) {
  EXPECT_FALSE(read_lines({start_line, end_line, done_line}).tampering.empty());
}

TEST(EventForgery, OutputFilesAreOnlyTheProtocolsNames) {
  std::string escape = end_line;
  escape.replace(escape.find("case-0-run-0.bin"), 16, "../../../etc/shadow");
  EXPECT_FALSE(read_lines({start_line, begin_line, escape, done_line}).tampering.empty());
}

TEST(EventForgery, ErrorKindsAreProtocolWordsAndMessagesAreCapped) {
  std::string odd = end_line;
  odd.replace(odd.find(R"("error_kind":"")"), 15, R"("error_kind":"Passed!")");
  EXPECT_FALSE(read_lines({start_line, begin_line, odd, done_line}).tampering.empty());
  std::string chatty = end_line;
  chatty.replace(chatty.find(R"("message":"")"), 12,
                 R"("message":")" + std::string(100000, 'x') + "\"");
  const auto log = read_lines({start_line, begin_line, chatty, done_line});
  ASSERT_EQ(log.runs.size(), 1u) << log.tampering;
  EXPECT_LE(log.runs[0].message.size(), max_event_text + 10);
}

TEST(EventForgery, AGarbledLineInTheMiddleIsTamperingButATruncatedLastLineIsNot) {
  EXPECT_FALSE(read_lines({start_line, "{\"event\":\"case_", begin_line}).tampering.empty());
  const auto log = read_lines({start_line, begin_line, "{\"event\":\"case_e"});
  EXPECT_TRUE(log.tampering.empty());
  EXPECT_EQ(log.open_case, std::size_t{0});
}

TEST(EventForgery, ACaseBeginsTimeIsANumberOfSecondsOrTheLogIsTampered) {
  const auto log = read_lines({start_line, R"({"event":"case_begin","case":0,"run":0,"t":1.5})"});
  EXPECT_TRUE(log.tampering.empty()) << log.tampering;
  ASSERT_EQ(log.began_seconds.count(0), 1u);
  EXPECT_DOUBLE_EQ(log.began_seconds.at(0), 1.5);
  EXPECT_TRUE(read_lines({start_line, begin_line}).began_seconds.empty()); // an older runner
  for (const std::string t : {R"("soon")", "-1", "null"}) {
    SCOPED_TRACE(t);
    const auto bad =
        read_lines({start_line, R"({"event":"case_begin","case":0,"run":0,"t":)" + t + "}"});
    EXPECT_FALSE(bad.tampering.empty());
  }
}

TEST(EventWriter, EachCaseBeginCarriesTheRunnersClockAndTheFirstRunsIsKept) {
  const process::temp_dir dir("writer");
  const auto path = dir.path() / events_file_name;
  {
    event_writer writer(path);
    writer.started({"emu", "d", "x", "y", "", ""});
    run_record r;
    r.completed = true;
    writer.case_begin(0, 0);
    writer.case_end(r);
    ::usleep(20000);
    r.run = 1;
    writer.case_begin(0, 1);
    writer.case_end(r);
    writer.finished();
  }
  const auto log = read_events(path);
  ASSERT_TRUE(log.tampering.empty()) << log.tampering;
  ASSERT_EQ(log.began_seconds.count(0), 1u);
  EXPECT_GE(log.began_seconds.at(0), 0.0);
  EXPECT_LT(log.began_seconds.at(0), 0.02); // the first run's begin, not the second's
}

TEST(EventWriter, ACasesFirstBeginSaysWhereItsBuffersLie) {
  const process::temp_dir dir("writer");
  const auto path = dir.path() / events_file_name;
  const std::vector<buffer_place> places{{"M", 0x7f0000000000u, 1156}, {"P", 0x7f0000000600u, 68}};
  {
    event_writer writer(path);
    writer.started({"emu", "d", "x", "y", "", ""});
    run_record r;
    writer.case_begin(0, 0, places);
    writer.case_end(r);
    writer.finished();
  }
  const auto log = read_events(path);
  ASSERT_TRUE(log.tampering.empty()) << log.tampering;
  ASSERT_EQ(log.buffers.count(0), 1u);
  EXPECT_EQ(log.buffers.at(0), places);
}

// The places are as untrusted as the rest of the log: a malformed list is tampering, like any
// other bad field, and a name is capped.
TEST(EventForgery, ACaseBeginsBuffersAreAShortListOfNamedPlaces) {
  for (const std::string& bad : {std::string(R"("buffers":"M")"),
                                 std::string(R"("buffers":[{"name":"M","address":-1,"bytes":4}])"),
                                 std::string(R"("buffers":[{"name":7,"address":1,"bytes":4}])"),
                                 std::string(R"("buffers":[1,2,3,4,5,6,7,8,9])")}) {
    const auto log =
        read_lines({start_line, R"({"event":"case_begin","case":0,"run":0,)" + bad + "}", end_line,
                    done_line});
    EXPECT_FALSE(log.tampering.empty()) << bad;
  }
  const auto log = read_lines({start_line,
                               R"({"event":"case_begin","case":0,"run":0,"buffers":[{"name":")" +
                                   std::string(5000, 'x') + R"(","address":4096,"bytes":4}]})",
                               end_line, done_line});
  ASSERT_TRUE(log.tampering.empty()) << log.tampering;
  EXPECT_LT(log.buffers.at(0).at(0).name.size(), 5000u);
}

TEST(EventWriter, AFaultingRunCarriesTheHostMemoryTheRunnerCouldRead) {
  const process::temp_dir dir("writer");
  const auto path = dir.path() / events_file_name;
  run_record r;
  r.error_kind = cugrade::fault_kind::illegal_address;
  r.host_memory = {{0x55d0c0a00000u, 0x55d0c0a21000u}, {0x7ffc5e1e0000u, 0x7ffc5e201000u}};
  {
    event_writer writer(path);
    writer.started({"gpu", "d", "x", "y", "", ""});
    writer.case_begin(0, 0);
    writer.case_end(r);
    writer.finished();
  }
  const auto log = read_events(path);
  ASSERT_TRUE(log.tampering.empty()) << log.tampering;
  ASSERT_EQ(log.runs.size(), 1u);
  EXPECT_EQ(log.runs[0].host_memory, r.host_memory);
}

// As untrusted as the buffers: a range that is not two increasing addresses, or a list longer
// than any process's, is tampering.
TEST(EventForgery, HostMemoryIsAListOfIncreasingAddressPairs) {
  const std::string end_without_brace = end_line.substr(0, end_line.size() - 1);
  for (const std::string& bad :
       {std::string(R"("host_memory":"0x1000-0x2000")"), std::string(R"("host_memory":[[4096]])"),
        std::string(R"("host_memory":[[8192,4096]])"), std::string(R"("host_memory":[[-1,4096]])"),
        std::string(R"("host_memory":[["4096","8192"]])"), R"("host_memory":[)" + [] {
          std::string pairs;
          for (int i = 0; i < 4097; ++i) {
            pairs += (i == 0 ? "" : ",") + std::string("[1,2]");
          }
          return pairs;
        }() + "]"}) {
    const auto log =
        read_lines({start_line, begin_line, end_without_brace + "," + bad + "}", done_line});
    EXPECT_FALSE(log.tampering.empty()) << bad.substr(0, 60);
  }
  const auto log = read_lines(
      {start_line, begin_line, end_without_brace + R"(,"host_memory":[[4096,8192]]})", done_line});
  ASSERT_TRUE(log.tampering.empty()) << log.tampering;
  ASSERT_EQ(log.runs.size(), 1u);
  EXPECT_EQ(log.runs[0].host_memory, (std::vector<address_range>{{4096, 8192}}));
}

TEST(EventWriter, NoticesLinesItDidNotWrite) {
  const process::temp_dir dir("writer");
  const auto path = dir.path() / events_file_name;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
  ASSERT_GE(fd, 0);
  event_writer writer(fd);
  writer.started({"emu", "d", "x", "y", "", ""});
  EXPECT_TRUE(writer.intact());
  const std::string forged = done_line + "\n";
  ASSERT_EQ(::write(fd, forged.data(), forged.size()), static_cast<ssize_t>(forged.size()));
  EXPECT_FALSE(writer.intact());
}

TEST(EventWriter, RefusesADescriptorThatIsNotOpenOrNotEmpty) {
  EXPECT_ANY_THROW(event_writer(987));
  const process::temp_dir dir("writer");
  const auto path = dir.path() / events_file_name;
  std::ofstream(path) << "old\n";
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND);
  ASSERT_GE(fd, 0);
  EXPECT_ANY_THROW(event_writer{fd});
  ::close(fd);
}

} // namespace
} // namespace cugrade::protocol
