// Seams for the tests that drive this program as a process, kept out of the libraries. With
// SELFPLAY_TEST_STOP_AFTER_GAMES=N in the environment, the writer that queues its Nth game
// flushes it and then stops the whole process with SIGSTOP, so that a test can kill or interrupt
// the CLI at a known point instead of racing it (campaign_test, match_test, improve_test).
#include <csignal>
#include <cstdint>
#include <cstdlib>

#include "host/app/commands.hpp"
#include "host/base/hdf5/campaign_file.hpp"

namespace sp::app {
namespace {

uint64_t g_stop_after_games = 0;

void stop_after_games(io::CampaignWriter& writer, uint64_t games_queued) {
  if (games_queued != g_stop_after_games) return;
  writer.flush();
  std::raise(SIGSTOP);
}

}  // namespace

void install_test_hooks() {
  const char* n = std::getenv("SELFPLAY_TEST_STOP_AFTER_GAMES");
  if (!n) return;
  g_stop_after_games = std::strtoull(n, nullptr, 10);
  if (g_stop_after_games > 0) io::set_game_queued_hook(&stop_after_games);
}

}  // namespace sp::app
