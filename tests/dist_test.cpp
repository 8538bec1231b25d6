// The pieces of runs over several ranks that one process can check: the choice of GPU, the names
// of the rank files, and the dealer with one rank (which must hand out the ids in order).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "host/dist/comm.hpp"
#include "host/dist/dealer.hpp"
#include "host/selfplay/ranks.hpp"
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

}  // namespace
}  // namespace sp
