// Host search on the pool: the same records for 1, 2 and 5 host threads (on the cpu backend, whose
// pool the driver shares, and on the null backend, where the driver has a pool of its own), and a
// run never has more threads than its budget.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <string>
#include <vector>

#include "games/ewn/host.hpp"
#include "games/ewn/notation.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "host/play/selfplay/driver.hpp"
#include "tests/test_util.hpp"

namespace sp::selfplay {
namespace {

const char* kConfig = R"(
game: ewn
rules: {first_player: alternate, setup: random}
campaign: {games: 40, concurrency: 20, seed: 5}
engines:
  player0: {type: mcts, rollouts_per_move: 96, rollouts_per_leaf: 8, leaves_per_round: 4}
  player1: {type: mcts, rollouts_per_move: 64, rollouts_per_leaf: 4, leaves_per_round: 2}
backend: {name: cpu, threads: 1, batch_rollouts: 256}
)";

// Each game's moves and winner by game id; the most OS threads seen during the run.
struct Played {
  std::map<uint32_t, std::string> games;
  int most_threads = 0;
};

Played play(const std::string& backend_name, int threads) {
  config::Config<EwnGame> cfg =
      config::load_campaign_config_text<EwnGame>(kConfig, "driver_threads_test");
  cfg.backend.name = backend_name;
  cfg.backend.threads = threads;
  Played out;
  auto backend = make_campaign_backend(cfg);
  std::vector<uint32_t> ids(cfg.games);
  for (uint32_t i = 0; i < cfg.games; ++i) ids[i] = i;
  Driver driver(cfg, *backend, ids);
  EXPECT_EQ(driver.threads(), threads);
  std::atomic<bool> stop{false};
  driver.run(
      [&](FinishedGame<EwnGame>&& g) {
        std::string record = std::to_string(g.winner) + ":";
        for (const PlyInfo<EwnGame>& p : g.plies)
          record += " " + ewn::ply_to_string(p.before.die, p.move);
        out.games[g.game_id] = record;
      },
      [&](const BatchInfo&) { out.most_threads = std::max(out.most_threads, test::os_threads()); },
      stop);
  return out;
}

TEST(DriverThreads, SameRecordsOnOneTwoAndFiveHostThreads) {
  for (const char* backend : {"cpu", "null"}) {
    const Played one = play(backend, 1);
    ASSERT_EQ(one.games.size(), 40u) << backend;
    for (int threads : {2, 5})
      EXPECT_EQ(play(backend, threads).games, one.games)
          << backend << ", " << threads << " threads";
  }
  // The null backend's statistics are not the cpu backend's, so the games differ: the comparison
  // above is not vacuous.
  EXPECT_NE(play("null", 2).games, play("cpu", 2).games);
}

TEST(DriverThreads, SearchAndRolloutsShareOneBudget) {
  const int before = test::os_threads();
  ASSERT_GT(before, 0);
  for (int threads : {1, 3}) {
    const Played p = play("cpu", threads);
    // This thread plus threads - 1 pool workers: no backend worker, no second team for search.
    EXPECT_EQ(p.most_threads, before + threads - 1) << threads << " threads";
  }
  EXPECT_EQ(play("null", 3).most_threads, before + 2);
}

}  // namespace
}  // namespace sp::selfplay
