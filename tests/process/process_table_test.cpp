// The machine's processes as /proc lists them: the IDs, a process's command line, its program.
#include "grader/process/process_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

namespace cugrade::process {
namespace {

TEST(ProcessTable, ListsThisProcessAndItsCommandLine) {
  const auto pids = running_pids();
  EXPECT_NE(std::find(pids.begin(), pids.end(), ::getpid()), pids.end());
  EXPECT_NE(std::find(pids.begin(), pids.end(), 1), pids.end());
  const auto line = command_line(::getpid());
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(program_name(*line), "cugrade_process_tests");
  EXPECT_EQ(line->back(), '\0') << "each argument ends with a NUL";
}

TEST(ProcessTable, AProcessThatIsGoneHasNoCommandLine) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_FALSE(command_line(child).has_value());
  const auto pids = running_pids();
  EXPECT_EQ(std::find(pids.begin(), pids.end(), child), pids.end());
}

TEST(ProcessTable, AChildsParentIsThisProcessAndItDescendsFromIt) {
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const pid_t grandchild = ::fork();
    if (grandchild == 0) {
      ::pause();
      ::_exit(0);
    }
    const auto written = ::write(ready[1], &grandchild, sizeof grandchild);
    ::pause();
    ::_exit(written == sizeof grandchild ? 0 : 1);
  }
  pid_t grandchild = 0;
  ASSERT_EQ(::read(ready[0], &grandchild, sizeof grandchild), sizeof grandchild);
  EXPECT_EQ(parent_of(child), ::getpid());
  EXPECT_EQ(parent_of(grandchild), child);
  EXPECT_TRUE(descends_from(grandchild, ::getpid()));
  EXPECT_TRUE(descends_from(child, ::getpid()));
  EXPECT_FALSE(descends_from(::getpid(), child));
  EXPECT_FALSE(descends_from(child, grandchild));
  EXPECT_EQ(parent_of(::getpid()), ::getppid());
  ::kill(grandchild, SIGKILL);
  ::kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_FALSE(parent_of(child).has_value()) << "a reaped process has no parent";
  ::close(ready[0]);
  ::close(ready[1]);
}

TEST(ProcessTable, TheProgramIsTheFileNameOfTheFirstArgument) {
  using namespace std::string_literals;
  EXPECT_EQ(program_name("/usr/bin/bwrap\0--die-with-parent\0/tmp/x/bwrap\0"s), "bwrap");
  EXPECT_EQ(program_name("cugrade-runner-emu\0--plan\0"s), "cugrade-runner-emu");
  EXPECT_EQ(program_name(""), "");
}

} // namespace
} // namespace cugrade::process
