// A human plays EWN against one engine through a pair of text streams (a terminal, or scripted
// streams in tests). Setups, first player and dice come from the same functions as self-play
// (initial_position, roll_die keyed by the seed, a game counter and the ply), so a seed replays
// the same dice; the engine searches to completion on the given backend before each of its moves.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "games/ewn/ewn.hpp"
#include "games/ewn/game.hpp"
#include "games/ewn/host.hpp"
#include "host/config/campaign_config.hpp"
#include "host/rollout/backend.hpp"
#include "host/search/engine.hpp"

namespace sp::selfplay {

struct SessionSummary {
  uint32_t games_finished = 0;
  uint32_t human_wins = 0;
  uint32_t engine_wins = 0;
  bool quit = false;  // ended by `quit` or end of input rather than by declining another game
};

// Backend options sized for the rounds of one engine (cfg.engines[0]): a single game in flight.
rollout::BackendOptions play_backend_options(const config::CampaignConfig& cfg);

class HumanGame {
 public:
  // The engine is cfg.engines[0]; the rules, setup, first player and seed come from cfg (game
  // counter g uses the setup and dice of game g, unpaired). When human_first, the human takes the
  // side that moves first, otherwise the other one. backend, in and out must outlive this object.
  HumanGame(const config::Config<EwnGame>& cfg, rollout::Backend<EwnGame>& backend, bool human_first,
            std::istream& in, std::ostream& out);
  ~HumanGame();

  // Plays games until the human quits, input ends or another game is declined. Never throws on
  // bad input; backend failures propagate.
  SessionSummary run();

 private:
  enum class End { kFinished, kQuit };
  End play_game(uint32_t game);
  // The human's move, or nothing when the human quits or input ends.
  std::optional<ewn::Move> read_human_move(const ewn::State& s);
  ewn::Move engine_move(const ewn::State& s, uint32_t game, uint32_t ply);
  bool ask_play_again();
  bool read_line(std::string& line);  // prompt already written; false at end of input
  void show_position(const ewn::State& s, uint32_t ply) const;
  void show_moves(const ewn::State& s) const;
  void show_help() const;

  config::Config<EwnGame> cfg_;
  rollout::Backend<EwnGame>& backend_;
  bool human_first_;
  std::istream& in_;
  std::ostream& out_;
  std::unique_ptr<search::Engine<EwnGame>> engine_;
  rollout::PlayoutParams<EwnGame> params_;
  std::vector<rollout::Leaf<EwnGame>> leaves_;
  std::vector<rollout::LeafStats> stats_;
  int human_side_ = 0;
  SessionSummary summary_;
};

}  // namespace sp::selfplay
