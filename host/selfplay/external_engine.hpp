// An external program speaking selfplay's engine protocol (docs/engine-protocol.md) as an Engine
// of the driver (`type: external`), for games without chance: START <game>, the clock as INFO
// lines, and per move `POSITION <start> MOVES <moves since>` and GO, answered with a move in the
// game's notation. As PbrainEngine: begin() sends the request and returns, the driver polls, a
// program that fails (time, crash, an answer that is not a legal move) forfeits the game, and each
// game runs in a fresh process.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "games/common/errors.hpp"
#include "games/common/game_host.hpp"
#include "host/config/campaign_config.hpp"
#include "host/search/engine.hpp"
#include "host/selfplay/engine_client.hpp"
#include "host/selfplay/pbrain_engine.hpp"

namespace sp::selfplay {

// Games an external engine of this protocol can play: a position text and move notation carry
// the whole game (no chance outcomes to send).
template <class G>
concept LineProtocolGame = HostGame<G> && !ChanceGame<G>;

template <LineProtocolGame G>
class ExternalEngine final : public search::Engine<G> {
 public:
  using typename search::Engine<G>::State;
  using typename search::Engine<G>::Move;
  using typename search::Engine<G>::Leaf;

  ExternalEngine(ClientSettings settings, const typename G::Rules& rules)
      : client_(for_game(std::move(settings))), rules_(rules) {}

  // Starts the program once, sends START and waits for its answer, then ends it: throws
  // InputError when it refuses the game (ERROR) and std::runtime_error when it cannot be started;
  // a crash or a late answer is left to the games (each forfeits).
  static void probe(ClientSettings settings) {
    EngineClient client(for_game(std::move(settings)));
    client.start_game();
    client.wait_started();
    client.end_game();
  }

  std::string describe() const override {
    const ClientSettings& s = client_.settings();
    std::string out = "external(" + config::command_text(s.command) + ", " +
                      std::to_string(s.timeout_turn_ms) + " ms/move";
    if (s.timeout_match_ms) out += ", " + std::to_string(s.timeout_match_ms) + " ms/game";
    return out + ")";
  }
  void new_game() override {
    client_.start_game();
    start_.reset();
    moves_.clear();
  }
  void game_started(const State& start) override {
    start_ = GameHost<G>::position_text(start);
    last_ = start;
  }
  void begin(const State& root, const search::SearchIds&) override {
    // Without a start (a driver that does not tell it) the root stands for the game so far.
    std::string position = "POSITION " + (start_ ? *start_ : GameHost<G>::position_text(root));
    if (start_ && !moves_.empty()) {
      position += " MOVES";
      for (const std::string& m : moves_) position += " " + m;
    }
    root_ = last_ = root;
    client_.request({position, "GO"});
    check_answer();
  }
  void collect(std::vector<Leaf>&) override {
    client_.poll();
    check_answer();
  }
  void absorb(std::span<const rollout::LeafStats>) override {}
  bool decided() const override {
    return client_.phase() == EngineClient::Phase::kAnswered ||
           client_.phase() == EngineClient::Phase::kForfeit;
  }
  Move decision(search::MoveStats* stats) override {
    if (stats) *stats = search::MoveStats{};
    return move_;
  }
  void observe(Move move, const State& next_root) override {
    moves_.push_back(GameHost<G>::move_text(last_, move));
    last_ = next_root;
  }
  std::optional<search::ExternalWait> waiting() const override { return client_.waiting(); }
  std::optional<search::Forfeit> forfeit() const override {
    if (client_.phase() != EngineClient::Phase::kForfeit) return std::nullopt;
    return client_.forfeit();
  }
  void end_game() override { client_.end_game(); }

 private:
  static ClientSettings for_game(ClientSettings settings) {
    settings.protocol = "external";
    settings.start = std::string("START ") + G::kName;
    settings.info = {
        "INFO timeout_turn " + std::to_string(settings.timeout_turn_ms),
        "INFO timeout_match " + std::to_string(settings.timeout_match_ms),
    };
    return settings;
  }

  // An answer that arrived: a legal move of the root, or an illegal-move forfeit.
  void check_answer() {
    if (client_.phase() != EngineClient::Phase::kAnswered) return;
    try {
      move_ = GameHost<G>::parse_move(root_, rules_, client_.answer_text());
    } catch (const InputError& e) {  // not a move, or not a legal one
      client_.reject("answered '" + excerpt(client_.answer_text()) + "': " + e.what());
    }
  }

  EngineClient client_;
  typename G::Rules rules_;
  std::optional<std::string> start_;  // the start position's text
  std::vector<std::string> moves_;    // the moves since, in the game's notation
  State root_{};                      // the position of the request
  State last_{};                      // the position before the next observed move
  Move move_{};
};

}  // namespace sp::selfplay
