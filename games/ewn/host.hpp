// EWN's host-side part (core/game_host.hpp): the `rules:` section (rules variant, start
// arrangements, first player), the heavy-playout keys of an engine, openings, notation.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/game_host.hpp"
#include "games/ewn/ewn.hpp"
#include "games/ewn/game.hpp"
#include "games/ewn/notation.hpp"
#include "games/ewn/playout.hpp"

namespace sp {
namespace ewn {

enum class SetupKind { kRandom, kMirrored, kFixed, kExplicit };
enum class FirstPlayer { kPlayer0, kPlayer1, kAlternate };

struct Settings {
  Rules rules;
  SetupKind setup = SetupKind::kRandom;
  Arrangement setup_p0, setup_p1;  // used when setup is kExplicit (kFixed: 123456 both)
  FirstPlayer first_player = FirstPlayer::kPlayer0;
};

}  // namespace ewn

template <>
struct GameHost<EwnGame> {
  using Settings = ewn::Settings;
  static constexpr const char* kTitle = "EinStein wuerfelt nicht";
  static constexpr const char* kWeightsExample = "configs/ewn/weights/survival-distance.yaml";

  static config::Section<Settings> settings_section();
  static config::Section<ewn::PlayoutPolicy> policy_section();
  static const ewn::Rules& rules_of(const Settings& s) { return s.rules; }

  // The start arrangements (random ones from the stream (seed, stream_game, 0, kLeafSetup, 0)),
  // the first player (alternate: stream_game's parity), the die not rolled. Opening text:
  // player 0's arrangement, '/', player 1's ("123456/654321").
  static ewn::State start(const Settings& settings, uint64_t seed, uint32_t stream_game,
                          std::string* opening);

  static std::string describe_rules(const ewn::Rules& rules);
  static std::string move_text(const ewn::State&, ewn::Move m) { return ewn::to_string(m); }
  static ewn::Move parse_move(const ewn::State& s, const ewn::Rules& rules, std::string_view text) {
    return ewn::parse_move(s, rules, text);
  }
  static std::string position_text(const ewn::State& s) { return ewn::to_string(s); }
  static ewn::State parse_position(std::string_view text) { return ewn::parse_position(text); }
  static int chance_value(const ewn::State& s) { return s.die; }

  // Records (verify/export): optional hooks of game_host.hpp for files whose stored config
  // cannot be read.
  // The rules attribute as describe_rules writes it ("capture_own=true substitution=nearest", the
  // items in any order); nullopt for a text that does not name both.
  static std::optional<ewn::Rules> parse_rules(std::string_view text);
  // Player 0's arrangement, '/', player 1's ("123456/654321"), as start() writes the opening.
  static ewn::State opening_position(std::string_view opening, int first_player);
  static constexpr const char* kChanceName = "die";
  static constexpr const char* kChancesName = "dice";

  // Board pictures (game_host.hpp): the board as board_diagram draws it, row 5 at the top.
  static BoardFrame board_frame(const ewn::Rules& rules);
  static BoardPicture picture(const ewn::State& s);

  // Terminal play: optional hooks of game_host.hpp for `selfplay play` and `selfplay demo`.
  static std::string board_text(const ewn::State& s) { return ewn::board_diagram(s); }
  static std::string side_name(int side);
  static std::string side_tag(int side) { return side == 0 ? "A-F" : "a-f"; }
  static std::string chance_text(const ewn::State& s) { return "die " + std::to_string(s.die); }
  static std::string move_example() { return "b4-c3"; }
  static std::string move_help();
  static std::string rules_help(const ewn::Rules& rules);
  static std::string win_reason(const ewn::State& before, ewn::Move move, bool human);

  // Tuning
  // Why playout key `key` has no effect under `policy` ("" when it has one): SPSA says so before
  // it tunes the key (host/research/tune/spsa_game.hpp).
  static std::string inert_policy_key(const ewn::PlayoutPolicy& policy, std::string_view key) {
    if ((key == "goal_weight" || key == "capture_weight") && policy.kind != ewn::PolicyKind::kHeavy)
      return "its playout policy is not heavy";
    return "";
  }
};

static_assert(HostGame<EwnGame>);

}  // namespace sp
