// The runtime names kept on disk between gradings (grader/build/detail/runtime_names_cache.h):
// used only while every library they were read from is unchanged, never when the file is
// malformed, and the same set as a fresh reading.

#include "grader/build/detail/runtime_names_cache.h"
#include "tests/build/build_fixture.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <unistd.h>

namespace cugrade::build {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() /
                       ("cugrade-runtime-names-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
}

// A scratch folder with one fake library and the names stored for it.
struct stored_names {
  fs::path dir;
  fs::path library;
  fs::path file;
};

stored_names store_one(const std::string& name, const std::string& library_text,
                       const name_set& names) {
  stored_names s{scratch(name), {}, {}};
  s.library = s.dir / "libfake.so";
  s.file = s.dir / "names.txt";
  write(s.library, library_text);
  detail::store_runtime_names(s.file, {s.library}, names);
  return s;
}

// The one file in `dir`, or an empty path (which no load accepts) when there are none or more.
fs::path only_file(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    files.push_back(entry.path());
  }
  return files.size() == 1 ? files.front() : fs::path();
}

toolchain emulation_tools(const fs::path& cache_dir) {
  toolchain tools;
  tools.emu_include_dir = CUGRADE_TEST_EMU_INCLUDE_DIR;
  tools.emu_lib_dir = CUGRADE_TEST_EMU_LIB_DIR;
  tools.cache_dir = cache_dir;
  return tools;
}

TEST(RuntimeNamesCache, StoredNamesComeBackWhileTheLibrariesAreUnchanged) {
  const auto s = store_one("stored", "not really a library", {"malloc", "cudaMalloc", "printf"});
  const auto kept = detail::load_runtime_names(s.file);
  ASSERT_TRUE(kept.has_value());
  EXPECT_EQ(*kept, (name_set{"malloc", "cudaMalloc", "printf"}));
  fs::remove_all(s.dir);
}

TEST(RuntimeNamesCache, AChangedOrMissingLibraryMakesThemStale) {
  const auto [dir, library, file] = store_one("stale", "version one", {"malloc"});
  ASSERT_TRUE(detail::load_runtime_names(file).has_value());
  write(library, "version two, longer"); // another size
  EXPECT_FALSE(detail::load_runtime_names(file).has_value());
  detail::store_runtime_names(file, {library}, {"malloc"});
  ASSERT_TRUE(detail::load_runtime_names(file).has_value());
  // The same size, a new modification time.
  fs::last_write_time(library, fs::last_write_time(library) + std::chrono::seconds(5));
  EXPECT_FALSE(detail::load_runtime_names(file).has_value());
  detail::store_runtime_names(file, {library}, {"malloc"});
  fs::remove(library);
  EXPECT_FALSE(detail::load_runtime_names(file).has_value());
  fs::remove_all(dir);
}

TEST(RuntimeNamesCache, StoringRemovesTheFilesOfLibrariesThatAreGone) {
  const auto dir = scratch("gone");
  const fs::path kept_library = dir / "libkept.so";
  const fs::path gone_library = dir / "libgone.so";
  write(kept_library, "stays");
  write(gone_library, "removed with its installation");
  fs::create_directories(dir / "names");
  detail::store_runtime_names(dir / "names" / "kept.txt", {kept_library}, {"malloc"});
  detail::store_runtime_names(dir / "names" / "gone.txt", {gone_library}, {"malloc"});
  fs::remove(gone_library);
  detail::store_runtime_names(dir / "names" / "new.txt", {kept_library}, {"free"});
  EXPECT_TRUE(fs::exists(dir / "names" / "kept.txt"));
  EXPECT_FALSE(fs::exists(dir / "names" / "gone.txt"));
  EXPECT_TRUE(detail::load_runtime_names(dir / "names" / "new.txt").has_value());
  fs::remove_all(dir);
}

TEST(RuntimeNamesCache, AMalformedFileIsNotTrusted) {
  const auto [dir, library, file] = store_one("malformed", "a library", {"malloc"});
  std::ifstream in(file);
  const std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_TRUE(detail::load_runtime_names(file).has_value());
  for (const std::string& bad :
       {std::string(), std::string("cugrade-runtime-names/0") + good.substr(good.find('\n')),
        good.substr(0, good.find("--")),                       // no names
        good.substr(0, good.find('\n') + 1) + "--\nmalloc\n",  // no library listed
        good.substr(0, good.find('\t')) + "\n--\nmalloc\n"}) { // a library without its stamp
    write(file, bad);
    EXPECT_FALSE(detail::load_runtime_names(file).has_value()) << bad;
  }
  EXPECT_FALSE(detail::load_runtime_names(dir / "absent.txt").has_value());
  fs::remove_all(dir);
}

TEST(RuntimeNamesCache, TheFileIsNamedAfterTheCompilerAndTheKey) {
  const fs::path cache = "/cache";
  const auto a = detail::runtime_names_file(cache, "emu\ng++\n/lib", "g++");
  EXPECT_EQ(a.parent_path(), cache / "runtime-names");
  EXPECT_EQ(a, detail::runtime_names_file(cache, "emu\ng++\n/lib", "g++"));
  EXPECT_NE(a, detail::runtime_names_file(cache, "gpu\ng++\n/cuda", "g++"));
  EXPECT_NE(a, detail::runtime_names_file(cache, "emu\ng++\n/lib", "/usr/bin/gcc"));
}

// The whole path: the first call reads the libraries and keeps the names; the file then holds
// exactly what a reading gives.
TEST(RuntimeNamesCache, RuntimeNamesKeepsWhatItReadInTheCacheFolder) {
  const auto dir = scratch("end-to-end");
  const toolchain tools = emulation_tools(dir);
  const auto names = runtime_names(tools, backend::emu);
  ASSERT_TRUE(names.ok()) << names.error();
  EXPECT_TRUE((*names)->contains("malloc"));
  const auto stored = detail::load_runtime_names(only_file(dir / "runtime-names"));
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(*stored, **names);
  fs::remove_all(dir);
}

// The GPU backend's names (libcudart among the libraries) go through the same file: what a GPU
// grading reserves is what a fresh reading gives. Needs the CUDA toolkit, not a GPU.
TEST(RuntimeNamesCache, TheGpuBackendsNamesAreKeptAlike) {
  const auto nvcc = find_nvcc();
  if (!nvcc) {
    GTEST_SKIP() << "nvcc not found ($CUDACXX, /usr/local/cuda/bin/nvcc, PATH): the CUDA toolkit "
                    "is needed to read libcudart's names";
  }
  const auto dir = scratch("gpu");
  toolchain tools = emulation_tools(dir);
  tools.nvcc = *nvcc;
  const auto names = runtime_names(tools, backend::gpu);
  ASSERT_TRUE(names.ok()) << names.error();
  EXPECT_TRUE((*names)->contains("cudaMalloc"));
  const auto stored = detail::load_runtime_names(only_file(dir / "runtime-names"));
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(*stored, **names);
  fs::remove_all(dir);
}

} // namespace
} // namespace cugrade::build
