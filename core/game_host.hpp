// The host-side part of a game: what campaigns, matches, records and human play need beyond the
// rules that rollouts and kernels share (core/game.hpp). Each game specializes
// GameHost<G> in games/<game>/host.hpp; host code is templated on HostGame and never names a
// game's types. Host only (g++): it declares the game's config keys with core/'s schema library
// (core/config/schema.hpp).
//
// What a specialization provides (checked by HostGame):
//   kTitle                    "EinStein wuerfelt nicht": the game's name in help and summaries
//   Settings                  the `rules:` section: rules variant and how openings are chosen;
//                             default-constructed = the declared defaults
//   settings_section()        Section<Settings> declaring those keys
//   policy_section()          Section<G::Policy>: an engine's playout keys
//   rules_of(settings)        the G::Rules inside the settings
//   start(settings, seed, stream_game, opening)
//                             the position game `stream_game` starts from (chance not yet drawn),
//                             a function of its arguments only; *opening gets its text as /games
//                             stores it ("123456/654321"; "" for the usual start)
//   describe_rules(rules)     the rules as one line of text ("capture_own=true ...")
//   move_text(before, move)   a move in the game's notation
//   parse_move(s, rules, text) a legal move of s from its text; throws InputError otherwise
//   position_text(s), parse_position(text)
//   kWeightsExample           optional, games with features: a weights file to name in messages
//   chance_value(s)           chance games: the drawn outcome of decision state s as its
//                             notation and the /plies `chance` column write it (EWN: the die 1..6)
//   Optional, for `selfplay verify` (host/records/game_record_rules.hpp) when a file's stored
//   config cannot be read (without them such a file is refused):
//   parse_rules(text)         std::optional<G::Rules> from describe_rules' text; nullopt otherwise
//   opening_position(opening, first_player)
//                             the start position a /games opening text stands for, chance not
//                             drawn; throws InputError for a text that is no opening
//   kChanceName, kChancesName optional, chance games: a chance outcome in messages ("die", "dice")
// Terminal play (`selfplay play`, `selfplay demo`; host/play/terminal/human_game.hpp), all
// optional, found at compile time; without them the terminal shows the plain defaults in brackets:
//   board_text(s)             the board, lines ending in '\n' [the position text]
//   side_name(side)           "player 0 (cubes A-F, from the top-left corner to e1)" ["player 0"]
//   side_tag(side)            a short mark after "player 0" in the turn line: "A-F" [none]
//   chance_text(s)            chance games: the drawn outcome in the turn line: "die 3"
//                             ["chance N", N = chance_value(s)]
//   move_example()            a move to quote in prompts: "b4-c3" [a legal move of the start]
//   moves_hint(s)             what the human is shown in place of the legal moves list, lines
//                             ending in '\n', for games with too many moves to list (Gomoku)
//                             ["Legal moves: " and every legal move]
//   move_help()               the help's lines on typing a move, each "  <syntax>  what\n"
//                             ["  <move>  play a move as the legal moves list it, e.g. ..."]
//   rules_help(rules)         the help's paragraph on the rules variant, lines ending in '\n'
//                             [none]
//   win_reason(before, move, human)
//                             why the move that ended the game won it, worded for a human
//                             winner ("your cube reached e1") or the engine ("its cube reached
//                             e1") [none: "You win." / "Engine wins."]
// Game files (`selfplay export --format NAME`; host/records/export.hpp), optional:
//   kGameFileFormats          the game's own game-file formats (std::array of GameFileFormat:
//                             checkers {pdn}, Gomoku {psq, sgf})
//   game_file_text(game, format)
//                             one stored game (GameFileRecord) in that format (one of
//                             kGameFileFormats' names), ready to be concatenated with the others
//                             (or written alone, for a format of one game per file); throws
//                             InputError for a record that does not replay (its opening or a move
//                             is not legal)
// Board pictures (`selfplay export --format html` and `--format boards`, the notebooks' boards;
// host/records/viewer.hpp), optional, both or none (PictureGame):
//   board_frame(rules)        the board's shape, drawing style and labels (BoardFrame)
//   picture(s)                the pieces on the board of s, one character per square in the
//                             frame's style's alphabet, and the squares to mark (BoardPicture)
// Resume (host/play/selfplay/campaign.hpp run_identity), optional:
//   settings_identity(settings)  vector of (key, text) pairs that replace `rules.<key>` in the
//                             identity a resume must match: what decides the games beyond the
//                             config's text (checkers: the deck of openings, by content); an
//                             empty text removes the key (one that does not apply, left out so
//                             that files written before it existed still resume)
// Tuning (`selfplay tune`, SPSA; host/research/tune/spsa_game.hpp), optional:
//   inert_policy_key(policy, key)  why playout key `key` has no effect under `policy` ("" when it
//                             has one), noted before SPSA tunes it
// Bench (`selfplay bench --search-only`; host/play/selfplay/search_bench.hpp), optional:
//   kSearchBenchRollouts, kSearchBenchDepth  a lighter search workload for wide games
// Gomocup protocol, optional, all or none (ProtocolGame): `selfplay pbrain` (our engine speaks it;
// host/protocols/pbrain.hpp) and `type: pbrain` engines (external programs in matches;
// host/play/external/pbrain_engine.hpp). For games of two sides placing pieces on squares (x, y), x
// the column from the left and y the row from the top, 0-based, the first player (side 0) moving
// first. Without them both refuse the game.
//   pbrain_board(rules, width, height)  the rules for a board of width x height (START n is n x n);
//                             throws InputError for a size the game does not play
//   pbrain_board_size(rules)  the n of `START n` for these rules
//   pbrain_rule(rules, bits)  the rules under INFO rule's bitmask (1 exactly five, 2 continuous,
//                             4 renju, 8 caro; 0 freestyle); throws InputError for what the game
//                             does not play
//   pbrain_rule_bits(rules)   the bitmask INFO rule sends for these rules
//   pbrain_start(rules)       the empty board, side 0 to move
//   pbrain_move(s, x, y)      the legal move of s on square (x, y) (int64_t); throws InputError for
//                             a square off the board, an occupied one or a finished game
//   pbrain_xy(move)           the move's square as std::pair<int, int>{x, y}
//   pbrain_stones(s)          the stones on the board (std::vector<PbrainStone>), for `BOARD`
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/config/schema.hpp"
#include "core/endgame.hpp"
#include "core/game.hpp"

namespace sp {

template <class G>
struct GameHost;

// One stored game as `selfplay export --format` hands it to GameHost<G>::game_file_text.
struct GameFileRecord {
  uint64_t game_id = 0;
  std::string opening;             // as /games stores it ("" for the usual start)
  int first_player = 0;            // the player to move at the opening
  int winner = -1;                 // 0 or 1; -1 for a draw
  std::vector<std::string> moves;  // each ply's move text as /plies stores it, in ply order
  std::vector<int> chances;        // each ply's /plies chance (-1 in a game without chance)
  std::vector<float> times_ms;     // each ply's /plies time_ms: how long the engine thought
  std::string players[2];          // who played player 0 and player 1 ("" when not known)
  std::string event;               // "selfplay campaign" or "selfplay match"
  std::string site;                // the host the file was written on ("" when not known)
  std::string start_time;          // when the file was started, "2026-11-30T22:00:00Z" or ""
  std::string rules;               // the file's rules as describe_rules writes them
  std::string program;             // what played the games: "selfplay 0.1.0, commit ..." or ""
};

// A game-file format of `selfplay export --format NAME`.
struct GameFileFormat {
  const char* name;        // "pdn"
  const char* extension;   // of a file holding it: ".pdn"
  bool one_game_per_file;  // the format holds one game (psq): --out names a directory
};

// How a game's board is drawn (`selfplay export --format html`, the notebooks): the style names
// the pieces' alphabet and look, the labels are what the margins and squares show.
//   "ewn"       '.' empty, 'A'-'F' player 0's cubes 1-6, 'a'-'f' player 1's cubes 1-6
//   "checkers"  '-' a light square (never played), '.' an empty dark square, 'b' 'B' Black's
//               (player 0's) man and king, 'w' 'W' White's (player 1's) man and king
//   "gomoku"    '.' empty, 'x' a Black stone (player 0), 'o' a White stone (player 1); stones
//               stand on the intersections of a width x height grid
struct BoardFrame {
  std::string style;
  int width = 0, height = 0;
  std::vector<std::string> columns;  // width labels, left to right ("a".."e")
  std::vector<std::string> rows;     // height labels, top to bottom ("5".."1")
  std::vector<std::string> squares;  // width*height labels inside the squares, "" for none
                                     // (checkers: the square numbers 1-32); empty for none at all
};

// The board of one position in its frame: `cells` has width*height characters, row by row from
// the top, left to right; `marks` lists squares (row * width + column) to draw highlighted, in
// increasing order (Gomoku: the winning row).
struct BoardPicture {
  std::string cells;
  std::vector<int> marks;
};

// A stone as the Gomocup protocol's BOARD command lists it; player 0 or 1.
struct PbrainStone {
  int x = 0, y = 0, player = 0;
};

// clang-format off
template <class G>
concept HostGame =
    Game<G> &&
    requires(const typename GameHost<G>::Settings& settings, const typename G::State& s,
             const typename G::Rules& rules, typename G::Move m, std::string* text,
             std::string_view view) {
      { GameHost<G>::kTitle } -> std::convertible_to<const char*>;
      { GameHost<G>::settings_section() } ->
          std::same_as<config::Section<typename GameHost<G>::Settings>>;
      { GameHost<G>::policy_section() } -> std::same_as<config::Section<typename G::Policy>>;
      { GameHost<G>::rules_of(settings) } -> std::convertible_to<const typename G::Rules&>;
      { GameHost<G>::start(settings, uint64_t{}, uint32_t{}, text) } ->
          std::same_as<typename G::State>;
      { GameHost<G>::describe_rules(rules) } -> std::same_as<std::string>;
      { GameHost<G>::move_text(s, m) } -> std::same_as<std::string>;
      { GameHost<G>::parse_move(s, rules, view) } -> std::same_as<typename G::Move>;
      { GameHost<G>::position_text(s) } -> std::same_as<std::string>;
      { GameHost<G>::parse_position(view) } -> std::same_as<typename G::State>;
    } &&
    (!ChanceGame<G> || requires(const typename G::State& s) {
      { GameHost<G>::chance_value(s) } -> std::convertible_to<int>;
    });

// Games whose boards can be drawn (`selfplay export --format html`).
template <class G>
concept PictureGame = HostGame<G> && requires(const typename G::Rules& rules,
                                              const typename G::State& s) {
  { GameHost<G>::board_frame(rules) } -> std::same_as<BoardFrame>;
  { GameHost<G>::picture(s) } -> std::same_as<BoardPicture>;
};

// Games an external Gomocup engine can play (`type: pbrain`).
template <class G>
concept ProtocolGame =
    HostGame<G> &&
    requires(const typename G::Rules& rules, const typename G::State& s, typename G::Move m) {
      { GameHost<G>::pbrain_board(rules, 0, 0) } -> std::convertible_to<typename G::Rules>;
      { GameHost<G>::pbrain_board_size(rules) } -> std::convertible_to<int>;
      { GameHost<G>::pbrain_rule(rules, int64_t{}) } -> std::convertible_to<typename G::Rules>;
      { GameHost<G>::pbrain_rule_bits(rules) } -> std::convertible_to<int>;
      { GameHost<G>::pbrain_start(rules) } -> std::same_as<typename G::State>;
      { GameHost<G>::pbrain_move(s, int64_t{}, int64_t{}) } -> std::same_as<typename G::Move>;
      { GameHost<G>::pbrain_xy(m) } -> std::same_as<std::pair<int, int>>;
      { GameHost<G>::pbrain_stones(s) } -> std::same_as<std::vector<PbrainStone>>;
    };

// Games with endgame databases (`selfplay egtb`, an engine's `egtb` key; core/endgame.hpp):
//   egtb_build(options)       builds every table of up to options.pieces pieces in options.dir
//   egtb_verify(dir, parallel_for, progress)
//                             checks each stored value against its successors' values
//   egtb_open(dir)            the tables of dir, open for probing (shared, thread-safe); throws
//                             InputError for a folder that is none or a damaged table
//   egtb_configurations(n)    the board configurations of n pieces as the literature counts them
template <class G>
concept EndgameGame =
    HostGame<G> && requires(const EndgameBuildOptions& options, const std::string& dir,
                            const ParallelFor& parallel_for,
                            const std::function<void(const EndgameProgress&)>& progress) {
      { GameHost<G>::egtb_build(options) } -> std::same_as<EndgameBuildResult>;
      { GameHost<G>::egtb_verify(dir, parallel_for, progress) } ->
          std::same_as<EndgameVerifyResult>;
      { GameHost<G>::egtb_open(dir) } ->
          std::same_as<std::shared_ptr<const EndgameProbe<typename G::State>>>;
      { GameHost<G>::egtb_configurations(int{}) } -> std::same_as<uint64_t>;
    };
// clang-format on

// One ply as records and `selfplay export` write it: "<chance>:<move>" in a chance game
// ("3:b4-c3"), the move alone otherwise. The first form takes a stored ply (its /plies `chance` and
// move text, as `selfplay verify` and `export` read them; a game without chance ignores the
// chance).
template <HostGame G>
std::string ply_text(int chance_value, std::string_view move_text) {
  if constexpr (ChanceGame<G>)
    return std::to_string(chance_value) + ":" + std::string(move_text);
  else
    return std::string(move_text);
}
template <HostGame G>
std::string ply_text(const typename G::State& before, typename G::Move move) {
  int chance = 0;  // ignored without chance
  if constexpr (ChanceGame<G>) chance = GameHost<G>::chance_value(before);
  return ply_text<G>(chance, GameHost<G>::move_text(before, move));
}

// The chance outcome drawn at `ply` of game `stream_game`: a function of (seed, stream_game, ply)
// only, so paired games and resumed runs roll the same. 0-based, for G::set_chance.
template <ChanceGame G>
int draw_chance(uint64_t seed, uint32_t stream_game, uint32_t ply) {
  WordStream rng({seed, stream_game, ply, kLeafDice, 0});
  return static_cast<int>(rng.below(G::kChanceOutcomes));
}

}  // namespace sp
