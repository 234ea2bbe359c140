#include "grader/batch/closing.h"

#include "grader/batch/gradebook.h"
#include "grader/batch/lms_gradebook.h"
#include "grader/batch/report_files.h"
#include "grader/core/report_assembly.h"
#include "harness/core/file_io.h"
#include "harness/core/untrusted_text.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>

namespace cugrade::batch {

namespace {

// The journal remembers what the folder was graded with; a different assignment, spec or
// backend would mix incomparable reports in one gradebook.
result<void> check_settings(journal& j, const std::string& key, const std::string& value,
                            const batch_options& o, const std::string& fix) {
  const auto stored = j.setting(key);
  const bool regrade_all = std::find(o.regrade.begin(), o.regrade.end(), "all") != o.regrade.end();
  if (stored && *stored != value && !regrade_all) {
    return fail(o.out_dir.string() + ": was graded with " + key + " " + *stored +
                ", this run has " + value + "; " + fix);
  }
  j.set_setting(key, value);
  return {};
}

// This run's throughput, stage breakdown and GPU occupancy (also in summary.json).
void print_throughput(const run_measures& m) {
  if (m.graded == 0) {
    return;
  }
  const double n = static_cast<double>(m.graded);
  std::cout << fmt::format("throughput: {} graded in {:.1f} s: {:.0f} submissions/hour ({}, {} "
                           "jobs)\n",
                           m.graded, m.wall_seconds,
                           m.wall_seconds > 0 ? n * 3600 / m.wall_seconds : 0, m.backend, m.jobs);
  std::cout << fmt::format("stages: mean per submission: fetch {:.2f} s, build {:.2f} s, run "
                           "{:.2f} s\n",
                           m.fetch_seconds / n, m.build_seconds / n, m.run_seconds / n);
  std::string busy;
  for (std::size_t i = 0; i < m.gpus.size(); ++i) {
    busy += fmt::format("{}GPU {} busy {:.0f}%", i == 0 ? "" : ", ", m.gpus[i],
                        100 * m.gpu_busy_fraction[i]);
  }
  std::cout << "gpus: " << (busy.empty() ? "NA (emulation)" : busy) << "\n";
}

} // namespace

result<void> check_folder(journal& j, const spec::assignment_spec& spec,
                          reports::backend_kind backend, const batch_options& o) {
  const std::string elsewhere = "give another --out, or --regrade all to regrade everyone";
  if (auto r = check_settings(j, "assignment", spec.name, o, elsewhere); !r) {
    return r;
  }
  if (auto r = check_settings(j, "spec_sha256", spec.spec_sha256, o,
                              "the spec changed: " + elsewhere + " with it");
      !r) {
    return r;
  }
  return check_settings(j, "backend", std::string(reports::to_string(backend)), o,
                        "give --backend " + j.setting("backend").value_or("emu") +
                            " to continue, or " + elsewhere);
}

std::map<std::string, journal_entry> entries_by_student(journal& j) {
  std::map<std::string, journal_entry> out;
  for (auto& e : j.all()) {
    out.emplace(e.student, std::move(e));
  }
  return out;
}

namespace {

// What this batch can award: the maximum of its reports (kernels chosen, backend), also for a
// student without a report.
double assignment_maximum(const pipeline& p, const spec::assignment_spec& spec) {
  return grader::maximum_score(spec, p.backend.kind, p.options.grading);
}

result<void> write_lms_gradebook(const pipeline& p, const spec::assignment_spec& spec,
                                 const std::vector<gradebook_row>& rows) {
  const auto& o = p.options;
  if (o.gradebook == gradebook_format::generic) {
    return {};
  }
  const lms_assignment a{o.lms_assignment_name.empty() ? spec.name : o.lms_assignment_name,
                         o.lms_assignment_id, assignment_maximum(p, spec)};
  return write_file_atomically(o.out_dir / lms_gradebook_file(o.gradebook),
                               render_lms_gradebook(o.gradebook, rows, a));
}

} // namespace

result<void> write_outputs(pipeline& p, const spec::assignment_spec& spec, const run_measures& m) {
  const auto entries = entries_by_student(p.log);
  std::vector<std::string> kernels;
  for (const auto& k : spec.kernels) {
    if (grader::wanted(p.options.grading, k.name)) {
      kernels.push_back(k.name);
    }
  }
  const auto rows = gradebook_rows(p.options.roster, entries);
  if (auto written =
          write_file_atomically(p.options.out_dir / "gradebook.csv",
                                render_gradebook(rows, kernels, assignment_maximum(p, spec)));
      !written) {
    return written;
  }
  if (auto written = write_lms_gradebook(p, spec, rows); !written) {
    return written;
  }
  return write_file_atomically(
      p.options.out_dir / "summary.json",
      summary_json(p.options.roster, entries, m)
              .dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
          "\n");
}

// The closing words: where things are, and each not-gradable student with the regrade command.
void print_closing(pipeline& p, const run_measures& m) {
  const auto entries = entries_by_student(p.log);
  std::size_t not_gradable = 0;
  for (const auto& e : p.options.roster.entries) {
    const auto it = entries.find(e.student);
    const auto r = it == entries.end() ? std::nullopt
                                       : std::optional(journaled_report(it->second.report_json));
    if (r && *r && !(*r)->gradable) {
      if (not_gradable++ == 0) {
        std::cout << "Not gradable:\n";
      }
      std::cout << "  " << e.student << ": "
                << escape_untrusted_text((*r)->infrastructure_error, line_breaks::escape)
                << "\n    regrade with: " << p.options.rerun_command << " --regrade " << e.student
                << "\n";
    }
  }
  std::cout << "gradebook: " << (p.options.out_dir / "gradebook.csv").string() << " ("
            << p.options.roster.entries.size() << " students, " << not_gradable
            << " not gradable)\n";
  if (p.options.gradebook != gradebook_format::generic) {
    std::cout << to_string(p.options.gradebook) << " gradebook: "
              << (p.options.out_dir / lms_gradebook_file(p.options.gradebook)).string()
              << " (how to import it: docs/batch.md, \"Gradebooks for an LMS\")\n";
  }
  print_throughput(m);
}

batch_result finish_batch(pipeline& p, const spec::assignment_spec& spec, const run_measures& m) {
  if (auto w = write_outputs(p, spec, m); !w) {
    return {exit_infrastructure, "cannot write the gradebook: " + w.error()};
  }
  print_closing(p, m);
  if (!p.failures.empty()) {
    std::string all;
    for (const auto& f : p.failures) {
      all += "\n  " + f;
    }
    return {exit_infrastructure, "some reports could not be written (run again to retry):" + all};
  }
  return {};
}

std::string machine_lost_words(const std::string& why, std::size_t not_graded,
                               const std::vector<std::string>& in_flight,
                               const std::string& rerun_command, std::size_t gpus_left) {
  const std::string went_on =
      gpus_left == 0 ? "the batch stopped"
                     : fmt::format("the batch went on with the {} GPU{} still working and ended",
                                   gpus_left, gpus_left == 1 ? "" : "s");
  return fmt::format(
      "a GPU stopped working during the batch ({}); {} with {} student{} not graded, and no "
      "report blames a student for it. Being graded then: {} (the next run grades them after "
      "everyone else). Check the GPU: `nvidia-smi -q` shows \"GPU Recovery Action\" (a reset "
      "needs an administrator) and the kernel log shows Xid lines. Once `nvidia-smi` shows the "
      "GPU healthy, run the same command to continue: {}",
      why, went_on, not_graded, not_graded == 1 ? "" : "s",
      escape_untrusted_text(fmt::format("{}", fmt::join(in_flight, ", ")), line_breaks::escape),
      rerun_command);
}

} // namespace cugrade::batch
