// The bwrap command line as data: namespaces, the unprivileged uid, a minimal read-only view,
// device nodes only for GPU runners, masked files, mount order.

#include "grader/sandbox/detail/bwrap_args.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace cugrade::sandbox::detail {
namespace {

using words = std::vector<std::string>;

bool contains(const words& argv, const words& run) {
  return std::search(argv.begin(), argv.end(), run.begin(), run.end()) != argv.end();
}

bwrap_call call_for(role kind) {
  bwrap_call call;
  call.bwrap = "/usr/bin/bwrap";
  call.view.kind = kind;
  call.view.read_only = {"/srv/course/sub"};
  call.view.writable = {"/srv/course/sub/work"};
  call.view.masked = {"/srv/course/sub/work/events.jsonl"};
  call.env = {{"PATH", "/usr/bin"}};
  call.working_dir = "/srv/course/sub/work";
  call.seccomp_fd = 7;
  return call;
}

TEST(BwrapArgs, UnsharesEverythingAndDropsToNobody) {
  const words argv = bwrap_argv(call_for(role::runner));
  EXPECT_EQ(argv.front(), "/usr/bin/bwrap");
  EXPECT_EQ(argv.back(), "--");
  for (const char* option : {"--unshare-all", "--unshare-user", "--disable-userns",
                             "--die-with-parent", "--new-session", "--clearenv"}) {
    EXPECT_TRUE(contains(argv, {option})) << option;
  }
  EXPECT_TRUE(contains(argv, {"--uid", "65534", "--gid", "65534"}));
  EXPECT_TRUE(contains(argv, {"--cap-drop", "ALL"}));
  EXPECT_TRUE(contains(argv, {"--seccomp", "7"}));
  EXPECT_TRUE(contains(argv, {"--chdir", "/srv/course/sub/work"}));
  EXPECT_TRUE(contains(argv, {"--setenv", "PATH", "/usr/bin"}));
}

TEST(BwrapArgs, ShowsOnlyTheToolchainAndTheNamedPaths) {
  const words argv = bwrap_argv(call_for(role::compiler));
  EXPECT_TRUE(contains(argv, {"--ro-bind", "/usr", "/usr"}));
  EXPECT_TRUE(contains(argv, {"--ro-bind-try", "/srv/course/sub", "/srv/course/sub"}));
  EXPECT_TRUE(contains(argv, {"--bind", "/srv/course/sub/work", "/srv/course/sub/work"}));
  EXPECT_TRUE(contains(argv, {"--ro-bind", "/dev/null", "/srv/course/sub/work/events.jsonl"}));
  EXPECT_TRUE(contains(argv, {"--tmpfs", "/tmp"}));
  // Nothing of the host's home, configuration or devices.
  for (const char* host : {"/home", "/root", "/etc", "/etc/passwd", "/var", "/sys"}) {
    EXPECT_FALSE(contains(argv, {"--ro-bind", host, host})) << host;
    EXPECT_FALSE(contains(argv, {"--bind", host, host})) << host;
    EXPECT_FALSE(contains(argv, {"--ro-bind-try", host, host})) << host;
  }
  EXPECT_FALSE(contains(argv, {"--dev-bind-try", "/dev/nvidiactl", "/dev/nvidiactl"}));
}

TEST(BwrapArgs, WritableChildMountsAfterItsReadOnlyParent) {
  const words argv = bwrap_argv(call_for(role::compiler));
  const words parent_mount{"--ro-bind-try", "/srv/course/sub", "/srv/course/sub"};
  const auto parent =
      std::search(argv.begin(), argv.end(), parent_mount.begin(), parent_mount.end());
  const auto child = std::find(argv.begin(), argv.end(), "/srv/course/sub/work");
  const auto mask = std::find(argv.begin(), argv.end(), "/srv/course/sub/work/events.jsonl");
  ASSERT_NE(parent, argv.end());
  EXPECT_LT(parent - argv.begin(), child - argv.begin());
  EXPECT_LT(child - argv.begin(), mask - argv.begin());
}

TEST(BwrapArgs, GpuRunnersGetExactlyTheirDeviceNodesAndSysReadOnly) {
  auto call = call_for(role::gpu_runner);
  call.view.gpu_index = 3;
  const words argv = bwrap_argv(call);
  for (const char* node :
       {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia3"}) {
    EXPECT_TRUE(contains(argv, {"--dev-bind-try", node, node})) << node;
  }
  EXPECT_FALSE(contains(argv, {"--dev-bind-try", "/dev/nvidia0", "/dev/nvidia0"}));
  EXPECT_TRUE(contains(argv, {"--dev", "/dev"}));
  EXPECT_TRUE(contains(argv, {"--ro-bind", "/sys", "/sys"}));
}

TEST(BwrapArgs, PathsUnderUsrAreAlreadyVisibleAndNeverBoundAgain) {
  auto call = call_for(role::compiler);
  call.view.read_only = {"/usr/local/cuda", "/usr/lib/x86_64-linux-gnu"};
  const words argv = bwrap_argv(call);
  for (const char* path : {"/usr/local/cuda", "/usr/lib/x86_64-linux-gnu"}) {
    EXPECT_EQ(std::count(argv.begin(), argv.end(), path), 0) << path;
  }
}

TEST(BwrapArgs, MountOrderPutsParentsFirst) {
  const auto order = mount_order({"/a/b/c", "/a", "/a/b"});
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order[0], "/a");
  EXPECT_EQ(order[1], "/a/b");
  EXPECT_EQ(order[2], "/a/b/c");
}

} // namespace
} // namespace cugrade::sandbox::detail
