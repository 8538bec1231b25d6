// The pieces of runs over several ranks that one process can check: the choice of GPU, the names
// of the rank files, and the dealer with one rank (which must hand out the ids in order).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "host/base/mpi/comm.hpp"
#include "host/base/mpi/dealer.hpp"
#include "host/play/ranks/ranks.hpp"
#include "host/play/selfplay/progress.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

TEST(PickDevice, RanksOfANodeTakeDistinctDevicesWhileThereAreEnough) {
  EXPECT_EQ(dist::pick_device(0, 4, 0), 0);
  EXPECT_EQ(dist::pick_device(3, 4, 0), 3);
  EXPECT_EQ(dist::pick_device(4, 4, 0), 0);  // more ranks than devices: they share
  EXPECT_EQ(dist::pick_device(1, 4, 2), 3);  // backend.device offsets the choice
  EXPECT_EQ(dist::pick_device(2, 4, 2), 0);
  EXPECT_EQ(dist::pick_device(5, 1, 0), 0);  // one device visible per rank (Slurm)
  EXPECT_EQ(dist::pick_device(2, 0, 0), 0);  // none: the cpu backend ignores it
}

TEST(LauncherSize, ReadsTheLaunchersTaskCountNotSlurmsJobWideOne) {
  ASSERT_EQ(std::getenv("OMPI_COMM_WORLD_SIZE"), nullptr) << "run this test without mpirun";
  ASSERT_EQ(std::getenv("PMI_SIZE"), nullptr);
  // An sbatch script runs selfplay as one process with the job's SLURM_NTASKS set.
  setenv("SLURM_NTASKS", "4", 1);
  EXPECT_EQ(dist::launcher_size(), 1);
  setenv("SLURM_STEP_NUM_TASKS", "3", 1);  // a step started by srun
  std::string variable;
  EXPECT_EQ(dist::launcher_size(&variable), 3);
  EXPECT_EQ(variable, "SLURM_STEP_NUM_TASKS");
  setenv("SLURM_STEP_NUM_TASKS", "x3", 1);  // not a count: no launcher
  EXPECT_EQ(dist::launcher_size(), 1);
  unsetenv("SLURM_STEP_NUM_TASKS");
  unsetenv("SLURM_NTASKS");
}

TEST(RankFiles, NamedBesideTheOutputAndFoundByRank) {
  EXPECT_EQ(selfplay::rank_file("out/c.h5", 2), "out/c.rank2.h5");
  EXPECT_EQ(selfplay::rank_file("c", 0), "c.rank0.h5");
  test::TempDir dir;
  for (const char* name :
       {"c.rank10.h5", "c.rank2.h5", "c.rank2.h5.lock", "c.rankx.h5", "d.rank1.h5", "c.h5"})
    dir.write(name, "");
  EXPECT_EQ(selfplay::rank_files(dir.file("c.h5")),
            (std::vector<std::string>{dir.file("c.rank2.h5"), dir.file("c.rank10.h5")}));
  EXPECT_EQ(selfplay::ranks_text({1}), "rank 1");
  EXPECT_EQ(selfplay::ranks_text({1, 3}), "ranks 1, 3");
}

TEST(Dealer, OneRankTakesTheIdsInOrderUntilDealingStops) {
  ASSERT_EQ(dist::size(), 1);
  dist::Dealer dealer({4, 7, 9, 12}, 2, 1);
  std::vector<uint32_t> seen;
  dealer.on_game = [&](const dist::GameReport& g) { seen.push_back(g.game_id); };
  EXPECT_EQ(dealer.take(), 4u);
  EXPECT_EQ(dealer.take(), 7u);
  EXPECT_FALSE(dealer.exhausted());
  dealer.report(dist::GameReport{7});  // rank 0's own games reach on_game at once
  EXPECT_EQ(seen, std::vector<uint32_t>{7});
  dealer.stop_dealing();
  EXPECT_TRUE(dealer.exhausted());
  EXPECT_EQ(dealer.take(), std::nullopt);
  EXPECT_TRUE(dealer.finish(0).empty());
}

// Rank 0's summary counts the batches of every rank: their backends' busy time is shared out over
// the ranks, so that it reads as the share of each backend's wall time (at most 100%).
TEST(ProgressSummary, BackendBusyIsTheMeanOverTheRanks) {
  const auto busy_of = [](int ranks) {
    selfplay::Progress progress(10, 0, nullptr, false, ranks);
    const auto start = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const double elapsed_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    for (int r = 0; r < ranks; ++r) progress.batch_done(100, 6400, 0.75 * elapsed_ms, 0, 1, 1);
    const std::string summary = progress.summary("out.h5", "cpu", 0);
    std::smatch m;
    EXPECT_TRUE(std::regex_search(summary, m, std::regex(R"(busy (\d+)% of wall time)")))
        << summary;
    return std::make_pair(std::stoi(m[1]), summary);
  };
  const auto [one, one_text] = busy_of(1);
  EXPECT_GT(one, 0);
  EXPECT_LE(one, 75);
  EXPECT_EQ(one_text.find("ranks"), std::string::npos) << one_text;
  for (int ranks : {2, 3}) {
    const auto [busy, text] = busy_of(ranks);
    EXPECT_GT(busy, 0) << text;
    EXPECT_LE(busy, 75) << text;  // summed, it would be 75% times the ranks
    EXPECT_NE(text.find("(mean of " + std::to_string(ranks) + " ranks)"), std::string::npos)
        << text;
    EXPECT_NE(text.find("(summed over the ranks)"), std::string::npos) << text;
  }
}

// The host rate: leaves over the host's thread time (not its wall time), and rollouts per leaf.
TEST(ProgressSummary, HostRateIsLeavesPerHostThreadSecond) {
  selfplay::Progress progress(10, 0, nullptr, false, 1);
  progress.batch_done(300, 2400, 5, 1, /*host_ms=*/40, /*host_thread_ms=*/100);
  progress.batch_done(100, 800, 5, 1, /*host_ms=*/10, /*host_thread_ms=*/100);
  const std::string summary = progress.summary("out.h5", "cpu", 0);
  EXPECT_NE(summary.find("host rate           2e+03 leaves per host thread-second, 8.00 rollouts "
                         "per leaf, 0.2 host thread-s\n"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("host work 0.1 s"), std::string::npos) << summary;  // wall time, apart
  const std::string none = selfplay::Progress(10, 0, nullptr, false, 1).summary("o.h5", "cpu", 0);
  EXPECT_NE(none.find("host rate           0 leaves per host thread-second, 0.00 rollouts"),
            std::string::npos)
      << none;
}

}  // namespace
}  // namespace sp
