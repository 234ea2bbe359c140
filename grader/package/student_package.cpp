#include "grader/package/student_package.h"

#include "grader/package/detail/source_tree.h"
#include "grader/spec/assignment_spec.h"
#include "harness/core/file_io.h"

#include <algorithm>
#include <array>
#include <set>
#include <system_error>

namespace cugrade::package {

namespace fs = std::filesystem;

namespace {

// Beside the build inputs: what a published tree needs for people (docs, the container image).
constexpr std::array<std::string_view, 5> published_extras{"docs", "Dockerfile", ".dockerignore",
                                                           ".gitignore", "assignments"};

std::vector<std::string> entries_of(const fs::path& root) {
  std::vector<std::string> out(detail::build_inputs.begin(), detail::build_inputs.end());
  std::error_code ec;
  for (const std::string_view extra : published_extras)
    if (fs::exists(root / extra, ec))
      out.emplace_back(extra);
  return out;
}

result<void> require_empty_target(const fs::path& out, const fs::path& root,
                                  const std::vector<std::string>& entries) {
  std::error_code ec;
  if (fs::exists(out, ec) && !(fs::is_directory(out, ec) && fs::is_empty(out, ec)))
    return fail_usage(out.string() + " is not an empty folder; give a new or empty folder for the "
                                     "students' tree (cugrade package student never writes over "
                                     "files)");
  const fs::path inside = fs::weakly_canonical(out, ec).lexically_relative(fs::canonical(root, ec));
  if (!inside.empty() &&
      std::find(entries.begin(), entries.end(), inside.begin()->string()) != entries.end())
    return fail_usage(out.string() + " lies inside " + inside.begin()->string() +
                      "/, which the students' tree copies; give a folder outside it");
  return {};
}

// Every folder a spec names as its reference, and the tree's reference/.
result<std::set<fs::path>> reference_folders(const fs::path& root,
                                             std::vector<std::string>& assignments) {
  std::error_code ec;
  std::set<fs::path> folders{fs::weakly_canonical(root / "reference", ec)};
  spec::load_options spec_only;
  spec_only.hidden = spec::hidden_tests::none;
  spec_only.require_reference = false;
  assignments = spec::known_assignments(root);
  for (const auto& name : assignments) {
    auto s = spec::load_assignment(name, root, spec_only);
    if (!s)
      return fail_usage("the students' tree holds every assignment, but " + s.error());
    folders.insert(fs::weakly_canonical(s->reference_dir, ec));
  }
  return folders;
}

class tree_copy {
public:
  tree_copy(const fs::path& root, const fs::path& out, std::set<fs::path> references)
      : m_root(fs::canonical(root)), m_out(out), m_references(std::move(references)) {}

  result<void> copy(const std::string& entry) {
    const fs::path from = m_root / entry;
    if (!fs::is_directory(from))
      return copy_one(from);
    if (left_out(from))
      return {};
    std::error_code ec;
    fs::create_directories(m_out / entry, ec);
    for (auto it = fs::recursive_directory_iterator(from, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_directory(ec) && !it->is_symlink(ec) && left_out(it->path())) {
        it.disable_recursion_pending();
        continue;
      }
      if (auto c = copy_one(it->path()); !c)
        return c;
    }
    if (ec)
      return fail("cannot read " + from.string() + ": " + ec.message());
    return {};
  }

  [[nodiscard]] const std::vector<std::string>& skipped() const { return m_skipped; }

private:
  bool left_out(const fs::path& p) {
    std::error_code ec;
    const bool reference = p.filename() != spec::hidden_file_name &&
                           m_references.contains(fs::weakly_canonical(p, ec));
    if (reference || p.filename() == spec::hidden_file_name) {
      m_skipped.push_back(p.lexically_relative(m_root).generic_string() + (reference ? "/" : ""));
      return true;
    }
    return false;
  }

  result<void> copy_one(const fs::path& from) {
    if (left_out(from))
      return {};
    const fs::path to = m_out / from.lexically_relative(m_root);
    std::error_code ec;
    if (fs::is_symlink(from, ec))
      fs::copy_symlink(from, to, ec);
    else if (fs::is_directory(from, ec))
      fs::create_directories(to, ec);
    else
      fs::copy_file(from, to, ec);
    if (ec)
      return fail("cannot copy " + from.string() + " to " + to.string() + ": " + ec.message());
    return {};
  }

  fs::path m_root;
  fs::path m_out;
  std::set<fs::path> m_references;
  std::vector<std::string> m_skipped;
};

// The contents of every reference source (not its CMakeLists.txt), to compare the written files
// with.
std::set<std::string> reference_sources(const std::set<fs::path>& folders) {
  std::set<std::string> out;
  std::error_code ec;
  for (const auto& folder : folders)
    for (auto it = fs::recursive_directory_iterator(folder, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file() && it->path().filename() != "CMakeLists.txt")
        if (auto text = read_file(it->path()); text && !text->empty())
          out.insert(*text);
  return out;
}

// Defence in depth: the copy left them out, and this says so before anyone publishes the tree.
result<void> check_written(const fs::path& out, const std::set<fs::path>& references) {
  const auto answers = reference_sources(references);
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(out, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file())
      continue;
    const std::string shown = it->path().lexically_relative(out).generic_string();
    if (it->path().filename() == spec::hidden_file_name)
      return fail_usage(shown + " is a hidden-groups file; the students' tree must hold none");
    if (auto text = read_file(it->path()); text && answers.contains(*text))
      return fail_usage(shown + " is a copy of a reference solution; the students' tree must hold "
                                "none: remove it from the source tree");
  }
  return {};
}

void remove_written(const fs::path& out, const std::vector<std::string>& entries) {
  std::error_code ec;
  for (const auto& entry : entries)
    fs::remove_all(out / entry, ec);
}

} // namespace

result<student_package> package_student(const student_request& request) {
  const fs::path& root = request.project_root;
  if (auto tree = detail::require_source_tree(root, "CMakeLists.txt"); !tree)
    return tree.why();
  const auto entries = entries_of(root);
  if (auto empty = require_empty_target(request.out, root, entries); !empty)
    return empty.why();
  student_package done{fs::absolute(request.out), entries, {}, {}};
  auto references = reference_folders(root, done.assignments);
  if (!references)
    return references.why();
  std::error_code ec;
  fs::create_directories(done.dir, ec);
  tree_copy copy(root, done.dir, *references);
  for (const auto& entry : entries) {
    if (auto c = copy.copy(entry); !c) {
      remove_written(done.dir, entries);
      return c.why();
    }
  }
  if (auto clean = check_written(done.dir, *references); !clean) {
    remove_written(done.dir, entries);
    return clean.why();
  }
  done.left_out = copy.skipped();
  std::sort(done.left_out.begin(), done.left_out.end());
  if (fs::is_directory(root / "reference", ec))
    done.left_out.insert(done.left_out.begin(), "reference/");
  return done;
}

} // namespace cugrade::package
