// The move choices of stored games (move_score_fit.hpp), read from campaign and match files:
// every finished game is replayed with its game's rules (host/records), and each ply whose
// position the game's search orders is a choice among the moves it would order there
// (MoveChoiceGame: Gomoku's pattern search, its game folder's move_choice.hpp). Every problem with
// an input is an sp::InputError that names the file.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <string>
#include <vector>

#include "host/research/tune/move_score_fit.hpp"

namespace sp::tune {

// A game whose search orders moves by a move-score table (eval::MoveScoreGame) and that says, for
// a position and the move played there, the table entries of each move the search orders.
template <class G>
concept MoveChoiceGame = requires(const typename G::State& s, const typename G::Rules& r,
                                  typename G::Move m, std::vector<std::array<int32_t, 2>>& out) {
  { G::move_choice(s, r, m, out) } -> std::same_as<int>;
};

struct ChoiceFileSummary {
  std::string path;
  uint64_t games = 0;       // finished games replayed
  uint64_t plies = 0;       // their plies
  uint64_t choices = 0;     // plies taken as choices (the rest: forced, or none the search orders)
  uint64_t unreplayed = 0;  // finished games that did not replay (`selfplay verify` says why)
};

struct LoadedChoices {
  MoveChoices choices;  // games keyed as Positions::games (game_key)
  std::vector<ChoiceFileSummary> files;
};

// Whether `game` (a name of games/games.hpp) has move choices.
bool has_move_choices(const std::string& game);

// The choices of every finished game of the files, which must hold games of `game`. Throws
// InputError naming a file that cannot be read or holds another game, and for a game without
// move choices.
LoadedChoices load_move_choices(const std::vector<std::string>& files, const std::string& game);

}  // namespace sp::tune
