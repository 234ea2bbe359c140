#include "grader/build/build.h"

#include "grader/build/compile_log.h"
#include "grader/build/compile_messages.h"
#include "grader/build/detail/build_plan.h"
#include "grader/build/launcher_signatures.h"
#include "grader/build/library_includes.h"
#include "grader/build/policy_report.h"
#include "grader/build/symbol_policy.h"
#include "grader/process/process.h"
#include "grader/sandbox/sandbox.h"
#include "harness/core/elapsed.h"
#include "harness/core/file_io.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace cugrade::build {
namespace {

using steady = std::chrono::steady_clock;

// A template or constexpr bomb ends as a build error here instead of taking the machine's memory.
constexpr std::size_t compiler_memory_bytes = std::size_t{2} << 30;

// One budget for all steps of a build.
class budget {
public:
  explicit budget(double seconds) : m_start(steady::now()), m_seconds(seconds) {}
  [[nodiscard]] double elapsed() const { return seconds_since(m_start); }
  [[nodiscard]] double left() const { return std::max(m_seconds - elapsed(), 0.001); }
  [[nodiscard]] double total() const { return m_seconds; }

private:
  steady::time_point m_start;
  double m_seconds;
};

// What a compiler sees: its toolchain, the one submission's folder (read-only) and the work dir.
sandbox::profile compiler_view(const build_request& request) {
  sandbox::profile view;
  view.kind = sandbox::role::compiler;
  view.read_only = {request.source.parent_path()};
  for (const auto& dir : {request.tools.emu_include_dir, request.tools.emu_lib_dir}) {
    if (!dir.empty()) {
      view.read_only.push_back(std::filesystem::absolute(dir));
    }
  }
  if (!request.tools.nvcc.empty()) { // the whole toolkit: nvcc finds cicc, ptxas and headers
    view.read_only.push_back(
        std::filesystem::absolute(request.tools.nvcc).parent_path().parent_path());
  }
  view.writable = {request.work_dir};
  view.memory_bytes = compiler_memory_bytes;
  return view;
}

// Runs one compiler step. Not starting at all is the machine's fault; anything after is data.
result<process::process_result> run_step(const std::vector<std::string>& argv,
                                         const build_request& request, const budget& time) {
  process::spawn_options options;
  options.argv = argv;
  options.working_dir = request.work_dir;
  // nvcc's temporaries land in the work dir (a killed build leaves nothing in /tmp), and
  // messages stay in untranslated English whatever the grader's locale.
  options.env_add = {{"TMPDIR", request.work_dir.string()}, {"LC_ALL", "C"}};
  options.time_limit_seconds = time.left();
  options.capture_limit_bytes = std::size_t{256} << 10;
  auto box = sandbox::confine(compiler_view(request), options);
  if (!box) {
    return fail(box.error());
  }
  auto run = process::run_process(options);
  if (run && box->memory_exhausted()) {
    run->stderr_text += "\n[the compiler reached its memory ceiling of " +
                        std::to_string(compiler_memory_bytes >> 20) + " MiB and was stopped]";
  }
  return run;
}

std::string read_source(const std::filesystem::path& path);

// The compiler's diagnostics about the contract's declarations, taken out of the trimmed log
// before the emulation's cleaning (which drops what is said about other files).
std::string take_signatures(std::string log, const build_request& request,
                            signature_check* signatures) {
  if (signatures == nullptr || request.launcher_parameters.empty()) {
    return log;
  }
  *signatures =
      check_signatures(log, request.source.filename().string(), read_source(request.source),
                       request.launchers, request.launcher_parameters);
  return signatures->log;
}

std::string step_log(const process::process_result& run, const build_request& request,
                     const detail::build_plan& plan, const budget& time,
                     signature_check* signatures) {
  const log_context context{request.source, plan.compiled_file, request.work_dir};
  std::string log = take_signatures(trim_compile_log(run.stdout_text + run.stderr_text, context),
                                    request, signatures);
  if (request.target == backend::emu) {
    log = clean_emulation_log(log, request.source.filename().string());
  }
  if (run.timed_out) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", time.total());
    log += std::string(log.empty() ? "" : "\n") + "[the build exceeded its " + limit +
           " s time limit and was stopped]";
  } else if (run.term_signal != 0) {
    log += "\n[the compiler was killed by signal " + std::to_string(run.term_signal) + "]";
  }
  return log;
}

result<detail::build_plan> make_plan(const build_request& request, const build_outcome& outcome) {
  detail::build_paths paths{outcome.object,
                            outcome.library,
                            request.work_dir / (request.source.stem().string() + ".ii"),
                            {}};
  if (!request.launcher_parameters.empty()) {
    auto header =
        write_contract_header(request.work_dir, request.launchers, request.launcher_parameters);
    if (!header) {
      return fail(header.error());
    }
    paths.contract_header = *header;
  }
  return request.target == backend::gpu ? detail::plan_gpu_build(request, paths)
                                        : detail::plan_emu_build(request, paths);
}

result<void> prepare(const build_request& request, build_outcome& outcome) {
  std::error_code error;
  std::filesystem::create_directories(request.work_dir, error);
  if (error || !std::filesystem::is_directory(request.work_dir)) {
    return fail("cannot create the build directory " + request.work_dir.string() + ": " +
                error.message());
  }
  const std::string stem = request.source.stem().string();
  outcome.object = request.work_dir / (stem + ".o");
  outcome.library = request.work_dir / ("lib" + stem + ".so");
  for (const auto& stale : {outcome.object, outcome.library}) {
    std::filesystem::remove(stale, error); // an old output must never pass for a new one
  }
  return {};
}

// The preprocessed source, for placing calls made in library headers; nothing when it fails.
std::optional<std::string> preprocessed(const build_request& request,
                                        const detail::build_plan& plan, const budget& time) {
  auto run = run_step(plan.preprocess, request, time);
  if (!run || !run->succeeded()) {
    return std::nullopt;
  }
  auto text = read_file(plan.preprocess.back());
  return text ? std::optional<std::string>(std::move(*text)) : std::nullopt;
}

result<void> apply_policy(const build_request& request, const detail::build_plan& plan,
                          const budget& time, build_outcome& outcome) {
  auto runtime = runtime_names(request.tools, request.target);
  if (!runtime) {
    return fail(runtime.error());
  }
  auto symbols = object_symbols(outcome.object);
  if (!symbols) {
    return fail(symbols.error());
  }
  policy_verdict verdict =
      check_symbol_policy(*symbols, request.launchers, request.target, **runtime);
  outcome.defined_launchers = std::move(verdict.defined_launchers);
  outcome.missing_launchers = std::move(verdict.missing_launchers);
  outcome.notes = std::move(verdict.notes);
  const student_source source{request.source.filename().string(), read_source(request.source),
                              plan.compiled_file.filename().string()};
  auto described = describe_in_source(verdict.violations, outcome.object, source,
                                      [&] { return preprocessed(request, plan, time); });
  if (!described) {
    return fail(described.error());
  }
  outcome.forbidden_symbols = std::move(*described);
  return {};
}

// Runs a step; false (with the log filled in) when the student's code stopped the build.
result<bool> compiler_step(const std::vector<std::string>& argv, const build_request& request,
                           const detail::build_plan& plan, const budget& time,
                           build_outcome& outcome, signature_check* signatures = nullptr) {
  auto run = run_step(argv, request, time);
  if (!run) {
    return fail(run.error());
  }
  const std::string log = step_log(*run, request, plan, time, signatures);
  outcome.log += std::string(outcome.log.empty() || log.empty() ? "" : "\n") + log;
  outcome.timed_out = run->timed_out;
  return run->succeeded();
}

// Compiles with the contract's declarations. A launcher declared with other parameters fails
// the build; one that only leaves out an input's const is accepted, and where the host compiler
// refused it (clang errs where gcc warns), the file is compiled again without the declarations.
result<bool> compile_checked(const build_request& request, const detail::build_plan& plan,
                             const budget& time, build_outcome& outcome) {
  signature_check signatures;
  auto compiled = compiler_step(plan.compile, request, plan, time, outcome, &signatures);
  if (!compiled || signatures.conflicts.empty()) {
    return compiled;
  }
  const std::string file = request.source.filename().string();
  if (const auto refused = refused_conflicts(signatures, file, request.launcher_parameters);
      !refused.empty()) {
    outcome.log = refused + outcome.log;
    return false;
  }
  if (*compiled) {
    return true;
  }
  outcome.log.clear();
  return compiler_step(without_contract(plan.compile), request, plan, time, outcome);
}

// In emulation, a source that does not compile is compiled again without the region forms the
// rewriter added (harness/emu/detail/region_plan.h): the student reads the errors of their own
// kernels once, and a form the compiler refused where its kernel compiles costs nothing but
// speed.
result<bool> compile_emulated(const build_request& request, const detail::build_plan& plan,
                              const budget& time, build_outcome& outcome) {
  auto compiled = compile_checked(request, plan, time, outcome);
  if (request.target != backend::emu || !compiled || *compiled || outcome.timed_out) {
    return compiled;
  }
  detail::build_plan plain = plan;
  plain.compile.push_back("-DCUGRADE_EMU_NO_REGIONS");
  outcome.log.clear();
  return compile_checked(request, plain, time, outcome);
}

result<void> compile_check_link(const build_request& request, const detail::build_plan& plan,
                                const budget& time, build_outcome& outcome) {
  auto compiled = compile_emulated(request, plan, time, outcome);
  if (!compiled || !*compiled) {
    outcome.object.clear();
    return compiled ? result<void>{} : fail(compiled.error());
  }
  if (auto checked = apply_policy(request, plan, time, outcome); !checked) {
    return checked;
  }
  auto linked = compiler_step(plan.link, request, plan, time, outcome);
  if (!linked) {
    return fail(linked.error());
  }
  outcome.ok = *linked;
  return {};
}

std::string read_source(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// An #include of one of CUDA's libraries is `forbidden` before anything is compiled, with the
// same words on both backends (library_includes.h); the log says why nothing was compiled.
bool refuse_libraries(const build_request& request, build_outcome& outcome) {
  const std::string file = request.source.filename().string();
  outcome.forbidden_symbols = library_includes(read_source(request.source), file);
  for (const std::string& entry : outcome.forbidden_symbols) {
    outcome.log += std::string(outcome.log.empty() ? "" : "\n") + "not compiled: " + entry;
  }
  return !outcome.forbidden_symbols.empty();
}

// The summary a student reads first: the first errors of a failed build, then the warnings, as
// many as the count the report gives shows. A failure the compiler gave no located error for (a
// link error, a timeout) shows the log's start.
void summarise(const build_request& request, build_outcome& outcome) {
  const std::string file = request.source.filename().string();
  const auto messages = student_messages(outcome.log, file);
  const std::string source = read_source(request.source);
  outcome.warnings = static_cast<std::size_t>(
      std::count_if(messages.begin(), messages.end(),
                    [](const compiler_message& m) { return m.severity == "warning"; }));
  if (outcome.ok) {
    outcome.summary = message_summary(messages, "warning", file, source, 5);
    return;
  }
  outcome.summary = message_summary(messages, "error", file, source);
  if (outcome.summary.empty()) {
    const auto cut = outcome.log.find('\n', std::min<std::size_t>(outcome.log.size(), 1500));
    outcome.summary = outcome.log.substr(0, cut);
  }
  if (const std::string warnings = message_summary(messages, "warning", file, source, 5);
      !warnings.empty()) {
    outcome.summary += "\n" + warnings;
  }
}

} // namespace

result<build_outcome> build_submission(const build_request& original) {
  // The compilers run inside the work dir, so relative paths would point elsewhere.
  build_request request = original;
  request.source = std::filesystem::absolute(original.source);
  request.work_dir = std::filesystem::absolute(original.work_dir);
  const budget time(request.time_limit_seconds);
  build_outcome outcome;
  if (auto prepared = prepare(request, outcome); !prepared) {
    return fail(prepared.error());
  }
  auto plan = make_plan(request, outcome);
  if (!plan) {
    return fail(plan.error());
  }
  if (!plan->student_error.empty()) {
    outcome.log = plan->student_error;
    outcome.object.clear();
  } else if (refuse_libraries(request, outcome)) {
    outcome.object.clear();
  } else if (auto built = compile_check_link(request, *plan, time, outcome); !built) {
    return fail(built.error());
  }
  if (!outcome.ok) {
    outcome.library.clear();
  }
  summarise(request, outcome);
  outcome.seconds = time.elapsed();
  return outcome;
}

const char* to_string(backend target) noexcept {
  return target == backend::gpu ? "gpu" : "emu";
}

} // namespace cugrade::build
