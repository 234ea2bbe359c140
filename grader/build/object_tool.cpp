#include "grader/build/object_tool.h"

#include "grader/process/process.h"
#include "grader/sandbox/sandbox.h"

namespace cugrade::build {
namespace {

process::spawn_options tool_options(std::vector<std::string> argv) {
  process::spawn_options options;
  options.argv = std::move(argv);
  options.time_limit_seconds = 60;
  options.capture_limit_bytes = std::size_t{64} << 20; // a libstdc++ export table is ~1 MiB
  return options;
}

result<std::string> output_of(const process::spawn_options& options, const std::string& what) {
  auto run = process::run_process(options);
  if (!run) {
    return fail(run.error() + " (install binutils)");
  }
  if (!run->succeeded() || run->output_truncated) {
    return fail(options.argv.front() + " could not read " + what + ": " + run->stderr_text);
  }
  return std::move(run->stdout_text);
}

} // namespace

result<std::string> run_object_tool(std::vector<std::string> argv,
                                    const std::filesystem::path& object) {
  auto options = tool_options(std::move(argv));
  sandbox::profile view;
  view.kind = sandbox::role::tool;
  view.read_only = {std::filesystem::absolute(object).parent_path()};
  view.memory_bytes = std::size_t{1} << 30;
  auto box = sandbox::confine(view, options);
  if (!box) {
    return fail(box.error());
  }
  return output_of(options, object.string());
}

result<std::string> run_toolchain_tool(std::vector<std::string> argv, const std::string& what) {
  return output_of(tool_options(std::move(argv)), what);
}

} // namespace cugrade::build
