// Tic-tac-toe, a tiny deterministic game for tests only: it proves that what is generic over
// games (the Game concept, rollout backends, MCTS without chance, alpha-beta, campaigns and
// records) works for any game that satisfies the concepts, with nothing of it outside tests/ but
// its registration in the typed suites (tests/game_types.hpp). Written like a real game: bitboards,
// SP_HD rules and playout, the same counter-based Philox streams as EWN (one 32-bit word per ply,
// in block order, a move chosen by bounded()), notation and a state_ok() invariant.
//
// Board: squares 0..8, index = (rank - 1) * 3 + file, named a1 (0) .. c3 (8). Player 0 is X and
// player 1 is O; either may start. Position text: the ranks from 3 down to 1 separated by '/',
// 'x', 'o' or '.' per square from file a, then the side to move: "x.o/.x./o.. o".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/errors.hpp"
#include "core/game.hpp"
#include "core/hd.hpp"
#include "core/philox.hpp"

namespace sp::ttt {

inline constexpr int kSquares = 9;
inline constexpr int kMaxMoves = 9;
inline constexpr uint32_t kFull = (1u << kSquares) - 1;
inline constexpr uint8_t kNoWinner = 2;
inline constexpr uint8_t kNoSquare = 0xFF;

// The eight lines (three ranks, three files, two diagonals) as masks.
inline constexpr uint32_t kLines[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};

struct Rules {};   // no variants
struct Policy {};  // uniform playouts only

struct Move {
  uint8_t square = kNoSquare;
  SP_HD bool operator==(const Move& o) const { return square == o.square; }
};

struct MoveList {
  Move moves[kMaxMoves];
  int size = 0;
  SP_HD void push(Move m) { moves[size++] = m; }
};

struct State {
  uint16_t occ[2] = {0, 0};  // stones by side
  uint8_t side = 0;          // player to move
  uint8_t winner = kNoWinner;
};
static_assert(sizeof(State) == 6, "no padding: states are compared bytewise");

struct Result {
  uint8_t winner;  // 0, 1, or kNoWinner for a draw
  uint16_t plies;
};

SP_HD SP_FORCEINLINE bool has_line(uint32_t stones) {
  bool line = false;
  for (uint32_t m : kLines) line |= (stones & m) == m;
  return line;
}

SP_HD SP_FORCEINLINE uint32_t empty_squares(const State& s) {
  return kFull & ~(s.occ[0] | s.occ[1]);
}

SP_HD inline bool is_over(const State& s) { return s.winner != kNoWinner || empty_squares(s) == 0; }

// Empty squares ascending. Precondition: !is_over(s).
SP_HD inline void generate_moves(const State& s, MoveList& list) {
  list.size = 0;
  uint32_t empty = empty_squares(s);
  while (empty) list.push(Move{static_cast<uint8_t>(pop_lsb(empty))});
}

// Precondition: m is legal in s.
SP_HD inline void apply(State& s, Move m) {
  const int side = s.side;
  s.occ[side] = static_cast<uint16_t>(s.occ[side] | (1u << m.square));
  if (has_line(s.occ[side])) s.winner = static_cast<uint8_t>(side);
  s.side = static_cast<uint8_t>(side ^ 1);
}

// One ply per random word, words taken in block order.
SP_HD inline Result playout(State s, BlockStream& rng) {
  uint16_t plies = 0;
  Philox4x32 block{};
  while (!is_over(s)) {
    if (plies % 4 == 0) block = rng.next();
    const uint32_t empty = empty_squares(s);
    const uint32_t k = bounded(block.v[plies % 4], static_cast<uint32_t>(count(empty)));
    apply(s, Move{static_cast<uint8_t>(nth_set_bit(empty, static_cast<int>(k)))});
    ++plies;
  }
  return Result{s.winner, plies};
}

SP_HD inline State initial_state(int first_player = 0) {
  State s;
  s.side = static_cast<uint8_t>(first_player);
  return s;
}

// Stones on distinct squares of the board, the side to move consistent with the stone counts
// (either may have started), the winner set exactly when its side has a line and moved last.
inline bool state_ok(const State& s) {
  if (s.side > 1 || s.winner > kNoWinner) return false;
  if ((s.occ[0] | s.occ[1]) & ~kFull || (s.occ[0] & s.occ[1])) return false;
  const int n0 = count(s.occ[0]), n1 = count(s.occ[1]);
  if (n0 > n1 + 1 || n1 > n0 + 1) return false;
  if (n0 != n1 && s.side != (n0 > n1 ? 1 : 0)) return false;
  const bool line0 = has_line(s.occ[0]), line1 = has_line(s.occ[1]);
  if (line0 && line1) return false;
  if (s.winner == kNoWinner) return !line0 && !line1;
  return (s.winner == 0 ? line0 : line1) && s.side == (s.winner ^ 1);
}

// Zobrist key: one key per (side, square) and one for O to move, from a fixed seed.
struct ZobristKeys {
  uint64_t stone[2][kSquares];
  uint64_t o_to_move;
};
inline constexpr ZobristKeys kZobrist = [] {
  ZobristKeys z{};
  uint64_t x = 0x5454542D7A6F6272ull;  // "TTT-zobr"
  const auto next = [&x] {
    x += 0x9E3779B97F4A7C15ull;  // SplitMix64, as splitmix64() in philox.hpp
    uint64_t r = x;
    r = (r ^ (r >> 30)) * 0xBF58476D1CE4E5B9ull;
    r = (r ^ (r >> 27)) * 0x94D049BB133111EBull;
    return r ^ (r >> 31);
  };
  for (auto& side : z.stone)
    for (uint64_t& k : side) k = next();
  z.o_to_move = next();
  return z;
}();

inline uint64_t zobrist(const State& s) {
  uint64_t h = s.side ? kZobrist.o_to_move : 0;
  for (int side = 0; side < 2; ++side)
    for (uint32_t b = s.occ[side]; b;) h ^= kZobrist.stone[side][pop_lsb(b)];
  return h;
}

// A move that completes a line for the mover or blocks one of the opponent's: ordered first by
// searches (the tactical-move hook of alpha-beta).
SP_HD inline bool is_tactical(const State& s, Move m) {
  const uint32_t bit = 1u << m.square;
  return has_line(s.occ[s.side] | bit) || has_line(s.occ[s.side ^ 1] | bit);
}

// ---- Notation (host only). Parsers throw InputError naming the text and the 1-based column.

inline std::string square_name(int sq) {
  return std::string{static_cast<char>('a' + sq % 3), static_cast<char>('1' + sq / 3)};
}

// -1 when text is not a square name.
inline int parse_square(std::string_view text) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'c' || text[1] < '1' || text[1] > '3')
    return -1;
  return (text[1] - '1') * 3 + (text[0] - 'a');
}

inline std::string to_string(Move m) { return square_name(m.square); }

inline std::string to_string(const State& s) {
  std::string out;
  for (int rank = 2; rank >= 0; --rank) {
    for (int file = 0; file < 3; ++file) {
      const uint32_t bit = 1u << (rank * 3 + file);
      out += (s.occ[0] & bit) ? 'x' : (s.occ[1] & bit) ? 'o' : '.';
    }
    out += rank > 0 ? "/" : " ";
  }
  return out + (s.side == 0 ? 'x' : 'o');
}

inline State parse_position(std::string_view text) {
  const auto fail = [&](size_t column, const std::string& what) {
    throw InputError("tic-tac-toe position '" + std::string(text) + "', column " +
                     std::to_string(column + 1) + ": " + what);
  };
  if (text.size() != 13)
    fail(text.size() < 13 ? text.size() : 13, "expected 13 characters like 'x.o/.x./o.. o'");
  State s;
  for (int rank = 2, i = 0; rank >= 0; --rank, ++i) {
    for (int file = 0; file < 3; ++file) {
      const size_t at = static_cast<size_t>(i * 4 + file);
      const char c = text[at];
      const uint16_t bit = static_cast<uint16_t>(1u << (rank * 3 + file));
      if (c == 'x')
        s.occ[0] |= bit;
      else if (c == 'o')
        s.occ[1] |= bit;
      else if (c != '.')
        fail(at, "expected 'x', 'o' or '.'");
    }
    const size_t sep = static_cast<size_t>(i * 4 + 3);
    if (text[sep] != (rank > 0 ? '/' : ' ')) fail(sep, rank > 0 ? "expected '/'" : "expected ' '");
  }
  if (text[12] != 'x' && text[12] != 'o') fail(12, "expected the side to move, 'x' or 'o'");
  s.side = text[12] == 'x' ? 0 : 1;
  if (has_line(s.occ[0])) s.winner = 0;
  if (has_line(s.occ[1])) s.winner = 1;
  if (!state_ok(s)) fail(0, "not a position reachable in a game");
  return s;
}

// Parses a square name and checks that it is a legal move in s.
inline Move parse_move(const State& s, std::string_view text) {
  const int sq = parse_square(text);
  if (sq < 0)
    throw InputError("tic-tac-toe move '" + std::string(text) +
                     "', column 1: not a square (a1..c3)");
  if (is_over(s))
    throw InputError("tic-tac-toe move '" + std::string(text) + "': the game is over");
  if (!((empty_squares(s) >> sq) & 1u))
    throw InputError("tic-tac-toe move '" + std::string(text) + "', column 1: the square is taken");
  return Move{static_cast<uint8_t>(sq)};
}

}  // namespace sp::ttt

namespace sp {

// The game as backends and search see it.
struct TicTacToe {
  static constexpr const char* kName = "tictactoe";
  using State = ttt::State;
  using Move = ttt::Move;
  using MoveList = ttt::MoveList;
  using Rules = ttt::Rules;
  using Policy = ttt::Policy;
  using Result = ttt::Result;
  static constexpr uint8_t kNoWinner = ttt::kNoWinner;
  static constexpr int kMaxMoves = ttt::kMaxMoves;

  static void generate_moves(const State& s, const Rules&, MoveList& list) {
    ttt::generate_moves(s, list);
  }
  static void apply(State& s, Move m) { ttt::apply(s, m); }
  static bool is_over(const State& s) { return ttt::is_over(s); }
  static int winner(const State& s) { return s.winner; }
  static int side_to_move(const State& s) { return s.side; }

  // Search hooks (host/engines/search/alphabeta.hpp).
  static uint64_t hash(const State& s) { return ttt::zobrist(s); }
  static bool is_tactical(const State& s, Move m) { return ttt::is_tactical(s, m); }
  static constexpr int kMoveIndices = ttt::kSquares;
  static int move_index(Move m) { return m.square; }

  template <class Sink>
  static void playout_many(const State& s, const Rules&, const Policy&, PhiloxKey key, uint32_t ply,
                           uint32_t leaf, uint32_t first, uint32_t last, Sink&& sink) {
    for (uint32_t r = first; r < last; ++r) {
      BlockStream rng(key, ply, leaf, r);
      sink(r, ttt::playout(s, rng));
    }
  }

  SP_HD static SP_FORCEINLINE Result playout(const State& s, const Rules&, const Policy&,
                                             BlockStream& rng) {
    return ttt::playout(s, rng);
  }
};

static_assert(Game<TicTacToe>);
static_assert(DeterministicGame<TicTacToe>);

}  // namespace sp
