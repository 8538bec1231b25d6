// Checkers' host-side part (core/game_host.hpp): the `rules:` section (the draw rules and
// the start position), the weighted-playout keys of an engine, openings (a FEN, the 3-move
// ballots), PDN notation and game files, and the terminal-play hooks.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/game_host.hpp"
#include "games/checkers/ballots.hpp"
#include "games/checkers/checkers.hpp"
#include "games/checkers/game.hpp"
#include "games/checkers/notation.hpp"
#include "games/checkers/openings.hpp"
#include "games/checkers/pdn.hpp"
#include "games/checkers/playout.hpp"

namespace sp {
namespace checkers {

// Where every game starts: the standard position, a FEN (without counters), the 3-move ballots
// (ballots.hpp) or the positions of an openings file (openings.hpp): stream game k plays ballot
// or position k mod N, so both games of a pair play the same one with the colours swapped.
enum class StartKind { kStandard, kFen, kBallots, kFile };

struct Start {
  StartKind kind = StartKind::kStandard;
  State position = initial_state();  // kFen: the position
};

struct Settings {
  Rules rules;
  Start start;
  std::string openings;                     // kFile: the openings file (absolute path)
  std::shared_ptr<const OpeningDeck> deck;  // kFile: its positions, read with the config
};

// The `start` key's value: "standard", "ballots", "file", or a FEN that /games can store whole (63
// characters) and that is not over; throws InputError otherwise.
Start parse_start(std::string_view text);
std::string start_text(const Start& start);

// The position a /games opening text stands for and the moves that lead there from it: "" the
// standard start, a FEN that position, a ballot ("11-15 23-19 8-11") the standard start and the
// ballot's moves. The position has the default draw limits. Throws InputError for other text.
struct Opening {
  State position = initial_state();
  std::vector<Move> moves;
};
Opening parse_opening(std::string_view text);

// "2026.11.30" from a start time "2026-11-30T22:00:00Z"; "????.??.??" (PDN's unknown date) when it
// is not one.
std::string pdn_date(std::string_view start_time);

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
  // otherwise, White after a ballot. Opening text: "" for the standard start, the FEN (of a FEN
  // or file start), or the ballot's moves ("11-15 23-19 8-11").
  static checkers::State start(const Settings& settings, uint64_t seed, uint32_t stream_game,
                               std::string* opening);

  static std::string describe_rules(const checkers::Rules& rules);
  // What a resume must match beyond the config's text (host/play/selfplay/campaign.hpp
  // run_identity): the deck of a ballots or file start, as `openings: "214 ballots, fnv1a64 ..."`,
  // so a run with another deck (an edited openings file, a program with another built-in deck) is
  // refused.
  static std::vector<std::pair<std::string, std::string>> settings_identity(
      const Settings& settings);
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

  // Game files: `selfplay export --format pdn` writes PDN (pdn.hpp). The tags: Event, Site, Date,
  // Round (the game id), Black and White (the engines), GameType 21 (English draughts), Result;
  // a FEN start adds SetUp and FEN, and a ballot game's moves start with the ballot's.
  static constexpr std::array<GameFileFormat, 1> kGameFileFormats{{{"pdn", ".pdn", false}}};
  static std::string game_file_text(const GameFileRecord& game, std::string_view format);

  // Board pictures (game_host.hpp): the 8x8 board from Black's side, row 8 at the top, the dark
  // squares numbered 1-32.
  static BoardFrame board_frame(const checkers::Rules& rules);
  static BoardPicture picture(const checkers::State& s);

  // Terminal play (`selfplay play`, `selfplay demo`): optional hooks of game_host.hpp.
  static std::string board_text(const checkers::State& s);
  static std::string side_name(int side);
  static std::string side_tag(int side) { return side == 0 ? "Black" : "White"; }
  static std::string move_example() { return "11-15"; }
  static std::string move_help();
  static std::string rules_help(const checkers::Rules& rules);
  static std::string win_reason(const checkers::State& before, checkers::Move move, bool human);

  // Endgame databases (egtb/build.hpp, egtb/tables.hpp).
  static EndgameBuildResult egtb_build(const EndgameBuildOptions& options);
  static EndgameVerifyResult egtb_verify(
      const std::string& dir, const ParallelFor& parallel_for,
      const std::function<void(const EndgameProgress&)>& progress);
  static std::shared_ptr<const EndgameProbe<checkers::State>> egtb_open(const std::string& dir);
  static uint64_t egtb_configurations(int pieces);
};

static_assert(HostGame<CheckersGame> && EndgameGame<CheckersGame>);

}  // namespace sp
