#include "grader/package/gradescope_package.h"

#include "grader/package/detail/source_tree.h"
#include "grader/process/process.h"
#include "grader/process/temp_dir.h"
#include "harness/core/file_io.h"

#include <algorithm>
#include <system_error>

namespace cugrade::package {

namespace fs = std::filesystem;

namespace {

fs::path templates(const fs::path& root) {
  return root / "grader" / "package" / "gradescope";
}

// The hidden file grading would merge, when there is one.
std::optional<fs::path> hidden_file_of(const spec::assignment_spec& s,
                                       const spec::load_options& loading) {
  std::error_code ec;
  if (loading.hidden == spec::hidden_tests::from_file)
    return loading.hidden_file;
  const fs::path beside = s.spec_path.parent_path() / spec::hidden_file_name;
  if (loading.hidden == spec::hidden_tests::beside_spec && fs::is_regular_file(beside, ec))
    return beside;
  return std::nullopt;
}

result<void> write_scripts(const fs::path& root, const fs::path& stage,
                           const std::string& assignment) {
  auto run = read_file(templates(root) / "run_autograder");
  if (!run)
    return fail(run.error());
  std::string text = *run;
  const std::string marker = "@CUGRADE_ASSIGNMENT@";
  text.replace(text.find(marker), marker.size(), assignment);
  if (auto w = write_file_atomically(stage / "run_autograder", text); !w)
    return fail(w.error());
  if (auto c = detail::copy_into(templates(root) / "setup.sh", stage / "setup.sh"); !c)
    return c;
  std::error_code ec;
  for (const char* script : {"run_autograder", "setup.sh"})
    fs::permissions(stage / script,
                    fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                        fs::perms::others_read | fs::perms::others_exec,
                    ec);
  return {};
}

result<void> copy_sources(const fs::path& root, const fs::path& tree,
                          const spec::assignment_spec& s, const std::optional<fs::path>& hidden) {
  for (const std::string_view entry : detail::build_inputs)
    if (auto c = detail::copy_into(root / entry, tree / entry); !c)
      return c;
  if (auto c = detail::copy_into(root / "reference", tree / "reference"); !c)
    return c;
  const fs::path folder = tree / "assignments" / s.name;
  if (auto c = detail::copy_into(s.spec_path, folder / "assignment.json"); !c)
    return c;
  if (hidden)
    if (auto c = detail::copy_into(*hidden, folder / spec::hidden_file_name); !c)
      return c;
  return {};
}

result<void> check_reference_inside(const fs::path& root, const spec::assignment_spec& s) {
  const fs::path relative = s.reference_dir.lexically_relative(fs::absolute(root));
  if (relative.empty() || *relative.begin() == "..")
    return fail_usage(s.spec_path.string() + ": reference: " + s.reference_dir.string() +
                      " lies outside the cugrade tree " + root.string() +
                      ", so it would not be packed; put the reference solution under the tree "
                      "and name it relative to it");
  return {};
}

result<void> zip_folder(const fs::path& stage, const fs::path& out) {
  const auto zip = process::find_program("zip");
  if (!zip)
    return fail("the zip program is missing; install the Debian package zip");
  std::error_code ec;
  fs::remove(out, ec);
  process::spawn_options o;
  o.argv = {zip->string(), "-q", "-r", "-X", out.string(), "setup.sh", "run_autograder", "cugrade"};
  o.working_dir = stage;
  auto ran = process::run_process(o);
  if (!ran)
    return fail(ran.error());
  if (!ran->succeeded())
    return fail("zip failed writing " + out.string() + " (status " +
                std::to_string(ran->shell_status()) + "): " + ran->stderr_text);
  return {};
}

} // namespace

result<gradescope_package> package_gradescope(const gradescope_request& request) {
  const fs::path run_template = fs::path("grader") / "package" / "gradescope" / "run_autograder";
  if (auto tree = detail::require_source_tree(request.project_root, run_template); !tree)
    return tree.why();
  auto s = spec::load_assignment(request.assignment, request.project_root, request.spec_loading);
  if (!s)
    return fail_usage(s.error());
  if (auto inside = check_reference_inside(request.project_root, *s); !inside)
    return inside.why();
  const auto hidden = hidden_file_of(*s, request.spec_loading);
  process::temp_dir stage("cugrade-package");
  if (auto c = copy_sources(request.project_root, stage.path() / "cugrade", *s, hidden); !c)
    return c.why();
  if (auto w = write_scripts(request.project_root, stage.path(), s->name); !w)
    return w.why();
  const fs::path out = fs::absolute(request.out);
  if (auto z = zip_folder(stage.path(), out); !z)
    return z.why();
  gradescope_package done{out, s->name, 0, hidden.has_value()};
  done.hidden_groups = static_cast<std::size_t>(
      std::count_if(s->groups.begin(), s->groups.end(),
                    [](const spec::test_group& g) { return g.vis != spec::visibility::visible; }));
  return done;
}

} // namespace cugrade::package
