#include "grader/build/symbols.h"

#include "grader/process/process.h"
#include "grader/process/temp_dir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

using namespace cugrade::build;

TEST(Symbols, ParsesPosixFormatAndDropsVersions) {
  const auto symbols = parse_nm_posix("malloc@@GLIBC_2.2.5 T 98930 317\n"
                                      "fopen U\n"
                                      "garbage\n"
                                      "_Z3fooi W 10 4\n");
  ASSERT_EQ(symbols.size(), 3u);
  EXPECT_EQ(symbols[0].name, "malloc");
  EXPECT_TRUE(symbols[0].defined_global());
  EXPECT_TRUE(symbols[1].undefined());
  EXPECT_FALSE(symbols[1].defined_global());
  EXPECT_TRUE(symbols[2].weak());
  EXPECT_TRUE(symbols[2].defined_global());
}

TEST(Symbols, ReadsAnObjectCompiledByTheHostCompiler) {
  const cugrade::process::temp_dir dir("cugrade-test");
  std::ofstream(dir.path() / "probe.cpp")
      << "#include <cstdlib>\nextern \"C\" int probe() { return std::atoi(\"1\"); }\n"
         "static int hidden() { return 2; }\nint use_hidden() { return hidden(); }\n";
  cugrade::process::spawn_options compile;
  compile.argv = {"g++", "-c",
                  "-O0", (dir.path() / "probe.cpp").string(),
                  "-o",  (dir.path() / "probe.o").string()};
  const auto compiled = cugrade::process::run_process(compile);
  ASSERT_TRUE(compiled.ok() && compiled->succeeded()) << compiled->stderr_text;

  const auto symbols = object_symbols(dir.path() / "probe.o");
  ASSERT_TRUE(symbols.ok()) << symbols.error();
  const auto find = [&](const std::string& name) {
    return std::find_if(symbols->begin(), symbols->end(),
                        [&](const symbol& entry) { return entry.name == name; });
  };
  ASSERT_NE(find("probe"), symbols->end());
  EXPECT_TRUE(find("probe")->defined_global());
  ASSERT_NE(find("atoi"), symbols->end()) << "compiled at -O0, so atoi is called";
  EXPECT_TRUE(find("atoi")->undefined());
  ASSERT_NE(find("_Z10use_hiddenv"), symbols->end());
}

TEST(Symbols, SkipsTheFileHeadersOfARunOverSeveralFiles) {
  const auto symbols = parse_nm_posix("/usr/lib/a b/libm.so.6:\n"
                                      "cos T 10 4\n"
                                      "/usr/lib/libgcc_s.so.1:\n"
                                      "_Unwind_Resume T 20 8\n");
  ASSERT_EQ(symbols.size(), 2u);
  EXPECT_EQ(symbols[0].name, "cos");
  EXPECT_EQ(symbols[1].name, "_Unwind_Resume");
}

// The runtime libraries are read by one nm run: every library's exports, none missing.
TEST(Symbols, ReadsTheExportsOfSeveralRuntimeLibrariesAtOnce) {
  cugrade::process::spawn_options where;
  where.argv = {"g++", "-print-file-name=libm.so.6"};
  const auto libm = cugrade::process::run_process(where);
  ASSERT_TRUE(libm.ok() && libm->succeeded());
  where.argv = {"g++", "-print-file-name=libgcc_s.so.1"};
  const auto libgcc = cugrade::process::run_process(where);
  ASSERT_TRUE(libgcc.ok() && libgcc->succeeded());
  const auto first_line = [](const std::string& text) { return text.substr(0, text.find('\n')); };

  const auto symbols =
      runtime_exported_symbols({first_line(libm->stdout_text), first_line(libgcc->stdout_text)});
  ASSERT_TRUE(symbols.ok()) << symbols.error();
  const auto has = [&](const std::string& name) {
    return std::any_of(symbols->begin(), symbols->end(),
                       [&](const symbol& entry) { return entry.name == name; });
  };
  EXPECT_TRUE(has("cos"));            // libm
  EXPECT_TRUE(has("_Unwind_Resume")); // libgcc_s
  EXPECT_FALSE(runtime_exported_symbols({"/nonexistent/libcugrade.so"}).ok());
}

TEST(Symbols, MissingFileIsAFailure) {
  EXPECT_FALSE(object_symbols("/nonexistent/cugrade.o").ok());
}

TEST(Symbols, DemanglesOnlyMangledNames) {
  EXPECT_EQ(demangle("_Znwm"), "operator new(unsigned long)");
  EXPECT_EQ(demangle("fopen"), "fopen");
  EXPECT_EQ(demangle("_Znot_really"), "_Znot_really");
}
