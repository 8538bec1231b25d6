// An external program speaking the Gomocup protocol as an Engine of the driver (`type: pbrain`),
// for games whose host part has the protocol's hooks (ProtocolGame, games/common/game_host.hpp).
// begin() sends the request and returns; the driver polls the program's output while other games
// go on (Driver::wake_external sleeps in poll() when nothing else is left), and collect() reads
// the answer. A program that fails (time, crash, illegal answer) forfeits the game; each game
// runs in a fresh process, so a crashed engine plays the next game again.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "games/common/game_host.hpp"
#include "host/config/campaign_config.hpp"
#include "host/config/campaign_schema.hpp"
#include "host/search/engine.hpp"
#include "host/selfplay/pbrain_client.hpp"

namespace sp::selfplay {

// The client settings of a pbrain engine config (board size and rule come from the game).
inline PbrainSettings pbrain_settings(const config::EngineConfig& cfg) {
  PbrainSettings s;
  s.command = cfg.command;
  s.timeout_turn_ms = cfg.timeout_turn_ms;
  s.timeout_match_ms = cfg.timeout_match_ms;
  s.tolerance_ms = cfg.tolerance_ms;
  return s;
}

template <ProtocolGame G>
class PbrainEngine final : public search::Engine<G> {
 public:
  using typename search::Engine<G>::State;
  using typename search::Engine<G>::Move;
  using typename search::Engine<G>::Leaf;

  PbrainEngine(PbrainSettings settings, const typename G::Rules& rules)
      : client_(for_rules(std::move(settings), rules)) {}

  // Starts the program once, sends START and waits for its answer, then ends it: throws
  // InputError when it refuses the board (ERROR) and std::runtime_error when it cannot be
  // started; a crash or a late answer is left to the games (each forfeits).
  static void probe(PbrainSettings settings, const typename G::Rules& rules) {
    PbrainClient client(for_rules(std::move(settings), rules));
    client.start_game();
    client.end_game();
  }

  std::string describe() const override {
    const PbrainSettings& s = client_.settings();
    std::string out = "pbrain(" + config::command_text(s.command) + ", " +
                      std::to_string(s.timeout_turn_ms) + " ms/move";
    if (s.timeout_match_ms) out += ", " + std::to_string(s.timeout_match_ms) + " ms/game";
    return out + ")";
  }
  void new_game() override {
    client_.start_game();
    synced_ = false;
    own_move_ = false;
    unseen_.clear();
  }
  void begin(const State& root, const search::SearchIds&) override {
    std::vector<std::string> lines;
    const std::vector<PbrainStone> stones = GameHost<G>::pbrain_stones(root);
    // TURN when it knows the position but the opponent's move, as after its own last move, or
    // when that move is the only stone (the second player's first move of an empty-board game).
    if (unseen_.size() == 1 && (synced_ || stones.size() == 1)) {
      const auto [x, y] = GameHost<G>::pbrain_xy(unseen_[0]);
      lines.push_back("TURN " + std::to_string(x) + "," + std::to_string(y));
    } else {
      // The first request of a game, or moves it has not seen one by one: the whole position.
      if (stones.empty()) {
        lines.push_back("BEGIN");
      } else {
        const int me = G::side_to_move(root);
        lines.push_back("BOARD");
        for (const PbrainStone& st : stones)
          lines.push_back(std::to_string(st.x) + "," + std::to_string(st.y) + "," +
                          (st.player == me ? "1" : "2"));
        lines.push_back("DONE");
      }
    }
    unseen_.clear();
    synced_ = true;
    root_ = root;
    client_.request(lines);
    check_answer();
  }
  void collect(std::vector<Leaf>&) override {
    client_.poll();
    check_answer();
  }
  void absorb(std::span<const rollout::LeafStats>) override {}
  bool decided() const override {
    return client_.phase() == PbrainClient::Phase::kAnswered ||
           client_.phase() == PbrainClient::Phase::kForfeit;
  }
  Move decision(search::MoveStats* stats) override {
    if (stats) *stats = search::MoveStats{};
    own_move_ = true;
    return move_;
  }
  void observe(Move move, const State&) override {
    if (own_move_) {
      own_move_ = false;
      return;
    }
    unseen_.push_back(move);
  }
  std::optional<search::ExternalWait> waiting() const override { return client_.waiting(); }
  std::optional<search::Forfeit> forfeit() const override {
    if (client_.phase() != PbrainClient::Phase::kForfeit) return std::nullopt;
    return client_.forfeit();
  }
  void end_game() override { client_.end_game(); }

 private:
  static PbrainSettings for_rules(PbrainSettings settings, const typename G::Rules& rules) {
    settings.board_size = GameHost<G>::pbrain_board_size(rules);
    settings.rule = GameHost<G>::pbrain_rule_bits(rules);
    return settings;
  }

  // An answer that arrived: the legal move on its square, or an illegal-move forfeit.
  void check_answer() {
    if (client_.phase() != PbrainClient::Phase::kAnswered) return;
    const auto [x, y] = *client_.answer();
    try {
      move_ = GameHost<G>::pbrain_move(root_, x, y);
    } catch (const InputError& e) {  // off the board or an occupied square
      client_.reject("answered " + std::to_string(x) + "," + std::to_string(y) + ": " + e.what());
    }
  }

  PbrainClient client_;
  bool synced_ = false;       // the program knows the position up to its own last move
  bool own_move_ = false;     // the next observe() is the move it chose
  std::vector<Move> unseen_;  // moves played since its last request
  State root_{};
  Move move_{};
};

}  // namespace sp::selfplay
