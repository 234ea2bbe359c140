// The symbol policy against what each supported host compiler really emits: objects compiled
// from toolchains/debug_output.cu and toolchains/forbidden_calls.cu by GCC 12 (Debian 12), GCC 13
// (Ubuntu 24.04, the GPU machines' nvcc host compiler), GCC 14 and clang 19 (Debian 13), with
// nvcc (gpu) and from the emulator's rewrite (emu), and the names libstdc++ exports on Debian 12
// and Ubuntu 24.04. CI has only Debian 12's compiler, so these are recorded: toolchains/README.md
// says how each file was made.

#include "grader/build/symbol_policy.h"
#include "grader/build/symbol_rules.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace cugrade::build;

namespace {

const std::filesystem::path data_dir = CUGRADE_TEST_TOOLCHAIN_DATA;
const std::vector<std::string> toolchains{"gcc-12", "gcc-13", "gcc-14", "clang-19"};
const std::vector<backend> backends{backend::gpu, backend::emu};

std::string recorded_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<symbol> recorded_object(const std::string& toolchain, backend target,
                                    const std::string& source_name) {
  const auto path = data_dir / (toolchain + "." + to_string(target) + "." + source_name + ".nm");
  EXPECT_TRUE(std::filesystem::is_regular_file(path)) << path << " is not recorded";
  return parse_nm_posix(recorded_text(path));
}

// The libstdc++ a toolchain's objects run with: Debian 12's for its GCC 12, GCC 14's (Ubuntu
// 24.04 ships it with GCC 13 as the default compiler; Debian 13 exports the same names) else.
std::set<std::string> runtime_exports(const std::string& toolchain) {
  const auto path = data_dir / (toolchain == "gcc-12" ? "libstdc++.debian-12.exports"
                                                      : "libstdc++.ubuntu-24.04.exports");
  std::set<std::string> names;
  std::istringstream lines(recorded_text(path));
  for (std::string name; std::getline(lines, name);) {
    names.insert(name);
  }
  EXPECT_GT(names.size(), 5000u) << path;
  return names;
}

std::string reason_of(const std::string& name) {
  return undefined_symbol_problem(name, backend::gpu).value_or("allowed");
}

} // namespace

TEST(ToolchainSymbols, DebugOutputIsAllowedFromEveryCompilerOnBothBackends) {
  for (const std::string& toolchain : toolchains) {
    for (const backend target : backends) {
      SCOPED_TRACE(toolchain + " " + to_string(target));
      const auto symbols = recorded_object(toolchain, target, "debug_output");
      ASSERT_GT(symbols.size(), 20u);
      const auto verdict = check_symbol_policy(symbols, {"matmul_naive"}, target, {});
      EXPECT_EQ(verdict.defined_launchers, std::vector<std::string>{"matmul_naive"});
      for (const policy_violation& v : verdict.violations) {
        ADD_FAILURE() << "forbidden: " << unlocated_description(v);
      }
    }
  }
}

TEST(ToolchainSymbols, GccFrom13OnReferencesTheStreamsInitialiser) {
  // Why issue 37 saw `forbidden` on Ubuntu 24.04: <iostream> references this from GCC 13 on.
  const auto references = [](const std::string& toolchain) {
    const auto symbols = recorded_object(toolchain, backend::gpu, "debug_output");
    return std::any_of(symbols.begin(), symbols.end(), [](const symbol& s) {
      return s.undefined() && s.name == "_ZSt21ios_base_library_initv";
    });
  };
  EXPECT_FALSE(references("gcc-12"));
  EXPECT_TRUE(references("gcc-13"));
  EXPECT_TRUE(references("gcc-14"));
  EXPECT_EQ(reason_of("_ZSt21ios_base_library_initv"), "allowed");
}

TEST(ToolchainSymbols, ForbiddenCallsAreRefusedFromEveryCompilerOnBothBackends) {
  const std::set<std::string> reasons{
      "files are not allowed",          "processes and signals are not allowed",
      "the environment is not allowed", "clocks and timing are not allowed",
      "threads are not allowed",        "streams, events and graphs are not allowed"};
  for (const std::string& toolchain : toolchains) {
    for (const backend target : backends) {
      SCOPED_TRACE(toolchain + " " + to_string(target));
      const auto verdict = check_symbol_policy(
          recorded_object(toolchain, target, "forbidden_calls"), {"matmul_naive"}, target, {});
      std::set<std::string> found;
      std::set<std::string> names;
      for (const policy_violation& v : verdict.violations) {
        found.insert(v.reason);
        names.insert(v.symbol);
      }
      EXPECT_EQ(found, reasons);
      for (const char* call : {"fopen", "fclose", "system", "getenv", "cudaStreamCreate"}) {
        EXPECT_TRUE(names.contains(call)) << call;
      }
    }
  }
}

TEST(ToolchainSymbols, EveryLibraryNameTheObjectsUseIsExportedByTheirLibstdcxx) {
  // The recorded lists belong together: what each compiler's objects reference from the C++
  // library is there in the library they run with.
  for (const std::string& toolchain : toolchains) {
    const auto exports = runtime_exports(toolchain);
    for (const backend target : backends) {
      for (const char* sample : {"debug_output", "forbidden_calls"}) {
        for (const symbol& s : recorded_object(toolchain, target, sample)) {
          const bool from_libstdcxx = s.undefined() && s.name.rfind("_ZNSt", 0) == 0;
          if (from_libstdcxx) {
            EXPECT_TRUE(exports.contains(s.name)) << toolchain << " " << sample << ": " << s.name;
          }
        }
      }
    }
  }
}

TEST(ToolchainSymbols, EveryExportOfAForbiddenFamilyIsRefusedForItsReason) {
  const std::vector<std::pair<std::string, std::string>> families{
      {"_ZNSt14basic_ofstream", "files are not allowed"},
      {"_ZNSt14basic_ifstream", "files are not allowed"},
      {"_ZNSt13basic_fstream", "files are not allowed"},
      {"_ZNSt13basic_filebuf", "files are not allowed"},
      {"_ZTVSt13basic_filebuf", "files are not allowed"},
      {"_ZNSt12__basic_file", "files are not allowed"},
      {"_ZNSt10filesystem", "files are not allowed"},
      {"_ZNKSt10filesystem", "files are not allowed"},
      {"_ZNSt6thread", "threads are not allowed"},
      {"_ZNSt6chrono", "clocks and timing are not allowed"}};
  for (const std::string toolchain : {"gcc-12", "gcc-14"}) {
    const auto exports = runtime_exports(toolchain);
    for (const auto& [prefix, reason] : families) {
      std::size_t members = 0;
      for (const std::string& name : exports) {
        if (name.rfind(prefix, 0) == 0) {
          ++members;
          EXPECT_EQ(reason_of(name), reason) << toolchain << ": " << name;
        }
      }
      EXPECT_GT(members, 0u) << toolchain << " exports nothing starting with " << prefix;
    }
  }
}

TEST(ToolchainSymbols, EveryExportOfTheStreamsDebugOutputUsesIsAllowed) {
  const std::vector<std::string> families{
      "_ZNSo",
      "_ZNSt9basic_iosIcSt11char_traitsIcEE",
      "_ZNSt15basic_streambufIcSt11char_traitsIcEE",
      "_ZNSt7__cxx1119basic_ostringstreamIcSt11char_traitsIcESaIcEE",
      "_ZNSt7__cxx1115basic_stringbufIcSt11char_traitsIcESaIcEE",
      "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE"};
  for (const std::string toolchain : {"gcc-12", "gcc-14"}) {
    const auto exports = runtime_exports(toolchain);
    for (const std::string& prefix : families) {
      std::size_t members = 0;
      for (const std::string& name : exports) {
        if (name.rfind(prefix, 0) == 0) {
          ++members;
          EXPECT_EQ(reason_of(name), "allowed") << toolchain << ": " << name;
        }
      }
      EXPECT_GT(members, 0u) << toolchain << " exports nothing starting with " << prefix;
    }
  }
}
