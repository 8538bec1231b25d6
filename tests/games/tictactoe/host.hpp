// Tic-tac-toe's host-side part (core/game_host.hpp), tests only: a `rules:` section with
// the first player and a number of random opening moves, so that the generic driver, campaign,
// match and HDF5 code runs a game without chance end to end.
#pragma once

#include <string>
#include <string_view>

#include <memory>

#include "core/config/schema.hpp"
#include "core/game_host.hpp"
#include "host/engines/rollout/backend.hpp"
#include "tests/games/tictactoe/game.hpp"

namespace sp {
namespace ttt {

enum class FirstPlayer { kX, kO, kAlternate };

struct Settings {
  Rules rules;
  FirstPlayer first_player = FirstPlayer::kX;
  uint32_t opening_moves = 0;  // random moves from the stream (seed, stream game, 0, kLeafSetup)
};

}  // namespace ttt

template <>
struct GameHost<TicTacToe> {
  using Settings = ttt::Settings;
  static constexpr const char* kTitle = "tic-tac-toe (tests only)";

  static config::Section<Settings> settings_section() {
    config::Section<Settings> s;
    s.choice("first_player", &Settings::first_player, ttt::FirstPlayer::kX,
             {{"x", ttt::FirstPlayer::kX},
              {"o", ttt::FirstPlayer::kO},
              {"alternate", ttt::FirstPlayer::kAlternate}},
             "who moves first; alternate switches from game to game");
    s.integer("opening_moves", &Settings::opening_moves, 0, 0, 4,
              "random moves played before the engines take over");
    return s;
  }
  static config::Section<ttt::Policy> policy_section() { return {}; }
  static const ttt::Rules& rules_of(const Settings& s) { return s.rules; }

  static ttt::State start(const Settings& settings, uint64_t seed, uint32_t stream_game,
                          std::string* opening) {
    const int first = settings.first_player == ttt::FirstPlayer::kX   ? 0
                      : settings.first_player == ttt::FirstPlayer::kO ? 1
                                                                      : int(stream_game & 1u);
    ttt::State s = ttt::initial_state(first);
    WordStream rng({seed, stream_game, 0, kLeafSetup, 0});
    std::string text;
    for (uint32_t i = 0; i < settings.opening_moves && !ttt::is_over(s); ++i) {
      ttt::MoveList list;
      ttt::generate_moves(s, list);
      const ttt::Move m = list.moves[rng.below(static_cast<uint32_t>(list.size))];
      text += (text.empty() ? "" : " ") + ttt::to_string(m);
      ttt::apply(s, m);
    }
    if (opening) *opening = text;
    return s;
  }

  static std::string describe_rules(const ttt::Rules&) { return "standard"; }
  static std::string move_text(const ttt::State&, ttt::Move m) { return ttt::to_string(m); }
  static ttt::Move parse_move(const ttt::State& s, const ttt::Rules&, std::string_view text) {
    return ttt::parse_move(s, text);
  }
  static std::string position_text(const ttt::State& s) { return ttt::to_string(s); }
  static ttt::State parse_position(std::string_view text) { return ttt::parse_position(text); }
};

static_assert(HostGame<TicTacToe>);

}  // namespace sp

namespace sp::rollout {
// The backend registry for tic-tac-toe (cpu, check, null; no CUDA kernels), in
// tests/games/tictactoe/backends.cpp: the generic campaign and match code reaches it by name.
template <>
std::unique_ptr<Backend<TicTacToe>> make_backend<TicTacToe>(const std::string& name,
                                                            const BackendOptions& options);
}  // namespace sp::rollout
