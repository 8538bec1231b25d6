// EWN records pinned across refactors: a fixed campaign and a fixed match (tests/configs/pinned/)
// are played by the built CLI, their moves and results are hashed, and the hash must equal the one
// the code gave before the engine was made generic over games (issue 9). Any change to rules,
// playouts, MCTS, expectimax, setups, dice or the driver's stream ids that alters an EWN game shows
// up here. Each is played twice, with different concurrency, batch size and thread count,
// and both runs must give the pinned hash: records never depend on scheduling.
#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "host/base/hdf5/campaign_file.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

namespace fs = std::filesystem;
using test::read_text;

// Computed by this test (it prints the hash it gets on a mismatch) on the code of commit 1272ccf,
// before any issue-9 change, with the cpu backend on 1 and 2 threads (and the check backend).
constexpr uint64_t kPinnedCampaign = 0xe97c100f0b0b419cull;
constexpr uint64_t kPinnedMatch = 0xb237216d26ef1e5eull;

// Replaces the one occurrence of `from` in text; fails the test when there is not exactly one.
void replace_once(std::string& text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << "'" << from << "' not in the pinned config";
  ASSERT_EQ(text.find(from, at + 1), std::string::npos)
      << "'" << from << "' twice in the pinned config";
  text.replace(at, from.size(), to);
}

uint64_t fnv1a64(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

// The records as canonical text: /games rows by game id (opening, first player, winner, plies,
// record), then /plies rows by (game id, ply) (player, chance, move). Wall-clock fields and search
// statistics are left out: the pin is about moves and results. The text is the one the pin was
// computed from with format 1 (setup, die): EWN's opening is the setup, its chance the die.
std::string canonical_records(const std::string& path) {
  io::CampaignReader reader(path);
  auto games = reader.games();
  std::sort(games.begin(), games.end(),
            [](const auto& a, const auto& b) { return a.game_id < b.game_id; });
  auto plies = reader.plies();
  std::sort(plies.begin(), plies.end(), [](const auto& a, const auto& b) {
    return std::tie(a.game_id, a.ply) < std::tie(b.game_id, b.ply);
  });
  std::string out;
  for (const auto& g : games)
    out += "game " + std::to_string(g.game_id) + " " + std::string(io::text_of(g.opening)) +
           " first " + std::to_string(g.first_player) + " winner " + std::to_string(g.winner) +
           " plies " + std::to_string(g.plies) + " " + std::string(io::text_of(g.record)) + "\n";
  for (const auto& p : plies)
    out += "ply " + std::to_string(p.game_id) + " " + std::to_string(p.ply) + " " +
           std::to_string(p.player) + " " + std::to_string(p.chance) + ":" +
           std::string(io::text_of(p.move)) + "\n";
  return out;
}

class EwnPinned : public ::testing::Test {
 protected:
  // Plays `command` (run or match) on the pinned config with extra CLI arguments; returns the
  // canonical records of the file it wrote.
  std::string play(const std::string& command, const fs::path& config, const std::string& out_name,
                   const std::string& args) {
    const fs::path out = dir_ / out_name;
    const auto r = test::run_command(std::string("'") + SELFPLAY_BINARY + "' " + command + " '" +
                                     config.string() + "' --out '" + out.string() + "' --quiet " +
                                     args + " 2>&1");
    EXPECT_EQ(r.code, 0) << r.out;
    if (r.code != 0) return {};
    return canonical_records(out.string());
  }

  // The pinned config with another concurrency and batch size, written next to the outputs
  // (relative weights paths made absolute, since the copy lives elsewhere).
  fs::path variant(const std::string& name) {
    std::string text = read_text(pinned(name));
    replace_once(text, "concurrency: 8", "concurrency: 5");
    replace_once(text, "batch_rollouts: 4096", "batch_rollouts: 512");
    const std::string rel = "../../../configs/";
    if (text.find(rel) != std::string::npos)
      replace_once(text, rel, std::string(SELFPLAY_SOURCE_DIR) + "/configs/");
    const fs::path path = dir_ / ("variant-" + name);
    std::ofstream(path) << text;
    return path;
  }

  static fs::path pinned(const std::string& name) {
    return fs::path(SELFPLAY_SOURCE_DIR) / "tests/configs/pinned" / name;
  }

  test::TempDir tmp_;
  const fs::path& dir_ = tmp_.path();
};

TEST_F(EwnPinned, CampaignRecordsMatchThePin) {
  const std::string a =
      play("run", pinned("ewn-campaign.yaml"), "a.h5", "--threads 1 --backend cpu");
  ASSERT_NE(a.find("game 23 "), std::string::npos) << "the 24 games were not all played:\n" << a;
  std::string b;
  ASSERT_NO_FATAL_FAILURE(
      b = play("run", variant("ewn-campaign.yaml"), "b.h5", "--threads 2 --backend cpu"));
  EXPECT_EQ(a, b) << "campaign records depend on concurrency, batch size or threads";
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%016" PRIx64, fnv1a64(a));
  EXPECT_EQ(fnv1a64(a), kPinnedCampaign) << "pinned EWN campaign records changed: hash now " << hex;
  EXPECT_EQ(fnv1a64(b), kPinnedCampaign);
}

TEST_F(EwnPinned, MatchRecordsMatchThePin) {
  const std::string a =
      play("match", pinned("ewn-match.yaml"), "a.h5", "--threads 1 --backend cpu");
  ASSERT_NE(a.find("game 11 "), std::string::npos)
      << "the 6 pairs (12 games) were not all played:\n"
      << a;
  std::string b;
  ASSERT_NO_FATAL_FAILURE(
      b = play("match", variant("ewn-match.yaml"), "b.h5", "--threads 2 --backend cpu"));
  EXPECT_EQ(a, b) << "match records depend on concurrency, batch size or threads";
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%016" PRIx64, fnv1a64(a));
  EXPECT_EQ(fnv1a64(a), kPinnedMatch) << "pinned EWN match records changed: hash now " << hex;
  EXPECT_EQ(fnv1a64(b), kPinnedMatch);
}

}  // namespace
}  // namespace sp
