#include "grader/perf/roofline_cache.h"

#include "grader/process/process.h"
#include "grader/runners/run_context.h"
#include "harness/core/file_io.h"

namespace cugrade::perf {

namespace fs = std::filesystem;

namespace {

std::optional<roofline::device_roofline> read_cache(const fs::path& path) {
  const auto text = read_file(path);
  if (!text) {
    return std::nullopt;
  }
  auto r = roofline::from_json_text(*text);
  return r ? std::optional(std::move(*r)) : std::nullopt; // a damaged cache is measured again
}

std::vector<std::string> missing_keys(const std::optional<roofline::device_roofline>& cached,
                                      const std::vector<std::string>& keys) {
  std::vector<std::string> missing;
  for (const auto& k : keys) {
    if (!cached || cached->find(k) == nullptr) {
      missing.push_back(k);
    }
  }
  return missing;
}

result<roofline::device_roofline> measure(const fs::path& program,
                                          const std::vector<std::string>& keys, double limit,
                                          const runners::run_context& context) {
  process::spawn_options opts;
  opts.argv = {program.string()};
  for (const auto& k : keys) {
    opts.argv.push_back("--case");
    opts.argv.push_back(k);
  }
  opts.time_limit_seconds = limit;
  opts.env_add = runners::runner_environment(context); // the grading's GPU, one work queue
  const auto run = process::run_process(opts);
  if (!run) {
    return fail("cannot start " + program.string() + ": " + run.error());
  }
  if (!run->succeeded()) {
    return fail(program.filename().string() + " failed (" +
                (run->timed_out ? std::string("time limit")
                                : "status " + std::to_string(run->shell_status())) +
                "): " + run->stderr_text.substr(0, 2000));
  }
  auto r = roofline::from_json_text(run->stdout_text);
  if (!r) {
    return fail(program.filename().string() + " printed no roofline: " + r.error());
  }
  return r;
}

} // namespace

fs::path roofline_cache_path(const fs::path& cache_dir, std::string_view device) {
  return cache_dir / "roofline" / (roofline::sanitised_device_name(device) + ".json");
}

std::optional<roofline::device_roofline> cached_roofline(const fs::path& cache_dir,
                                                         std::string_view device,
                                                         const std::vector<std::string>& keys) {
  auto cached = read_cache(roofline_cache_path(cache_dir, device));
  if (!cached || cached->device != device || !missing_keys(cached, keys).empty()) {
    return std::nullopt;
  }
  return cached;
}

result<roofline::device_roofline> load_roofline(const fs::path& program, const fs::path& cache_dir,
                                                std::string_view device,
                                                const std::vector<std::string>& keys,
                                                double time_limit_seconds,
                                                const runners::run_context& context) {
  const auto path = roofline_cache_path(cache_dir, device);
  auto cached = read_cache(path);
  if (cached && cached->device != device) {
    cached.reset();
  }
  const auto missing = missing_keys(cached, keys);
  if (cached && missing.empty()) {
    return std::move(*cached);
  }
  auto fresh = measure(program, missing, time_limit_seconds, context);
  if (!fresh) {
    return fail(fresh.error());
  }
  roofline::device_roofline merged = cached ? std::move(*cached) : roofline::device_roofline{};
  roofline::merge(merged, *fresh);
  // The cache is an optimisation: a read-only cache folder costs a measurement next time.
  (void)write_file_atomically(roofline_cache_path(cache_dir, merged.device),
                              roofline::to_json_text(merged));
  return merged;
}

} // namespace cugrade::perf
