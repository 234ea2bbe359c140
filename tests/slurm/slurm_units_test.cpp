// The pieces of `cugrade batch --slurm` that need no cluster: sacct's output read into task
// states, shards and their roster CSVs, the task time limit, the job script's options, and a
// delivery written and read back byte for byte.
#include "grader/batch/roster.h"
#include "grader/batch/slurm/delivery.h"
#include "grader/batch/slurm/job_script.h"
#include "grader/batch/slurm/slurm_commands.h"
#include "grader/process/temp_dir.h"

#include <gtest/gtest.h>

#include <fstream>

namespace cugrade::batch {
namespace {

namespace fs = std::filesystem;

TEST(Sacct, ReadsEachTasksFinalStateAndAPendingRange) {
  const auto a = parse_sacct("12", "12_0|COMPLETED|0:0|00:00:21\n"
                                   "12_1|CANCELLED by 0|0:15|00:00:07\n"
                                   "12_[2-5%2]|PENDING|0:0|00:00:00\n"
                                   "13_0|FAILED|1:0|00:00:01\n");
  ASSERT_EQ(a.tasks.size(), 2u);
  EXPECT_EQ(a.tasks.at(0).state, "COMPLETED");
  EXPECT_EQ(a.tasks.at(1).state, "CANCELLED");
  EXPECT_EQ(a.tasks.at(1).detail, "by 0");
  EXPECT_EQ(describe(1, a.tasks.at(1)), "task 1 CANCELLED by 0 (exit 0:15, 00:00:07)");
  EXPECT_TRUE(a.pending);
  EXPECT_FALSE(all_final(a, 2)); // the pending range is not over
}

TEST(Sacct, AllFinalNeedsEveryTaskInAFinalState) {
  auto a = parse_sacct("7", "7_0|TIMEOUT|0:0|00:30:00\n7_1|RUNNING|0:0|00:01:00\n");
  EXPECT_FALSE(all_final(a, 2));
  a = parse_sacct("7", "7_0|TIMEOUT|0:0|00:30:00\n7_1|NODE_FAIL|0:0|00:01:00\n");
  EXPECT_TRUE(all_final(a, 2));
  EXPECT_FALSE(all_final(a, 3)); // task 2 not seen yet (sacct lags behind the controller)
  EXPECT_FALSE(all_final(parse_sacct("7", ""), 1));
}

std::vector<roster_entry> students(std::size_t n) {
  std::vector<roster_entry> out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back({"s" + std::to_string(i), "/repos/s" + std::to_string(i), {}, {}, "", i + 2});
  }
  return out;
}

TEST(Shards, CutsInOrderIntoShardsOfAtMostTheSize) {
  const auto all = students(23);
  std::vector<const roster_entry*> ptrs;
  for (const auto& e : all) {
    ptrs.push_back(&e);
  }
  const auto shards = make_shards(ptrs, 10);
  ASSERT_EQ(shards.size(), 3u);
  EXPECT_EQ(shards[0].size(), 10u);
  EXPECT_EQ(shards[2].size(), 3u);
  EXPECT_EQ(shards[1].front()->student, "s10");
  EXPECT_EQ(make_shards(ptrs, 100).size(), 1u);
}

TEST(Shards, ARosterCsvReadsBackWithTheEffectiveDeadlines) {
  roster_entry quoted{"alice", "/repos/a, with comma", "abc123", "2026-12-18T23:59:00Z", "Al \"A\"",
                      2};
  roster_entry plain{"bob", "/repos/bob", {}, {}, "", 3};
  const process::temp_dir tmp("cugrade-slurm-shard-test");
  const auto& dir = tmp.path();
  std::ofstream(dir / "shard.csv") << shard_roster_csv({&quoted, &plain}, "2026-12-15T23:59:00Z");
  const auto back = load_roster(dir / "shard.csv");
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_EQ(back->entries.size(), 2u);
  EXPECT_EQ(back->entries[0].repository, "/repos/a, with comma");
  EXPECT_EQ(back->entries[0].commit, "abc123");
  EXPECT_EQ(back->entries[0].deadline, "2026-12-18T23:59:00Z");
  EXPECT_EQ(back->entries[0].nickname, "Al \"A\"");
  EXPECT_EQ(back->entries[1].deadline, "2026-12-15T23:59:00Z"); // --deadline, made explicit
  EXPECT_FALSE(back->entries[1].commit.has_value());
}

TEST(TaskTime, GrowsWithTheLimitsAndTheShardAndShrinksWithJobs) {
  spec::limits lim;
  lim.compile_seconds = 120;
  // Per student: 60 s fetch + 120 s compile + 2 kernels x 60 s = 300 s; 10 students one at a
  // time: 3000 s x 1.25 = 62.5 min, rounded up, plus 5.
  EXPECT_EQ(task_minutes(lim, 2, 60, 10, 1, false), 68);
  EXPECT_EQ(task_minutes(lim, 2, 60, 10, 2, false), 37); // 5 rounds
  EXPECT_EQ(task_minutes(lim, 2, 60, 10, 1, true), 118); // GPU: 3 runs per kernel
  EXPECT_EQ(task_minutes(lim, 2, 10, 1, 4, false), 10);  // --kernel-timeout 10
}

TEST(JobScript, CarriesTheArrayTheGresAndTheTaskCommand) {
  batch_options o;
  o.slurm = slurm_options{};
  o.slurm->partition = "gpu-a100";
  o.slurm->account = "cs101";
  o.slurm->gpus_per_task = 2;
  o.slurm->max_parallel = 3;
  o.grading.kernel_timeout_seconds = 30;
  o.grading.kernels = {"reduce_convergent"};
  job_script_inputs in{"/opt/cugrade/bin/cugrade",
                       "reduction",
                       "/nfs/out/slurm/submission-2",
                       "/nfs/out/slurm/results",
                       "/nfs/out/slurm/logs",
                       "/nfs/out/slurm/cache",
                       "cugrade-reduction",
                       5,
                       42,
                       true,
                       4,
                       &o};
  const auto script = job_script(in);
  for (const std::string line :
       {"#SBATCH --array=0-4%3\n", "#SBATCH --time=42\n", "#SBATCH --gres=gpu:2\n",
        "#SBATCH --cpus-per-task=4\n", "#SBATCH --partition=gpu-a100\n",
        "#SBATCH --account=cs101\n", "#SBATCH --no-requeue\n",
        "#SBATCH --output=/nfs/out/slurm/logs/%A_%a.out\n",
        "export XDG_CACHE_HOME='/nfs/out/slurm/cache'\n",
        "'/opt/cugrade/bin/cugrade' batch 'reduction' "
        "'/nfs/out/slurm/submission-2'/shard-\"$SLURM_ARRAY_TASK_ID\".csv --out \"$work\" "
        "--backend gpu --jobs 4 --per-gpu 4 --deliver-to '/nfs/out/slurm/results' "
        "--kernel-timeout 30 --kernel 'reduce_convergent'\n"}) {
    EXPECT_NE(script.find(line), std::string::npos) << line << "\n" << script;
  }
  in.gpu = false;
  o.slurm->max_parallel = 0;
  const auto emu = job_script(in);
  EXPECT_EQ(emu.find("--gres"), std::string::npos) << emu;
  EXPECT_NE(emu.find("#SBATCH --array=0-4\n"), std::string::npos) << emu;
  EXPECT_NE(emu.find("--backend emu"), std::string::npos) << emu;
  EXPECT_EQ(emu.find("--hidden"), std::string::npos) << emu;
  EXPECT_EQ(emu.find("--no-sandbox"), std::string::npos) << emu; // confined unless told
  o.unconfined = true; // cugrade batch --no-sandbox: the tasks run unconfined too
  EXPECT_NE(job_script(in).find(" --kernel-timeout 30 --no-sandbox "), std::string::npos)
      << job_script(in);
  o.unconfined = false;
  o.grading.spec_loading.hidden = spec::hidden_tests::from_file;
  o.grading.spec_loading.hidden_file = "/course/private/reduction-hidden.json";
  EXPECT_NE(job_script(in).find(" --hidden '/course/private/reduction-hidden.json'\n"),
            std::string::npos)
      << job_script(in);
}

TEST(Delivery, ReadsBackWhatWasHandedOverByteForByte) {
  const process::temp_dir tmp("cugrade-slurm-delivery-test");
  const auto dir = tmp.path() / "results"; // not there yet: hand_over makes it
  const delivery d{"alice",
                   R"({"repository":"/r","commit":"","deadline":""})",
                   "12",
                   "abc",
                   "{\n  \"schema\": \"x\",\n  \"score\": 1.5\n}\n",
                   0.5,
                   1.25,
                   2};
  ASSERT_TRUE(hand_over(dir, d).ok());
  const auto back = read_delivery(delivery_path(dir, "alice"));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->report_json, d.report_json);
  EXPECT_EQ(back->inputs, d.inputs);
  EXPECT_EQ(back->job, "12");
  EXPECT_EQ(back->commit, "abc");
  EXPECT_EQ(back->build_seconds, 1.25);
  std::ofstream(dir / "broken.json") << "{\"schema\": \"cugrade.slurm-delivery/1\"";
  const auto broken = read_delivery(dir / "broken.json");
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().find("broken.json"), std::string::npos) << broken.error();
}

} // namespace
} // namespace cugrade::batch
