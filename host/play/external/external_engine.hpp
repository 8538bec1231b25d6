// An external program speaking selfplay's engine protocol (docs/engine-protocol.md) as an Engine
// of the driver (`type: external`), for games without chance: START <game>, the clock as INFO
// lines, and per move `POSITION <start> MOVES <moves since>` and GO, answered with a move in the
// game's notation, over ProgramEngine (program_engine.hpp) as PbrainEngine: the driver polls, a
// program that fails (time, crash, an answer that is not a legal move) forfeits the game, and each
// game runs in a fresh process.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/game_host.hpp"
#include "host/engines/search/engine.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/external/engine_client.hpp"
#include "host/play/external/program_engine.hpp"

namespace sp::selfplay {

// Games an external engine of this protocol can play: a position text and move notation carry
// the whole game (no chance outcomes to send).
template <class G>
concept LineProtocolGame = HostGame<G> && !ChanceGame<G>;

template <LineProtocolGame G>
class ExternalEngine final : public ProgramEngine<G> {
 public:
  using typename search::Engine<G>::State;
  using typename search::Engine<G>::Move;

  ExternalEngine(ClientSettings settings, const typename G::Rules& rules)
      : ProgramEngine<G>(for_game(std::move(settings))), rules_(rules) {}

  // probe_program (program_engine.hpp) with START <game>.
  static void probe(ClientSettings settings) { probe_program(for_game(std::move(settings))); }

  void new_game() override {
    this->client_.start_game();
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
    last_ = root;
    this->request(root, {position, "GO"});
  }
  void observe(Move move, const State& next_root) override {
    moves_.push_back(GameHost<G>::move_text(last_, move));
    last_ = next_root;
  }

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

  Move parse_answer(const std::string& line) const override {
    return GameHost<G>::parse_move(this->root_, rules_, line);
  }

  typename G::Rules rules_;
  std::optional<std::string> start_;  // the start position's text
  std::vector<std::string> moves_;    // the moves since, in the game's notation
  State last_{};                      // the position before the next observed move
};

}  // namespace sp::selfplay
