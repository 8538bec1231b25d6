// Gomoku's host-side part (core/game_host.hpp): the `rules:` section (board size, win rule,
// openings), the weighted-playout keys of an engine, notation and terminal play.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/engine.hpp"
#include "core/game_host.hpp"
#include "core/native_engine.hpp"
#include "games/gomoku/game.hpp"
#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/notation.hpp"
#include "games/gomoku/openings.hpp"
#include "games/gomoku/playout.hpp"

namespace sp {
namespace gomoku {

// Where games start: the empty board, random stones near the centre, or the openings of a file
// (openings.hpp): stream game k (pair k when paired) plays opening k mod N, so both games of a
// pair play it with the colours swapped.
enum class OpeningKind { kEmpty, kRandom, kFile };

struct Settings {
  Rules rules;
  OpeningKind opening = OpeningKind::kEmpty;
  uint8_t opening_moves = 4;  // random openings: stones placed, Black first
  // opening: file. The `openings` key's absolute path, "" for the shipped file built into the
  // program; the file as read (checked against the rules once the section is read).
  std::string openings_path;
  std::shared_ptr<const OpeningFile> openings;
};

// The `rule` key's value: freestyle or standard; throws InputError otherwise (renju, which these
// rules do not implement, with its own message).
WinRule parse_win_rule(std::string_view text);
std::string win_rule_text(WinRule rule);

// The longest opening text /games stores (its `opening` column, string[64]): an opening file's
// lines must fit, or the records could not be replayed.
inline constexpr size_t kMaxOpeningText = 63;

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

  // The empty board, a random opening from the stream (seed, stream_game, 0, kLeafSetup, 0), or
  // opening stream_game mod N of the openings file. Opening text: "" for the empty board, else
  // the opening's moves ("h8i9g7").
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

  // Game files (game_files.hpp): `selfplay export --format psq` (piskvork, one game per file)
  // and `--format sgf`; the board size and rule come from game.rules as describe_rules writes it.
  static constexpr std::array<GameFileFormat, 2> kGameFileFormats{
      {{"psq", ".psq", true}, {"sgf", ".sgf", false}}};
  static std::string game_file_text(const GameFileRecord& game, std::string_view format);

  // Terminal play: optional hooks of game_host.hpp for `selfplay play` and `selfplay demo`.
  // Board pictures (game_host.hpp): stones on the intersections, row 1 at the top as the
  // notation counts; the winning row of a won game marked.
  static BoardFrame board_frame(const gomoku::Rules& rules);
  static BoardPicture picture(const gomoku::State& s);

  static std::string board_text(const gomoku::State& s);
  static std::string side_name(int side) {
    return side == 0 ? "Black (x, moves first)" : "White (o)";
  }
  static std::string side_tag(int side) { return side == 0 ? "x" : "o"; }
  static std::string move_example() { return "h8"; }
  static std::string move_help();
  // In place of the ~200 legal moves: the coordinates to type, then the squares that win at once
  // or, when the opponent threatens five, the squares that stop it.
  static std::string moves_hint(const gomoku::State& s);
  static std::string rules_help(const gomoku::Rules& rules);
  static std::string win_reason(const gomoku::State& before, gomoku::Move move, bool human);

  // Gomocup protocol (`selfplay pbrain`): optional hooks of game_host.hpp. Coordinates are the
  // rules' own: x the column from the left, y the row from the top, 0-based (a move's x, y).
  // START n / RECTSTART w,h: 15x15 and 20x20 only.
  static gomoku::Rules pbrain_board(const gomoku::Rules& rules, int width, int height);
  // INFO rule: 0 freestyle, bit 1 exactly five (standard); bit 2 (continuous games) is ignored;
  // renju (bit 4), caro (bit 8) and unknown bits are refused.
  static gomoku::Rules pbrain_rule(const gomoku::Rules& rules, int64_t bits);
  // What matches send external engines: START n, INFO rule.
  static int pbrain_board_size(const gomoku::Rules& rules) { return rules.size; }
  static int pbrain_rule_bits(const gomoku::Rules& rules) {
    return rules.rule == gomoku::WinRule::kStandard ? 1 : 0;
  }
  static gomoku::State pbrain_start(const gomoku::Rules& rules) {
    return gomoku::initial_state(rules);
  }
  static gomoku::Move pbrain_move(const gomoku::State& s, int64_t x, int64_t y);
  static std::pair<int, int> pbrain_xy(gomoku::Move m) { return {m.x, m.y}; }
  static std::vector<PbrainStone> pbrain_stones(const gomoku::State& s);

  // Resume: with opening: file, the openings by content ("300 openings, fnv1a64 ..."), whatever
  // file they were read from; otherwise the key is left out (files from before it resume).
  static std::vector<std::pair<std::string, std::string>> settings_identity(
      const gomoku::Settings& settings);

  // `search: pattern` (games/gomoku/pattern_engine.hpp): the engine of an alphabeta config, and
  // why a config cannot have it ("" when it can): its weights must leave the window features
  // (own_five .. opp_two) at 0, which the pattern search does not count.
  static std::unique_ptr<search::Engine<GomokuGame>> native_engine(
      const search::NativeEngineSpec& spec, const gomoku::Rules& rules);
  static std::string check_native_engine(const search::NativeEngineSpec& spec);

  // Tuning: why playout key `key` has no effect under `policy` ("" when it has one).
  static std::string inert_policy_key(const gomoku::Policy& policy, std::string_view key) {
    if ((key == "adjacent_weight" || key == "near_weight") &&
        policy.kind == gomoku::PolicyKind::kUniform)
      return "its playout policy is uniform";
    if (key == "temperature" && policy.kind != gomoku::PolicyKind::kPattern)
      return "its playout policy is not pattern";
    return "";
  }
};

static_assert(HostGame<GomokuGame> && ProtocolGame<GomokuGame>);

}  // namespace sp
