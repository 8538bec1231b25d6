// Shared by the campaign tests: every stored game of a campaign file replayed through the game's
// rules from its opening to its stored result, each row checked against the replay, the sampled
// positions' features recomputed; a file's records as comparable text; a config read from YAML
// text with its weights file filled in, and a campaign played into a file.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "core/game_host.hpp"
#include "core/repetition.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "host/play/selfplay/driver.hpp"
#include "tests/test_util.hpp"

namespace sp::test {

// Replays every game of the campaign file at path (written with cfg, a game without chance whose
// namespace has state_ok(State)), with the repetition rule where the game has one. Returns the
// number of plies replayed; *repetitions, when given, gets the number of games the repetition
// rule drew; on_position, when given, sees the position of each /positions row.
template <HostGame G>
int replay_stored_games(
    const std::string& path, const config::Config<G>& cfg, int* repetitions = nullptr,
    const std::function<void(const typename G::State&)>& on_position = nullptr) {
  using Host = GameHost<G>;
  const auto& rules = Host::rules_of(cfg.rules);
  io::CampaignReader reader(path);
  EXPECT_EQ(reader.meta().game, G::kName);
  EXPECT_EQ(reader.meta().rules, Host::describe_rules(rules));
  EXPECT_EQ(reader.meta().feature_names.size(), static_cast<size_t>(G::kNumFeatures));
  auto plies = reader.plies();
  std::sort(plies.begin(), plies.end(), [](const auto& a, const auto& b) {
    return std::tie(a.game_id, a.ply) < std::tie(b.game_id, b.ply);
  });
  const auto positions = reader.positions();
  const auto features = reader.features();
  int replayed = 0;
  if (repetitions) *repetitions = 0;
  for (const auto& g : reader.games()) {
    std::string opening;
    typename G::State s =
        Host::start(cfg.rules, cfg.seed,
                    selfplay::stream_game(cfg, static_cast<uint32_t>(g.game_id)), &opening);
    EXPECT_EQ(io::text_of(g.opening), opening) << "game " << g.game_id;
    EXPECT_EQ(g.first_player, G::side_to_move(s)) << "game " << g.game_id;
    std::vector<typename G::State> before;  // the position before each ply
    std::string record;
    PositionHistory<G> history(rules);
    history.reset(s);
    bool repeated = false;
    for (const auto& p : plies) {
      if (p.game_id != g.game_id) continue;
      EXPECT_FALSE(G::is_over(s) || repeated) << "game " << g.game_id << " goes on after its end";
      EXPECT_EQ(p.ply, before.size());
      EXPECT_EQ(p.player, G::side_to_move(s));
      EXPECT_EQ(p.chance, io::kNoChance);
      before.push_back(s);
      const typename G::Move m = Host::parse_move(s, rules, io::text_of(p.move));
      EXPECT_EQ(Host::move_text(s, m), io::text_of(p.move)) << "moves are stored in full";
      record += (record.empty() ? "" : " ") + Host::move_text(s, m);
      G::apply(s, m);
      repeated = history.push(s);
      EXPECT_TRUE(state_ok(s)) << Host::position_text(s);
      ++replayed;
    }
    EXPECT_EQ(before.size(), g.plies) << "game " << g.game_id;
    EXPECT_TRUE(G::is_over(s) || repeated) << "game " << g.game_id << " stops before its end";
    const int winner = G::is_over(s) ? G::winner(s) : G::kNoWinner;
    if (repetitions && repeated && !G::is_over(s)) ++*repetitions;
    EXPECT_EQ(g.winner, winner == G::kNoWinner ? -1 : winner) << "game " << g.game_id;
    if (!g.record_truncated) {
      EXPECT_EQ(io::text_of(g.record), record);
    }
    // The sampled positions: side to move, result and features recomputed from the replay.
    for (size_t i = 0; i < positions.size(); ++i) {
      const auto& row = positions[i];
      if (row.game_id != g.game_id) continue;
      EXPECT_LT(row.ply, before.size());
      if (row.ply >= before.size()) continue;
      const typename G::State& at = before[row.ply];
      if (on_position) on_position(at);
      const int side = G::side_to_move(at);
      EXPECT_EQ(row.side_to_move, side);
      EXPECT_EQ(row.result, g.winner < 0 ? 0.5f : (g.winner == side ? 1.f : 0.f));
      float f[G::kNumFeatures];
      G::extract_features(at, rules, f);
      for (int k = 0; k < G::kNumFeatures; ++k)
        EXPECT_EQ(features[i * G::kNumFeatures + k], f[k])
            << "game " << g.game_id << " ply " << row.ply << " " << G::feature_names()[k];
    }
  }
  return replayed;
}

// The file's games in game-id order: id, winner, opening and record, one line each.
inline std::string stored_records(const std::string& path) {
  io::CampaignReader reader(path);
  auto games = reader.games();
  std::sort(games.begin(), games.end(),
            [](const auto& a, const auto& b) { return a.game_id < b.game_id; });
  std::string out;
  for (const auto& g : games)
    out += std::to_string(g.game_id) + " winner " + std::to_string(g.winner) + " opening " +
           std::string(io::text_of(g.opening)) + ": " + std::string(io::text_of(g.record)) + "\n";
  return out;
}

// The config of YAML `text` whose one WEIGHTS stands for the weights file `weights` (a path under
// the source tree).
template <HostGame G>
config::Config<G> config_with_weights(std::string text, const std::string& weights) {
  const size_t at = text.find("WEIGHTS");
  if (at != std::string::npos) text.replace(at, 7, test::source_path(weights));
  return config::load_campaign_config_text<G>(text, "small.yaml");
}

// Plays cfg into path (every game, in this process) and returns the file's records.
template <HostGame G>
std::string play_campaign(config::Config<G> cfg, const std::string& path) {
  cfg.output.path = path;
  std::atomic<bool> stop{false};
  const selfplay::RunResult r = selfplay::run_campaign<G>(cfg, {}, stop);
  EXPECT_EQ(r.games_played, cfg.games);
  return stored_records(path);
}

}  // namespace sp::test
