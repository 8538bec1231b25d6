// The Game contract (core/game.hpp), checked the same way on every game: EWN, checkers,
// Gomoku and the tests-only tic-tac-toe. Notation round trips, random games with state_ok() after
// every move, playouts against a reference built only from generate_moves/apply and the documented
// use of the random stream, playout_many against playout, rollout statistics of the cpu backend
// against the check backend and the reference, the chance classes of games with chance, the
// evaluation features of games with features and the optional search hooks (hash, move_index).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "core/game.hpp"
#include "core/philox.hpp"
#include "games/checkers/game.hpp"
#include "games/checkers/notation.hpp"
#include "games/ewn/game.hpp"
#include "games/ewn/host.hpp"
#include "games/ewn/notation.hpp"
#include "games/ewn/tests/test_util.hpp"
#include "games/gomoku/game.hpp"
#include "games/gomoku/notation.hpp"
#include "host/engines/rollout/array_playouts.hpp"
#include "host/engines/rollout/check_backend_impl.hpp"
#include "host/engines/rollout/cpu_backend_impl.hpp"
#include "host/engines/search/game_hooks.hpp"
#include "tests/game_types.hpp"
#include "tests/games/tictactoe/game.hpp"

namespace sp {
namespace {

// What the contract tests need to know about a game beyond the Game concept: its start positions,
// notation, invariant, rule variants and playout policies, and one reference ply of a uniform
// playout from a random word.
template <class G>
struct Traits;

template <>
struct Traits<EwnGame> {
  using State = EwnGame::State;
  static constexpr int kRandomPlies = 40;
  static constexpr int kMaxPlayoutPlies = ewn::kMaxPlayoutPlies;
  static constexpr int kRuleVariants = 4;
  // The policies of params.policies (policies() below) the plain reference program plays: all.
  static constexpr int kArrayPolicies = 4;
  static constexpr const char* kBadPositions[] = {
      "ABC2/DE3/F3f/3ed/2cba 0", "ABC2/DE3/F3f/3ed/2cbz 0 1", "ABC2/DE3/F3f/3ed/2cba 2 1"};

  static EwnGame::Rules rules(int variant) { return ewn::test::rules_variant(variant); }
  static State start(WordStream& rng) {
    const ewn::Arrangement a0 = ewn::random_arrangement(rng), a1 = ewn::random_arrangement(rng);
    return ewn::initial_state(a0, a1, static_cast<int>(rng.below(2)));
  }
  static void policies(rollout::PlayoutParams<EwnGame>& p) {
    p.policies[1].kind = ewn::PolicyKind::kHeavy;
    p.policies[2].kind = ewn::PolicyKind::kHeavy;
    p.policies[2].goal_weight = 3 * ewn::kWeightOne;
  }
  static bool state_ok(const State& s) { return ewn::state_ok(s); }
  static std::string position_text(const State& s) { return ewn::to_string(s); }
  static State parse_position(const std::string& text) { return ewn::parse_position(text); }
  static std::string move_text(EwnGame::Move m) { return ewn::to_string(m); }
  static EwnGame::Move parse_move(const State& s, const EwnGame::Rules& r,
                                  const std::string& text) {
    return ewn::parse_move(s, r, text);
  }
  // The die is the high part of word * 6 (consumed even when the die is already rolled), the move
  // is drawn from the low part.
  static void reference_ply(State& s, const EwnGame::Rules& rules, uint32_t word) {
    const uint64_t scaled = static_cast<uint64_t>(word) * 6u;
    if (EwnGame::needs_chance(s)) EwnGame::set_chance(s, static_cast<int>(scaled >> 32));
    EwnGame::MoveList list;
    EwnGame::generate_moves(s, rules, list);
    EwnGame::apply(
        s, list.moves[bounded(static_cast<uint32_t>(scaled), static_cast<uint32_t>(list.size))]);
  }
};

template <>
struct Traits<CheckersGame> {
  using State = CheckersGame::State;
  static constexpr int kRandomPlies = 120;
  static constexpr int kMaxPlayoutPlies = 0xFFFF;  // the state's max_plies ends every game
  // The draw limits travel in the state (start() draws them), not in the rules.
  static constexpr int kRuleVariants = 1;
  // The policies of params.policies the plain reference program plays: the two uniform ones.
  static constexpr int kArrayPolicies = 2;
  static constexpr const char* kBadPositions[] = {"B:W21-32:B1-12:",    "X:W21-32:B1-12",
                                                  "B:W21,21:B1",        "B:W1:B5",
                                                  "B:W21-33:B1",        "B:W21",
                                                  "B:W21:W22",          "B:W21:B1 ply=5/4",
                                                  "B:W21:B1 quiet=9/8", "B:W21:B1 ply=1/1 ply=1/1",
                                                  "B:W20-32:B1-12",     "[FEN \"B:W21:B1\""};

  static CheckersGame::Rules rules(int) { return {}; }
  // The standard start with the default draw limits, or short ones so that draws happen.
  static State start(WordStream& rng) {
    const uint32_t kind = rng.below(3);
    const checkers::Rules r = kind == 0   ? checkers::Rules{}
                              : kind == 1 ? checkers::Rules{60, 0}
                                          : checkers::Rules{400, 10};
    return checkers::initial_state(r);
  }
  static void policies(rollout::PlayoutParams<CheckersGame>& p) {
    p.policies[1].kind = checkers::PolicyKind::kWeighted;
    p.policies[2].kind = checkers::PolicyKind::kWeighted;
    p.policies[2].advance_weight = 5 * checkers::kWeightOne;
    p.policies[2].capture_weight = checkers::kWeightOne / 2;
  }
  static bool state_ok(const State& s) { return checkers::state_ok(s); }
  static std::string position_text(const State& s) { return checkers::to_string(s); }
  static State parse_position(const std::string& text) { return checkers::parse_position(text); }
  static std::string move_text(CheckersGame::Move m) { return checkers::to_string(m); }
  static CheckersGame::Move parse_move(const State& s, const CheckersGame::Rules&,
                                       const std::string& text) {
    return checkers::parse_move(s, text);
  }
  static void reference_ply(State& s, const CheckersGame::Rules& rules, uint32_t word) {
    CheckersGame::MoveList list;
    CheckersGame::generate_moves(s, rules, list);
    CheckersGame::apply(s, list.moves[bounded(word, static_cast<uint32_t>(list.size))]);
  }
};

template <>
struct Traits<GomokuGame> {
  using State = GomokuGame::State;
  static constexpr int kRandomPlies = 150;
  static constexpr int kMaxPlayoutPlies = gomoku::kMaxSquares;
  // The board size and the win rule travel in the state (start() draws them), not in the rules.
  static constexpr int kRuleVariants = 1;
  // The policies of params.policies the plain reference program plays: the two uniform ones.
  static constexpr int kArrayPolicies = 2;
  static constexpr const char* kBadPositions[] = {
      "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15",
      "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 z",
      "15/15/15/15/15/15/15/15/15/15/15/15/15/15 x",
      "16/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x",
      "15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 x",
      "xxxxx10/oooo11/o14/15/15/15/15/15/15/15/15/15/15/15/15 x",
      "15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 o renju",
      "17/17/17/17/17/17/17/17/17/17/17/17/17/17/17/17/17 x"};

  static GomokuGame::Rules rules(int) { return {}; }
  // 15x15 or 20x20, freestyle or standard.
  static State start(WordStream& rng) {
    const uint8_t size = rng.below(2) ? 20 : 15;
    return gomoku::initial_state(gomoku::Rules{
        size, rng.below(2) ? gomoku::WinRule::kStandard : gomoku::WinRule::kFreestyle});
  }
  static void policies(rollout::PlayoutParams<GomokuGame>& p) {
    p.policies[1].kind = gomoku::PolicyKind::kWeighted;
    p.policies[2].kind = gomoku::PolicyKind::kWeighted;
    p.policies[2].adjacent_weight = 0;
    p.policies[2].near_weight = 3 * gomoku::kWeightOne / 2;
  }
  static bool state_ok(const State& s) { return gomoku::state_ok(s); }
  static std::string position_text(const State& s) { return gomoku::to_string(s); }
  static State parse_position(const std::string& text) { return gomoku::parse_position(text); }
  static std::string move_text(GomokuGame::Move m) { return gomoku::to_string(m); }
  static GomokuGame::Move parse_move(const State& s, const GomokuGame::Rules&,
                                     const std::string& text) {
    return gomoku::parse_move(s, text);
  }
  static void reference_ply(State& s, const GomokuGame::Rules& rules, uint32_t word) {
    GomokuGame::MoveList list;
    GomokuGame::generate_moves(s, rules, list);
    GomokuGame::apply(s, list.moves[bounded(word, static_cast<uint32_t>(list.size))]);
  }
};

template <>
struct Traits<TicTacToe> {
  using State = TicTacToe::State;
  static constexpr int kRandomPlies = 8;
  static constexpr int kMaxPlayoutPlies = ttt::kSquares;
  static constexpr int kRuleVariants = 1;
  static constexpr const char* kBadPositions[] = {"xxx/ooo/... x", "x.o/.x./o.. z",
                                                  "xxx/oo./... x", "x.o/.x./o..",
                                                  "xx./.../... x", "x.o/.x.|o.. x"};

  static TicTacToe::Rules rules(int) { return {}; }
  static State start(WordStream& rng) { return ttt::initial_state(static_cast<int>(rng.below(2))); }
  static void policies(rollout::PlayoutParams<TicTacToe>&) {}
  static bool state_ok(const State& s) { return ttt::state_ok(s); }
  static std::string position_text(const State& s) { return ttt::to_string(s); }
  static State parse_position(const std::string& text) { return ttt::parse_position(text); }
  static std::string move_text(TicTacToe::Move m) { return ttt::to_string(m); }
  static TicTacToe::Move parse_move(const State& s, const TicTacToe::Rules&,
                                    const std::string& text) {
    return ttt::parse_move(s, text);
  }
  static void reference_ply(State& s, const TicTacToe::Rules& rules, uint32_t word) {
    TicTacToe::MoveList list;
    TicTacToe::generate_moves(s, rules, list);
    TicTacToe::apply(s, list.moves[bounded(word, static_cast<uint32_t>(list.size))]);
  }
};

template <class G>
bool same_state(const typename G::State& a, const typename G::State& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

template <class G>
void draw_chance(typename G::State& s, WordStream& rng) {
  if constexpr (ChanceGame<G>)
    if (G::needs_chance(s)) G::set_chance(s, static_cast<int>(rng.below(G::kChanceOutcomes)));
}

// A position reached by random legal moves from a random start, never over; a decision state
// (chance drawn) unless allow_chance is set, when a chance state is kept half of the time.
template <class G>
typename G::State random_position(uint64_t seed, uint32_t index, const typename G::Rules& rules,
                                  bool allow_chance = false) {
  WordStream rng({seed, index, 0, kLeafSetup, 0});
  typename G::State s = Traits<G>::start(rng);
  const int plies = static_cast<int>(rng.below(Traits<G>::kRandomPlies));
  for (int p = 0; p < plies; ++p) {
    typename G::State t = s;
    draw_chance<G>(t, rng);
    typename G::MoveList list;
    G::generate_moves(t, rules, list);
    G::apply(t, list.moves[rng.below(static_cast<uint32_t>(list.size))]);
    if (G::is_over(t)) break;
    s = t;
  }
  if (!allow_chance || rng.below(2) == 0) draw_chance<G>(s, rng);
  return s;
}

// A uniform playout built from the rules alone: ply p uses word p % 4 of block p / 4 of the
// stream; state_ok() is checked after every ply.
template <class G>
typename G::Result reference_playout(typename G::State s, const typename G::Rules& rules,
                                     BlockStream& rng) {
  uint16_t plies = 0;
  Philox4x32 block{};
  while (!G::is_over(s) && plies < Traits<G>::kMaxPlayoutPlies) {
    if (plies % 4 == 0) block = rng.next();
    Traits<G>::reference_ply(s, rules, block.v[plies % 4]);
    ++plies;
    EXPECT_TRUE(Traits<G>::state_ok(s)) << Traits<G>::position_text(s);
  }
  typename G::Result r{};
  r.winner = static_cast<uint8_t>(G::is_over(s) ? G::winner(s) : G::kNoWinner);
  r.plies = plies;
  return r;
}

template <class G>
class GameContract : public ::testing::Test {};

using Games = test::GameTypes<TicTacToe>;  // the game list, then the tests-only game
TYPED_TEST_SUITE(GameContract, Games);

TYPED_TEST(GameContract, NotationRoundTrips) {
  using G = TypeParam;
  for (int v = 0; v < Traits<G>::kRuleVariants; ++v) {
    const auto rules = Traits<G>::rules(v);
    for (uint32_t i = 0; i < 200; ++i) {
      const auto s = random_position<G>(11, i, rules);
      const std::string text = Traits<G>::position_text(s);
      const auto back = Traits<G>::parse_position(text);
      ASSERT_TRUE(same_state<G>(back, s)) << text;
      EXPECT_EQ(Traits<G>::position_text(back), text);
      typename G::MoveList list;
      G::generate_moves(s, rules, list);
      for (int k = 0; k < list.size; ++k) {
        const std::string m = Traits<G>::move_text(list.moves[k]);
        EXPECT_TRUE(Traits<G>::parse_move(s, rules, m) == list.moves[k]) << text << " " << m;
      }
    }
  }
  for (const char* bad : Traits<G>::kBadPositions)
    EXPECT_THROW(Traits<G>::parse_position(bad), InputError) << bad;
}

TYPED_TEST(GameContract, RandomGamesKeepTheInvariants) {
  using G = TypeParam;
  int decided = 0;
  for (int v = 0; v < Traits<G>::kRuleVariants; ++v) {
    const auto rules = Traits<G>::rules(v);
    for (uint32_t game = 0; game < 200; ++game) {
      WordStream rng({5, game, 0, kLeafSetup, 0});
      auto s = Traits<G>::start(rng);
      ASSERT_TRUE(Traits<G>::state_ok(s));
      int plies = 0;
      while (!G::is_over(s) && plies < Traits<G>::kMaxPlayoutPlies) {
        draw_chance<G>(s, rng);
        typename G::MoveList list;
        G::generate_moves(s, rules, list);
        ASSERT_GE(list.size, 1);
        ASSERT_LE(list.size, G::kMaxMoves);
        std::set<std::string> distinct;
        for (int k = 0; k < list.size; ++k) distinct.insert(Traits<G>::move_text(list.moves[k]));
        EXPECT_EQ(distinct.size(), static_cast<size_t>(list.size)) << Traits<G>::position_text(s);
        const int mover = G::side_to_move(s);
        G::apply(s, list.moves[rng.below(static_cast<uint32_t>(list.size))]);
        ++plies;
        ASSERT_TRUE(Traits<G>::state_ok(s)) << Traits<G>::position_text(s);
        if (!G::is_over(s)) {
          EXPECT_EQ(G::side_to_move(s), mover ^ 1);
        }
      }
      if (G::is_over(s)) {
        const int w = G::winner(s);
        EXPECT_TRUE(w == 0 || w == 1 || w == G::kNoWinner) << w;
        decided += w == 0 || w == 1;
      }
    }
  }
  EXPECT_GT(decided, 0);
}

TYPED_TEST(GameContract, PlayoutsMatchTheReferenceFromLegalMoves) {
  using G = TypeParam;
  const typename G::Policy uniform{};
  std::set<int> winners;
  for (int v = 0; v < Traits<G>::kRuleVariants; ++v) {
    const auto rules = Traits<G>::rules(v);
    for (uint32_t i = 0; i < 300; ++i) {
      const auto s = random_position<G>(23, i, rules, true);
      const uint32_t leaf = 3 + static_cast<uint32_t>(v);
      for (uint32_t r = 0; r < 3; ++r) {
        const StreamId id{99, i, 7, leaf, r};
        BlockStream a(id), b(id);
        const auto got = G::playout(s, rules, uniform, a);
        const auto want = reference_playout<G>(s, rules, b);
        ASSERT_EQ(got.winner, want.winner) << Traits<G>::position_text(s) << " rollout " << r;
        ASSERT_EQ(got.plies, want.plies) << Traits<G>::position_text(s) << " rollout " << r;
        winners.insert(got.winner);
      }
      // playout_many gives every rollout of [first, last) exactly as playout() does.
      const PhiloxKey key = stream_key(99, i);
      std::vector<int> seen(12, 0);
      G::playout_many(s, rules, uniform, key, 7, leaf, 2, 12,
                      [&](uint32_t r, const typename G::Result& res) {
                        ++seen[r];
                        BlockStream one(key, 7, leaf, r);
                        const auto want = G::playout(s, rules, uniform, one);
                        EXPECT_EQ(res.winner, want.winner);
                        EXPECT_EQ(res.plies, want.plies);
                      });
      for (uint32_t r = 0; r < 12; ++r) EXPECT_EQ(seen[r], r >= 2 ? 1 : 0) << "rollout " << r;
    }
  }
  EXPECT_TRUE(winners.count(0) && winners.count(1)) << "playouts should be won by both sides";
}

TYPED_TEST(GameContract, CpuBackendEqualsCheckBackendAndTheReference) {
  using G = TypeParam;
  rollout::PlayoutParams<G> params;
  params.seed = 314;
  Traits<G>::policies(params);
  params.rules = Traits<G>::rules(Traits<G>::kRuleVariants - 1);
  std::vector<rollout::Leaf<G>> leaves;
  WordStream rng({1, 2, 3, 4, 5});
  for (uint32_t i = 0; i < 150; ++i) {
    rollout::Leaf<G> leaf;
    leaf.state = random_position<G>(41, i, params.rules, true);
    leaf.game = rng.below(1000);
    leaf.ply = rng.below(200);
    leaf.leaf = rng.below(50);
    leaf.rollouts = 1 + rng.below(150);
    leaf.policy = rng.below(rollout::kMaxPolicies);
    leaves.push_back(leaf);
  }
  rollout::BackendOptions two;
  two.threads = 2;
  two.max_leaves = 1 << 12;
  two.max_rollouts = 1 << 16;
  rollout::BackendOptions one = two;
  one.threads = 1;
  auto cpu = rollout::make_cpu_backend<G>(two);
  auto check = rollout::make_check_backend<G>(rollout::make_cpu_backend<G>(two),
                                              rollout::make_cpu_backend<G>(one));
  std::vector<rollout::LeafStats> a(leaves.size()), b(leaves.size());
  cpu->run(leaves, params, a);
  check->run(leaves, params, b);
  uint64_t wins[2] = {0, 0};
  for (size_t i = 0; i < leaves.size(); ++i) {
    ASSERT_EQ(a[i], b[i]) << "leaf " << i;
    rollout::LeafStats want;
    const auto& l = leaves[i];
    for (uint32_t r = 0; r < l.rollouts; ++r) {
      BlockStream s({params.seed, l.game, l.ply, l.leaf, r});
      const auto res = G::playout(l.state, params.rules, params.policies[l.policy], s);
      if (res.winner == 0 || res.winner == 1)
        ++want.wins[res.winner];
      else
        ++want.draws;
      ++want.rollouts;
      want.plies += res.plies;
    }
    ASSERT_EQ(a[i], want) << "leaf " << i << " " << Traits<G>::position_text(l.state);
    wins[0] += a[i].wins[0], wins[1] += a[i].wins[1];
  }
  EXPECT_GT(wins[0], 0u);
  EXPECT_GT(wins[1], 0u);
}

// The plain reference program that `selfplay bench` measures the playouts against
// (rollout::ArrayPlayouts, games/<game>/array_playout.hpp) ends every rollout exactly as
// G::playout does, winner and plies, from random positions (chance drawn or not) and finished
// games, under every rules variant and with every policy it plays: bench's "x array program" then
// compares equal work. It plays the policies the game's Traits name, no fewer.
TYPED_TEST(GameContract, ArrayProgramPlaysEveryRolloutAsThePlayout) {
  using G = TypeParam;
  using Program = rollout::ArrayPlayouts<G>;
  if constexpr (!Program::kAvailable) {
    GTEST_SKIP() << G::kName << " has no plain reference program";
  } else {
    rollout::PlayoutParams<G> params;
    Traits<G>::policies(params);
    int played = 0;
    for (const auto& policy : params.policies) played += Program::handles(policy);
    EXPECT_EQ(played, Traits<G>::kArrayPolicies);
    EXPECT_TRUE(Program::handles(typename G::Policy{})) << "bench's default playouts";
    uint64_t rollouts = 0;
    std::set<int> winners;
    for (int v = 0; v < Traits<G>::kRuleVariants; ++v) {
      const auto rules = Traits<G>::rules(v);
      for (uint32_t i = 0; i < 200; ++i) {
        auto s = random_position<G>(31, i, rules, true);
        if (i % 20 == 0) {  // a finished game: both give its winner after 0 plies
          WordStream rng({31, i, 1, kLeafSearch, 0});
          while (!G::is_over(s)) {
            draw_chance<G>(s, rng);
            typename G::MoveList list;
            G::generate_moves(s, rules, list);
            G::apply(s, list.moves[rng.below(static_cast<uint32_t>(list.size))]);
          }
        }
        const typename Program::Board board = Program::board(s);
        for (uint32_t k = 0; k < rollout::kMaxPolicies; ++k) {
          if (!Program::handles(params.policies[k])) continue;
          for (uint32_t r = 0; r < 6; ++r) {
            const StreamId id{77, i, 5, k, r};
            BlockStream a(id), b(id);
            const auto want = G::playout(s, rules, params.policies[k], a);
            const auto got = Program::playout(board, rules, params.policies[k], b);
            ASSERT_EQ(got.winner, want.winner) << Traits<G>::position_text(s) << " rules " << v
                                               << " policy " << k << " rollout " << r;
            ASSERT_EQ(got.plies, want.plies) << Traits<G>::position_text(s) << " rules " << v
                                             << " policy " << k << " rollout " << r;
            winners.insert(got.winner);
            ++rollouts;
          }
        }
      }
    }
    EXPECT_GE(rollouts, 1200u);
    EXPECT_TRUE(winners.count(0) && winners.count(1)) << "playouts should be won by both sides";
  }
}

TYPED_TEST(GameContract, ChanceClassesPartitionTheOutcomes) {
  using G = TypeParam;
  if constexpr (!ChanceGame<G>) {
    GTEST_SKIP() << G::kName << " has no chance outcomes";
  } else {
    for (int v = 0; v < Traits<G>::kRuleVariants; ++v) {
      const auto rules = Traits<G>::rules(v);
      for (uint32_t i = 0; i < 200; ++i) {
        auto s = random_position<G>(57, i, rules, true);
        if (!G::needs_chance(s)) continue;
        int rep[G::kChanceOutcomes], weight[G::kChanceOutcomes];
        const int n = G::chance_classes(s, rules, rep, weight);
        ASSERT_GE(n, 1);
        ASSERT_LE(n, G::kChanceOutcomes);
        int total = 0;
        for (int k = 0; k < n; ++k) total += weight[k];
        EXPECT_EQ(total, G::kChanceOutcomes);
        // Every outcome falls in exactly one class, whose representative allows the same moves.
        for (int outcome = 0; outcome < G::kChanceOutcomes; ++outcome) {
          auto t = s;
          G::set_chance(t, outcome);
          int classes = 0;
          for (int k = 0; k < n; ++k) {
            auto r = s;
            G::set_chance(r, rep[k]);
            if (!G::same_class(t, r, rules)) continue;
            ++classes;
            EXPECT_LE(rep[k], outcome) << "a class is represented by its smallest outcome";
            typename G::MoveList mt, mr;
            G::generate_moves(t, rules, mt);
            G::generate_moves(r, rules, mr);
            ASSERT_EQ(mt.size, mr.size);
            for (int m = 0; m < mt.size; ++m) EXPECT_TRUE(mt.moves[m] == mr.moves[m]);
          }
          EXPECT_EQ(classes, 1) << Traits<G>::position_text(s) << " outcome " << outcome;
          // On a decision state set_chance replaces the outcome drawn.
          auto replaced = t, drawn = s;
          G::set_chance(replaced, (outcome + 1) % G::kChanceOutcomes);
          G::set_chance(drawn, (outcome + 1) % G::kChanceOutcomes);
          EXPECT_TRUE(same_state<G>(replaced, drawn)) << Traits<G>::position_text(s);
        }
      }
    }
  }
}

// Evaluation features: one distinct name per feature, every value finite and within its bound,
// and the chance outcome ignored.
TYPED_TEST(GameContract, FeaturesAreNamedBoundedAndIgnoreTheChanceOutcome) {
  using G = TypeParam;
  if constexpr (!FeatureGame<G>) {
    GTEST_SKIP() << G::kName << " has no evaluation features";
  } else {
    const auto names = G::feature_names();
    const auto max = G::feature_max();
    ASSERT_EQ(names.size(), static_cast<size_t>(G::kNumFeatures));
    ASSERT_EQ(max.size(), static_cast<size_t>(G::kNumFeatures));
    EXPECT_EQ(std::set<std::string_view>(names.begin(), names.end()).size(), names.size());
    for (int v = 0; v < Traits<G>::kRuleVariants; ++v) {
      const auto rules = Traits<G>::rules(v);
      for (uint32_t i = 0; i < 200; ++i) {
        const auto s = random_position<G>(61, i, rules, true);
        float f[G::kNumFeatures];
        G::extract_features(s, rules, f);
        for (int k = 0; k < G::kNumFeatures; ++k) {
          EXPECT_TRUE(std::isfinite(f[k])) << Traits<G>::position_text(s) << " " << names[k];
          EXPECT_LE(std::abs(f[k]), max[k]) << Traits<G>::position_text(s) << " " << names[k];
        }
        if constexpr (ChanceGame<G>) {
          for (int outcome = 0; outcome < G::kChanceOutcomes; ++outcome) {
            auto t = s;
            G::set_chance(t, outcome);
            float g[G::kNumFeatures];
            G::extract_features(t, rules, g);
            for (int k = 0; k < G::kNumFeatures; ++k)
              EXPECT_EQ(g[k], f[k]) << Traits<G>::position_text(s) << " " << names[k];
          }
        }
      }
    }
  }
}

// The search hooks a game offers: equal states share a key and distinct ones (of a few thousand)
// do not; move indices lie in [0, kMoveIndices) and differ between the moves of one position.
TYPED_TEST(GameContract, HashAndMoveIndexHooks) {
  using G = TypeParam;
  std::map<uint64_t, std::string> keys;  // key -> the state's bytes
  for (int v = 0; v < Traits<G>::kRuleVariants; ++v) {
    const auto rules = Traits<G>::rules(v);
    for (uint32_t i = 0; i < 500; ++i) {
      const auto s = random_position<G>(67, i, rules, true);
      // With every chance outcome too: positions that differ only in it must differ in key.
      std::vector<typename G::State> variants{s};
      if constexpr (ChanceGame<G>)
        for (int outcome = 0; outcome < G::kChanceOutcomes; ++outcome) {
          variants.push_back(s);
          G::set_chance(variants.back(), outcome);
        }
      for (const auto& t : variants) {
        const std::string bytes(reinterpret_cast<const char*>(&t), sizeof t);
        const uint64_t key = search::hooks::key_of<G>(t);
        const auto copy = t;
        EXPECT_EQ(search::hooks::key_of<G>(copy), key);
        const auto [at, added] = keys.emplace(key, bytes);
        EXPECT_TRUE(added || at->second == bytes)
            << "two positions share a key: " << Traits<G>::position_text(t);
      }
      if constexpr (search::hooks::HasMoveIndex<G>) {
        auto d = s;
        WordStream rng({67, i, 1, kLeafSetup, 0});
        draw_chance<G>(d, rng);
        typename G::MoveList list;
        G::generate_moves(d, rules, list);
        std::set<int> indices;
        for (int k = 0; k < list.size; ++k) {
          const int index = G::move_index(list.moves[k]);
          EXPECT_GE(index, 0);
          EXPECT_LT(index, G::kMoveIndices);
          indices.insert(index);
        }
        EXPECT_EQ(indices.size(), static_cast<size_t>(list.size)) << Traits<G>::position_text(d);
      }
    }
  }
  EXPECT_GT(keys.size(), 100u) << "too few distinct positions to say anything";
}

}  // namespace
}  // namespace sp
