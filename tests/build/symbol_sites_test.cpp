#include "grader/build/symbol_sites.h"

#include "grader/process/process.h"
#include "grader/process/temp_dir.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace cugrade::build;

TEST(SymbolSites, ParsesPositions) {
  EXPECT_EQ(parse_position("/sub/scan.cu:42"), (source_position{"/sub/scan.cu", 42}));
  EXPECT_EQ(parse_position("/usr/include/c++/12/fstream:928 (discriminator 3)"),
            (source_position{"/usr/include/c++/12/fstream", 928}));
  EXPECT_EQ(parse_position("??:0"), (source_position{"??", 0}));
  EXPECT_EQ(parse_position("??:?"), (source_position{"??", 0}));
}

TEST(SymbolSites, KeepsTheRelocationsOfCodeSectionsOnly) {
  const auto relocations = parse_code_relocations(R"(
t.o:     file format elf64-x86-64

RELOCATION RECORDS FOR [.text]:
OFFSET           TYPE              VALUE
0000000000000038 R_X86_64_PLT32    fopen-0x0000000000000004
0000000000000003 R_X86_64_PC32     .LC0-0x0000000000000004

RELOCATION RECORDS FOR [.text._ZNSt6thread11_State_implD2Ev]:
OFFSET           TYPE              VALUE
000000000000000f R_X86_64_PLT32    _ZNSt6thread6_StateD2Ev-0x0000000000000004

RELOCATION RECORDS FOR [.data.rel.ro._ZTVN]:
OFFSET           TYPE              VALUE
0000000000000010 R_X86_64_64       _ZNSt6thread6_StateD2Ev
)");
  ASSERT_EQ(relocations.size(), 3u);
  EXPECT_EQ(relocations[0].section, ".text");
  EXPECT_EQ(relocations[0].offset, "0000000000000038");
  EXPECT_EQ(relocations[0].symbol, "fopen");
  EXPECT_EQ(relocations[1].symbol, ".LC0");
  EXPECT_EQ(relocations[2].section, ".text._ZNSt6thread11_State_implD2Ev");
  EXPECT_EQ(relocations[2].symbol, "_ZNSt6thread6_StateD2Ev");
}

TEST(SymbolSites, ReadsOneInlineChainPerAddress) {
  const auto chains = parse_inline_chains("0x0000000000000038\n/sub/t.cu:10\n"
                                          "0x0000000000000110\n/usr/include/c++/12/fstream:928\n"
                                          "/sub/t.cu:11\n0x0000000000000200\n??:0\n");
  ASSERT_EQ(chains.size(), 3u);
  EXPECT_EQ(chains[0], (inline_chain{{"/sub/t.cu", 10}}));
  EXPECT_EQ(chains[1], (inline_chain{{"/usr/include/c++/12/fstream", 928}, {"/sub/t.cu", 11}}));
  EXPECT_EQ(chains[2], (inline_chain{{"??", 0}}));
}

TEST(SymbolSites, PlacesTheCallsAndDefinitionsOfARealObject) {
  const cugrade::process::temp_dir dir("cugrade-symbol-sites");
  const auto source = dir.path() / "calls.cpp";
  std::ofstream(source) << "#include <cstdio>\n"
                           "#include <cstdlib>\n"
                           "extern \"C\" int helper() { return 1; }\n"
                           "extern \"C\" void launcher() {\n"
                           "  if (std::getenv(\"X\")) {\n"
                           "    std::system(\"true\");\n"
                           "  }\n"
                           "}\n";
  cugrade::process::spawn_options compile;
  compile.argv = {
      "g++", "-O2", "-g", "-c", source.string(), "-o", (dir.path() / "calls.o").string()};
  auto compiled = cugrade::process::run_process(compile);
  ASSERT_TRUE(compiled && compiled->succeeded()) << (compiled ? compiled->stderr_text : "");
  const auto object = dir.path() / "calls.o";
  const auto sites = reference_sites(object, {"getenv", "system", "puts"});
  ASSERT_TRUE(sites.ok()) << sites.error();
  ASSERT_EQ(sites->size(), 2u);
  EXPECT_EQ(sites->at("getenv").front().back(), (source_position{source.string(), 5}));
  EXPECT_EQ(sites->at("system").front().back(), (source_position{source.string(), 6}));
  const auto definitions = definition_sites(object, {"helper", "launcher"});
  ASSERT_TRUE(definitions.ok()) << definitions.error();
  EXPECT_EQ(definitions->at("helper"), (source_position{source.string(), 3}));
  EXPECT_EQ(definitions->at("launcher").line, 4);
}
