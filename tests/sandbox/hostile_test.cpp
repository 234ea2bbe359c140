// The adversarial suite: each folder under tests/sandbox/hostile is a correct reduction plus one
// attack (expect.json: the verdict it must get and the harm that must not happen). Each is graded
// by the real cugrade in emulation, confined; then the harm is looked for on the host, and the
// reference (an honest submission) must still grade with full marks.

#include "grader/process/process_table.h"
#include "tests/e2e/e2e_support.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>
#include <thread>

namespace cugrade::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path arena = "/tmp/cugrade-hostile"; // the paths the attacks aim at

fs::path hostile_dir() {
  return source_root() / "tests" / "sandbox" / "hostile";
}
constexpr int listener_port = 47613;
const char* const victim_text = "// another student's reduction.cu\n";

std::string random_token(const std::string& prefix) {
  std::random_device device;
  return prefix + std::to_string(device()) + std::to_string(device());
}

// A TCP listener on 127.0.0.1:listener_port that remembers whether anyone connected.
class listener {
public:
  listener() {
    m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    const int yes = 1;
    ::setsockopt(m_fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(listener_port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    m_ok = ::bind(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
           ::listen(m_fd, 16) == 0;
  }
  ~listener() { ::close(m_fd); }
  listener(const listener&) = delete;
  listener& operator=(const listener&) = delete;
  [[nodiscard]] bool ok() const { return m_ok; }
  [[nodiscard]] bool saw_connection() const { return ::accept(m_fd, nullptr, nullptr) >= 0; }

private:
  int m_fd = -1;
  bool m_ok = false;
};

// Processes of this build's runners (or a bwrap binding this build) that descend from this test:
// none may outlive a grading. The test process is a child subreaper (Hostile::SetUp), so whatever
// a grading leaves running, however it detached itself, is reparented to it and counted here;
// the runners of other tests that ctest runs beside this one, and other checkouts' on a shared
// machine, are not ours to count.
std::vector<std::string> surviving_runners() {
  const char* binary = std::getenv("CUGRADE_BINARY"); // a device bundle's, as run_cugrade uses
  const std::string build_bin =
      fs::path(binary != nullptr && *binary != '\0' ? binary : CUGRADE_BINARY)
          .parent_path()
          .string();
  std::vector<std::string> found;
  for (const pid_t pid : process::running_pids()) {
    auto line = process::command_line(pid);
    if (pid == ::getpid() || !line || !process::descends_from(pid, ::getpid())) {
      continue;
    }
    std::string cmdline = *line;
    const std::string program = cmdline.substr(0, cmdline.find('\0'));
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    // By the program run (argv[0]), not by words in a command line: a compiler building this
    // very test has "bwrap" and the build folder in its arguments.
    const bool runner = program.rfind(build_bin + "/cugrade-runner", 0) == 0;
    const bool sandbox =
        process::program_name(*line) == "bwrap" && cmdline.find(build_bin) != std::string::npos;
    if (runner || sandbox) {
      found.push_back(std::to_string(pid) + ": " + cmdline);
    }
  }
  return found;
}

struct graded {
  cli_result cli;
  json report;
  std::string everything; // stdout, stderr and every file written
};

// emu in CI; CUGRADE_HOSTILE_BACKEND=gpu runs the same suite on a GPU machine.
std::string backend() {
  const char* chosen = std::getenv("CUGRADE_HOSTILE_BACKEND");
  return chosen != nullptr && *chosen != '\0' ? chosen : "emu";
}

graded grade(const fs::path& submission, const std::string& kernel, const fs::path& out) {
  graded g;
  g.cli = run_cugrade({"grade", "reduction", submission.string(), "--backend", backend(), "--out",
                       out.string(), "--student", "s", "--kernel", kernel});
  g.report = read_json(out / "s.json");
  g.everything = g.cli.out + g.cli.err;
  for (const auto& file : fs::recursive_directory_iterator(out)) {
    if (file.is_regular_file()) {
      g.everything += text_of(file.path());
    }
  }
  return g;
}

class Hostile : public testing::TestWithParam<std::string> {
protected:
  void SetUp() override {
    ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0) << "cannot become a child subreaper";
    fs::remove_all(arena);
    fs::create_directories(arena / "victim");
    m_secret = random_token("CUGRADE-SECRET-");
    std::ofstream(arena / "secret.txt") << m_secret << "\n";
    std::ofstream(arena / "victim" / "reduction.cu") << victim_text;
    m_env_token = random_token("CUGRADE-ENV-");
    ::setenv("CUGRADE_HOSTILE_TOKEN", m_env_token.c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("CUGRADE_HOSTILE_TOKEN");
    fs::remove_all(arena);
  }
  std::string m_secret;
  std::string m_env_token;
};

void expect_no_harm(const std::string& harm, const graded& g, const listener& port,
                    const std::string& secret, const std::string& env_token) {
  if (harm == "secret") {
    EXPECT_EQ(g.everything.find(secret), std::string::npos) << "the secret leaked";
  } else if (harm == "passwd") {
    EXPECT_EQ(g.everything.find("root:x:0:0"), std::string::npos) << "/etc/passwd leaked";
  } else if (harm == "outside") {
    EXPECT_FALSE(fs::exists(arena / "outside.txt")) << "a file was written outside";
  } else if (harm == "victim") {
    EXPECT_EQ(text_of(arena / "victim" / "reduction.cu"), victim_text);
  } else if (harm == "listener") {
    EXPECT_FALSE(port.saw_connection()) << "the listener on 127.0.0.1 got a connection";
  } else if (harm == "survivor") {
    EXPECT_TRUE(surviving_runners().empty()) << testing::PrintToString(surviving_runners());
  } else if (harm == "spec") {
    // A size only reduction's hidden.json holds.
    EXPECT_EQ(g.everything.find("3000017"), std::string::npos)
        << "the hidden tests of the spec leaked";
  } else if (harm == "environment") {
    EXPECT_EQ(g.everything.find(env_token), std::string::npos) << "the environment leaked";
  } else if (harm == "forged_device") {
    EXPECT_EQ(g.everything.find("FORGED-DEVICE-NAME"), std::string::npos);
  } else if (harm == "small_report") {
    EXPECT_LT(g.everything.size(), std::size_t{4} << 20) << "the flood reached the reports";
  } else {
    ADD_FAILURE() << "expect.json names an unknown harm \"" << harm << "\"";
  }
}

TEST_P(Hostile, GetsItsVerdictAndDoesNoHarm) {
  const fs::path fixture = hostile_dir() / GetParam();
  const json expect = read_json(fixture / "expect.json");
  ASSERT_TRUE(expect.is_object());
  const std::string kernel = expect.at("kernel");
  listener port;
  ASSERT_TRUE(port.ok()) << "cannot listen on 127.0.0.1:" << listener_port;
  const auto out = fresh_dir("hostile-" + GetParam());
  const graded g = grade(fixture, kernel, out);
  // The grader outlived the attack: it wrote a gradable report and exited 0.
  ASSERT_EQ(g.cli.exit_code, 0) << g.cli.err.substr(0, 4000);
  ASSERT_TRUE(g.report.is_object());
  EXPECT_TRUE(g.report.at("gradable").get<bool>());
  EXPECT_EQ(g.report.at("environment").at("sandbox").get<std::string>().rfind("bubblewrap", 0), 0u);
  const json k = kernel_named(g.report, kernel);
  const std::string status = k.value("status", "");
  // On the GPU the sanitizer stage adds a process the attack can reach (compute-sanitizer is
  // the runner's parent there): "gpu_status" and "gpu_error_kind" say what it earns then.
  const bool on_gpu = backend() == "gpu";
  const std::string allowed =
      on_gpu && expect.contains("gpu_status") ? expect.at("gpu_status") : expect.at("status");
  EXPECT_NE(("|" + allowed + "|").find("|" + status + "|"), std::string::npos)
      << "status " << status << ", expected " << allowed << "\n"
      << k.dump(2).substr(0, 3000) << "\nbuild log: " << g.report.at("build").dump();
  const std::string kind_field =
      on_gpu && expect.contains("gpu_error_kind") ? "gpu_error_kind" : "error_kind";
  if (expect.contains(kind_field)) {
    EXPECT_EQ(k.value("error_kind", ""), expect.at(kind_field).get<std::string>())
        << k.dump(2).substr(0, 3000);
  }
  // Nothing of the run may be left: harms that need time (a daemon) get a moment first.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  for (const auto& harm : expect.at("harm")) {
    expect_no_harm(harm.get<std::string>(), g, port, m_secret, m_env_token);
  }
  EXPECT_TRUE(surviving_runners().empty()) << testing::PrintToString(surviving_runners());
  // The next, honest submission still grades correctly.
  const auto honest_out = fresh_dir("hostile-honest-" + GetParam());
  const graded honest = grade(source_root() / "reference", kernel, honest_out);
  ASSERT_EQ(honest.cli.exit_code, 0) << honest.cli.err.substr(0, 4000);
  EXPECT_EQ(kernel_named(honest.report, kernel).value("status", ""), "passed");
  fs::remove_all(out);
  fs::remove_all(honest_out);
}

std::vector<std::string> hostile_names() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(hostile_dir())) {
    if (fs::exists(entry.path() / "expect.json")) {
      names.push_back(entry.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Sandbox, Hostile, testing::ValuesIn(hostile_names()),
                         [](const auto& param_info) { return param_info.param; });

TEST(HostileSuite, HasAtLeastFifteenAttacks) {
  EXPECT_GE(hostile_names().size(), 15u);
}

// A memory hog and an honest runner of the same submission's grading side by side: the hog is
// stopped by its own ceiling and the honest grading passes.
TEST(HostileNeighbours, AHogBesideAnHonestRunnerLeavesItAlone) {
  const auto hog_out = fresh_dir("hostile-hog");
  const auto honest_out = fresh_dir("hostile-beside-hog");
  graded hog;
  std::thread hog_thread(
      [&] { hog = grade(hostile_dir() / "memory_hog", "reduce_interleaved", hog_out); });
  const graded honest = grade(source_root() / "reference", "reduce_interleaved", honest_out);
  hog_thread.join();
  ASSERT_EQ(honest.cli.exit_code, 0) << honest.cli.err.substr(0, 4000);
  EXPECT_EQ(kernel_named(honest.report, "reduce_interleaved").value("status", ""), "passed");
  EXPECT_EQ(hog.cli.exit_code, 0) << hog.cli.err.substr(0, 4000);
  fs::remove_all(hog_out);
  fs::remove_all(honest_out);
}

// Without a working sandbox, grading refuses (exit 3, not gradable) unless --no-sandbox.
TEST(FailClosed, NoBubblewrapMeansNotGradableUnlessNoSandbox) {
  ::setenv("CUGRADE_BWRAP", "/nonexistent/bwrap", 1);
  const auto refused_out = fresh_dir("fail-closed");
  const auto refused = run_cugrade({"grade", "reduction", (source_root() / "reference").string(),
                                    "--backend", "emu", "--out", refused_out.string(), "--student",
                                    "s", "--kernel", "reduce_interleaved"});
  const auto open_out = fresh_dir("no-sandbox");
  const auto unconfined = run_cugrade({"grade", "reduction", (source_root() / "reference").string(),
                                       "--backend", "emu", "--out", open_out.string(), "--student",
                                       "s", "--kernel", "reduce_interleaved", "--no-sandbox"});
  const auto doctor = run_cugrade({"doctor"});
  ::unsetenv("CUGRADE_BWRAP");
  EXPECT_EQ(refused.exit_code, 3) << refused.err;
  EXPECT_NE(refused.err.find("the sandbox for student code does not work here"), std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("--no-sandbox"), std::string::npos) << refused.err;
  const json not_graded = read_json(refused_out / "s.json");
  ASSERT_TRUE(not_graded.is_object());
  EXPECT_FALSE(not_graded.at("gradable").get<bool>());
  EXPECT_EQ(not_graded.at("environment").at("sandbox"), "none");
  EXPECT_TRUE(kernel_named(not_graded, "reduce_interleaved").is_null() ||
              kernel_named(not_graded, "reduce_interleaved").value("status", "") != "passed");

  ASSERT_EQ(unconfined.exit_code, 0) << unconfined.err;
  const json graded_open = read_json(open_out / "s.json");
  EXPECT_EQ(graded_open.at("environment").at("sandbox"), "none");
  EXPECT_EQ(kernel_named(graded_open, "reduce_interleaved").value("status", ""), "passed");

  EXPECT_NE(doctor.out.find("missing  sandbox"), std::string::npos) << doctor.out;
  EXPECT_NE(doctor.out.find("fix: install bubblewrap"), std::string::npos) << doctor.out;
  fs::remove_all(refused_out);
  fs::remove_all(open_out);
}

// A batch refuses before grading anyone (exit 3), unless --no-sandbox.
TEST(FailClosed, NoBubblewrapMeansABatchRefusesUnlessNoSandbox) {
  const auto dir = fresh_dir("fail-closed-batch");
  const auto roster = dir / "roster.csv";
  std::ofstream(roster) << "student,repository\nref," << (source_root() / "reference").string()
                        << "\n";
  ::setenv("CUGRADE_BWRAP", "/nonexistent/bwrap", 1);
  const std::vector<std::string> batch{"batch", "reduction", roster.string(),     "--backend",
                                       "emu",   "--kernel",  "reduce_interleaved"};
  auto refused_args = batch;
  refused_args.insert(refused_args.end(), {"--out", (dir / "refused").string()});
  const auto refused = run_cugrade(refused_args);
  auto open_args = batch;
  open_args.insert(open_args.end(), {"--out", (dir / "open").string(), "--no-sandbox"});
  const auto unconfined = run_cugrade(open_args);
  ::unsetenv("CUGRADE_BWRAP");
  EXPECT_EQ(refused.exit_code, 3) << refused.err;
  EXPECT_NE(refused.err.find("the sandbox for student code does not work here"), std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("nothing was graded"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(dir / "refused" / "reports" / "ref.json"));
  ASSERT_EQ(unconfined.exit_code, 0) << unconfined.err;
  const json report = read_json(dir / "open" / "reports" / "ref.json");
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report.at("environment").at("sandbox"), "none");
  EXPECT_EQ(kernel_named(report, "reduce_interleaved").value("status", ""), "passed");
  fs::remove_all(dir);
}

TEST(FailClosed, DoctorSaysTheSandboxWorksHere) {
  const auto doctor = run_cugrade({"doctor"});
  EXPECT_NE(doctor.out.find("ok       sandbox: bubblewrap"), std::string::npos) << doctor.out;
}

} // namespace
} // namespace cugrade::e2e
