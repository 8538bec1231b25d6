// Gomoku's host-side part (games/common/game_host.hpp): the `rules:` section (board size, win rule,
// openings), the weighted-playout keys of an engine, notation and terminal play.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "games/common/game_host.hpp"
#include "games/gomoku/game.hpp"
#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/notation.hpp"
#include "games/gomoku/playout.hpp"

namespace sp {
namespace gomoku {

enum class OpeningKind { kEmpty, kRandom };

struct Settings {
  Rules rules;
  OpeningKind opening = OpeningKind::kEmpty;
  uint8_t opening_moves = 4;  // random openings: stones placed, Black first
};

// The `rule` key's value: freestyle or standard; throws InputError otherwise (renju, which these
// rules do not implement, with its own message).
WinRule parse_win_rule(std::string_view text);
std::string win_rule_text(WinRule rule);

// Squares within this many squares of the centre (in both coordinates) hold the stones of a random
// opening: the 7x7 block around h8 on 15x15.
inline constexpr int kOpeningRadius = 3;

// A random opening of `moves` stones on the empty board of rules, Black first: each stone on an
// empty square of the central block drawn from rng, never one that would end the game. Returns the
// position; *text gets its moves in `pos` form ("h8i9g7").
State random_opening(const Rules& rules, int moves, WordStream& rng, std::string* text);

}  // namespace gomoku

template <>
struct GameHost<GomokuGame> {
  using Settings = gomoku::Settings;
  static constexpr const char* kTitle = "Gomoku";
  // `selfplay bench --search-only`: a lighter workload than the default (2000 rollouts a move,
  // depth 4), whose Gomoku games took 8 s; this keeps the search signature under a second.
  static constexpr uint32_t kSearchBenchRollouts = 400;
  static constexpr uint32_t kSearchBenchDepth = 2;
  static constexpr const char* kWeightsExample = "configs/gomoku/weights/classic.yaml";

  static config::Section<Settings> settings_section();
  static config::Section<gomoku::Policy> policy_section();
  static const gomoku::Rules& rules_of(const Settings& s) { return s.rules; }

  // The empty board, or a random opening from the stream (seed, stream_game, 0, kLeafSetup, 0).
  // Opening text: "" for the empty board, else the opening's moves ("h8i9g7").
  static gomoku::State start(const Settings& settings, uint64_t seed, uint32_t stream_game,
                             std::string* opening);

  static std::string describe_rules(const gomoku::Rules& rules);
  static std::string move_text(const gomoku::State&, gomoku::Move m) {
    return gomoku::to_string(m);
  }
  static gomoku::Move parse_move(const gomoku::State& s, const gomoku::Rules&,
                                 std::string_view text) {
    return gomoku::parse_move(s, text);
  }
  static std::string position_text(const gomoku::State& s) { return gomoku::to_string(s); }
  static gomoku::State parse_position(std::string_view text) {
    return gomoku::parse_position(text);
  }

  // Terminal play: optional hooks of game_host.hpp for `selfplay play` and `selfplay demo`.
  static std::string board_text(const gomoku::State& s);
  static std::string side_name(int side) {
    return side == 0 ? "Black (x, moves first)" : "White (o)";
  }
  static std::string side_tag(int side) { return side == 0 ? "x" : "o"; }
  static std::string move_example() { return "h8"; }
  static std::string move_help();
  static std::string rules_help(const gomoku::Rules& rules);
  static std::string win_reason(const gomoku::State& before, gomoku::Move move, bool human);

  // Gomocup protocol (pbrain engines): its (x, y) are the state's own coordinates.
  static int pbrain_board_size(const gomoku::Rules& rules) { return rules.size; }
  static int pbrain_rule(const gomoku::Rules& rules) {
    return rules.rule == gomoku::WinRule::kStandard ? 1 : 0;
  }
  static std::pair<int, int> pbrain_square(const gomoku::State&, gomoku::Move m) {
    return {m.x, m.y};
  }
  static std::optional<gomoku::Move> pbrain_move(const gomoku::State& s, int x, int y);
  static std::vector<PbrainStone> pbrain_stones(const gomoku::State& s);

  // Tuning: why playout key `key` has no effect under `policy` ("" when it has one).
  static std::string inert_policy_key(const gomoku::Policy& policy, std::string_view key) {
    if ((key == "adjacent_weight" || key == "near_weight") &&
        policy.kind != gomoku::PolicyKind::kWeighted)
      return "its playout policy is not weighted";
    return "";
  }
};

static_assert(HostGame<GomokuGame> && ProtocolGame<GomokuGame>);

}  // namespace sp
