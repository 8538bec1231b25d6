// Checkers' host-side part (games/common/game_host.hpp): the `rules:` section (the draw rules and
// the start position), the weighted-playout keys of an engine, openings and PDN notation.
#pragma once

#include <string>
#include <string_view>

#include "games/checkers/checkers.hpp"
#include "games/checkers/game.hpp"
#include "games/checkers/notation.hpp"
#include "games/checkers/playout.hpp"
#include "games/common/game_host.hpp"

namespace sp {
namespace checkers {

// Where every game starts: the standard position, or a FEN (without counters).
struct Start {
  bool standard = true;
  State position = initial_state();
};

struct Settings {
  Rules rules;
  Start start;
};

// The `start` key's value: "standard" or a FEN that /games can store whole (63 characters) and
// that is not over; throws InputError otherwise.
Start parse_start(std::string_view text);
std::string start_text(const Start& start);

}  // namespace checkers

template <>
struct GameHost<CheckersGame> {
  using Settings = checkers::Settings;
  static constexpr const char* kTitle = "English checkers";
  static constexpr const char* kWeightsExample = "configs/checkers/weights/classic.yaml";

  static config::Section<Settings> settings_section();
  static config::Section<checkers::Policy> policy_section();
  static const checkers::Rules& rules_of(const Settings& s) { return s.rules; }

  // The start position with the rules' draw limits; Black moves first unless a FEN says
  // otherwise. Opening text: "" for the standard start, else the FEN.
  static checkers::State start(const Settings& settings, uint64_t seed, uint32_t stream_game,
                               std::string* opening);

  static std::string describe_rules(const checkers::Rules& rules);
  static std::string move_text(const checkers::State&, checkers::Move m) {
    return checkers::to_string(m);
  }
  static checkers::Move parse_move(const checkers::State& s, const checkers::Rules&,
                                   std::string_view text) {
    return checkers::parse_move(s, text);
  }
  static std::string position_text(const checkers::State& s) { return checkers::to_string(s); }
  static checkers::State parse_position(std::string_view text) {
    return checkers::parse_position(text);
  }
};

static_assert(HostGame<CheckersGame>);

}  // namespace sp
