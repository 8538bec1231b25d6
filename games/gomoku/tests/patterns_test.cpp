// Gomoku's incremental line patterns (games/gomoku/patterns.hpp) and the pattern search built on
// them (games/gomoku/pattern_search.hpp, pattern_engine.hpp): line classes on hand-made rows,
// the incremental board against one built from scratch after every move and every take-back, the
// classes against the rules (a five where makes_five says so, fours by their completions), the
// VCF against the threat search of threats.hpp on random dense positions, VCT, wins, blocks and
// the defence of an open three, determinism, the injected clock, and the config key.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/philox.hpp"
#include "games/gomoku/features.hpp"
#include "games/gomoku/game.hpp"
#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/host.hpp"
#include "games/gomoku/move_choice.hpp"
#include "games/gomoku/move_scores.hpp"
#include "games/gomoku/notation.hpp"
#include "games/gomoku/pattern_engine.hpp"
#include "games/gomoku/pattern_search.hpp"
#include "games/gomoku/patterns.hpp"
#include "games/gomoku/threats.hpp"
#include "host/engines/eval/weights.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/driver.hpp"
#include "host/play/selfplay/engine_factory.hpp"

namespace sp::gomoku {
namespace {

using patterns::Board;
using patterns::Line;

// Black stones on row 8 (y 7) of 15x15 where `row` has x (o: White), the side to move given.
State row8(const std::string& row, int side = 0, WinRule rule = WinRule::kFreestyle) {
  State s = initial_state(Rules{15, rule});
  int stones[2] = {0, 0};
  for (size_t x = 0; x < row.size(); ++x)
    if (row[x] != '.') {
      const int who = row[x] == 'x' ? 0 : 1;
      set_square(s.stones[who], 7 * 15 + static_cast<int>(x));
      ++stones[who];
    }
  s.ply = static_cast<uint16_t>(stones[0] + stones[1]);
  s.side = static_cast<uint8_t>(side);
  return s;
}

Line east(const Board& b, int side, int x) { return b.line(side, 0, Board::cell(x, 7)); }

// Random middle games near the centre (stones in the 7x7 block, none over), for search tests.
std::vector<State> middle_games(uint32_t seed, size_t count, int stones = 16) {
  std::vector<State> out;
  WordStream rng({seed, 0, 0, kLeafSetup, 0});
  while (out.size() < count) {
    State s = initial_state();
    for (int i = 0; i < stones && !is_over(s); ++i) {
      const int x = 4 + static_cast<int>(rng.next() % 7), y = 4 + static_cast<int>(rng.next() % 7);
      if (!test_square(s.stones[0], y * 15 + x) && !test_square(s.stones[1], y * 15 + x))
        apply(s, Move{static_cast<uint8_t>(x), static_cast<uint8_t>(y)});
    }
    if (!is_over(s)) out.push_back(s);
  }
  return out;
}

TEST(GomokuPatterns, LineClassesOnARow) {
  {
    const Board b(row8("...xxx"));                  // d8 e8 f8: an open three
    EXPECT_EQ(east(b, 0, 6), patterns::kOpenFour);  // g8: _XXXX_
    EXPECT_EQ(east(b, 0, 2), patterns::kOpenFour);  // c8
    EXPECT_EQ(east(b, 0, 7), patterns::kFour);      // h8: XXX_X
    EXPECT_EQ(east(b, 0, 1), patterns::kFour);      // b8: X_XXX
    EXPECT_EQ(east(b, 1, 6), patterns::kNone) << "White's lines through g8 hold Black's stones";
    EXPECT_EQ(b.combo(0, Board::cell(6, 7)), patterns::kComboWinNext);
    EXPECT_EQ(b.line_count(0, patterns::kOpenFour), 2);
  }
  {
    const Board b(row8("oxxx"));  // against White's stone: a three, closed on one side
    EXPECT_EQ(east(b, 0, 4), patterns::kFour);
    EXPECT_EQ(east(b, 0, 5), patterns::kFour);
    EXPECT_EQ(east(b, 0, 6), patterns::kThree) << "XXX_X_ after g8: one four to make";
  }
  {
    const Board b(row8("....xx"));  // an open two
    EXPECT_EQ(east(b, 0, 6), patterns::kOpenThree);
    EXPECT_EQ(east(b, 0, 3), patterns::kOpenThree);
  }
  {
    // X X X X _ X: e8 makes six under the standard rule, five or more under freestyle.
    EXPECT_EQ(east(Board(row8("xxxx.x")), 0, 4), patterns::kFive);
    EXPECT_NE(east(Board(row8("xxxx.x", 0, WinRule::kStandard)), 0, 4), patterns::kFive);
  }
}

// Every square's classes, counts, threat sets, neighbourhood and hash of two boards agree.
void expect_same(const Board& a, const Board& b, const std::string& where) {
  ASSERT_EQ(a.hash(), b.hash()) << where;
  ASSERT_EQ(a.stones(), b.stones()) << where;
  ASSERT_EQ(a.side_to_move(), b.side_to_move()) << where;
  for (int side = 0; side < 2; ++side) {
    for (int l = 0; l < patterns::kLines; ++l)
      ASSERT_EQ(a.line_count(side, static_cast<Line>(l)), b.line_count(side, static_cast<Line>(l)))
          << where << " side " << side << " line " << l;
    for (int k = 0; k < patterns::kCombos; ++k)
      ASSERT_EQ(a.combo_count(side, static_cast<patterns::Combo>(k)),
                b.combo_count(side, static_cast<patterns::Combo>(k)))
          << where;
    for (int t = 0; t < patterns::kThreatSets; ++t)
      for (int w = 0; w < patterns::kCellWords; ++w)
        ASSERT_EQ(a.threats(side, static_cast<patterns::ThreatSet>(t)).w[w],
                  b.threats(side, static_cast<patterns::ThreatSet>(t)).w[w])
            << where;
  }
  for (int side = 0; side < 2; ++side)
    for (int k = 0; k < patterns::kCodes; ++k)
      ASSERT_EQ(a.code_count(side, k), b.code_count(side, k)) << where << " code " << k;
  ASSERT_EQ(a.code_score(), b.code_score()) << where;
  for (int w = 0; w < patterns::kCellWords; ++w) ASSERT_EQ(a.near().w[w], b.near().w[w]) << where;
  for (int c = 0; c < patterns::kCells; ++c)
    for (int side = 0; side < 2; ++side)
      for (int d = 0; d < kDirections; ++d) ASSERT_EQ(a.line(side, d, c), b.line(side, d, c));
  for (int c = 0; c < patterns::kCells; ++c)
    for (int side = 0; side < 2; ++side) ASSERT_EQ(a.code(side, c), b.code(side, c));
}

// Random code weights (code 0 weighs 0), the same for every board of a test.
struct CodeWeights {
  int32_t own[patterns::kCodes] = {}, opp[patterns::kCodes] = {};
  explicit CodeWeights(uint32_t seed) {
    std::mt19937 rng(seed);
    for (int k = 1; k < patterns::kCodes; ++k) {
      own[k] = static_cast<int32_t>(rng() % 2001) - 1000;
      opp[k] = static_cast<int32_t>(rng() % 2001) - 1000;
    }
  }
};
// Board(s) with the code weights w.
Board weighed(const State& s, const CodeWeights& w) {
  Board b(s);
  b.set_code_weights(w.own, w.opp);
  return b;
}

TEST(GomokuPatterns, TheIncrementalBoardEqualsOneBuiltFromScratch) {
  for (const int size : {15, 20})
    for (const WinRule rule : {WinRule::kFreestyle, WinRule::kStandard}) {
      WordStream rng({77, static_cast<uint32_t>(size), static_cast<uint32_t>(rule), kLeafSetup, 0});
      for (int game = 0; game < 6; ++game) {
        State s = initial_state(Rules{static_cast<uint8_t>(size), rule});
        // Code weights on from the start (every game but the first) or set midway (the first).
        const CodeWeights weights(static_cast<uint32_t>(game));
        Board b(s);
        if (game > 0) b.set_code_weights(weights.own, weights.opp);
        std::vector<State> states{s};
        // Random stones near the centre, so that lines fill up and threats appear.
        for (int i = 0; i < 70 && !is_over(s); ++i) {
          const int x = size / 2 - 5 + static_cast<int>(rng.next() % 11);
          const int y = size / 2 - 5 + static_cast<int>(rng.next() % 11);
          if (test_square(s.stones[0], y * size + x) || test_square(s.stones[1], y * size + x))
            continue;
          const Move m{static_cast<uint8_t>(x), static_cast<uint8_t>(y)};
          const bool five = b.play(Board::cell(x, y));
          apply(s, m);
          ASSERT_EQ(five, s.winner != kNoWinner) << to_string(s);
          if (five) break;
          states.push_back(s);
          if (game == 0 && states.size() == 20) b.set_code_weights(weights.own, weights.opp);
          expect_same(b, game > 0 || states.size() >= 20 ? weighed(s, weights) : Board(s),
                      "after " + to_string(s));
          ASSERT_EQ(b.hash(), zobrist_key(s));
        }
        if (static_cast<size_t>(b.plies()) == states.size()) b.undo();  // the five
        while (b.plies() > 0) {
          b.undo();
          states.pop_back();
          expect_same(b, weighed(states.back(), weights),
                      "after taking back to " + to_string(states.back()));
        }
      }
    }
}

// The classes against the rules on random dense positions: kFive exactly where makes_five holds,
// kOpenFour / kFour by the number of squares on the line that would then complete a five through
// the square.
TEST(GomokuPatterns, ClassesAgreeWithTheRules) {
  for (const WinRule rule : {WinRule::kFreestyle, WinRule::kStandard}) {
    WordStream rng({78, static_cast<uint32_t>(rule), 0, kLeafSetup, 0});
    int fives = 0, fours = 0;
    for (int game = 0; game < 40; ++game) {
      State s = initial_state(Rules{15, rule});
      for (int i = 0; i < 40; ++i) {
        const int x = 3 + static_cast<int>(rng.next() % 9),
                  y = 3 + static_cast<int>(rng.next() % 9);
        if (test_square(s.stones[0], y * 15 + x) || test_square(s.stones[1], y * 15 + x)) continue;
        State t = s;
        apply(t, Move{static_cast<uint8_t>(x), static_cast<uint8_t>(y)});
        if (is_over(t)) continue;
        s = t;
      }
      const Board b(s);
      for (int sq = 0; sq < 225; ++sq) {
        const int x = sq % 15, y = sq / 15;
        if (test_square(s.stones[0], sq) || test_square(s.stones[1], sq)) continue;
        for (int side = 0; side < 2; ++side) {
          uint64_t with[kWords];
          std::copy(s.stones[side], s.stones[side] + kWords, with);
          set_square(with, sq);
          const bool five = makes_five(with, 15, rule, x, y);
          const int c = Board::cell(x, y);
          bool any_five = false;
          for (int d = 0; d < kDirections; ++d) any_five |= b.line(side, d, c) == patterns::kFive;
          ASSERT_EQ(any_five, five) << to_string(s) << " square " << sq;
          fives += five;
          if (five) continue;
          for (int d = 0; d < kDirections; ++d) {
            int completions = 0;
            for (int k = -4; k <= 4; ++k) {
              const int xx = x + k * direction_dx(d), yy = y + k * direction_dy(d);
              if (k == 0 || !on_board(15, xx, yy)) continue;
              const int q = yy * 15 + xx;
              if (test_square(s.stones[0], q) || test_square(s.stones[1], q)) continue;
              uint64_t two[kWords];
              std::copy(with, with + kWords, two);
              set_square(two, q);
              // A five through both squares on this line: along d only.
              const int len = 1 +
                              run_from([&](int z) { return test_square(two, z); }, 15, x, y,
                                       direction_dx(d), direction_dy(d), 5) +
                              run_from([&](int z) { return test_square(two, z); }, 15, x, y,
                                       -direction_dx(d), -direction_dy(d), 5);
              completions += rule == WinRule::kStandard ? len == 5 : len >= 5;
            }
            const Line l = b.line(side, d, c);
            const Line want = completions >= 2   ? patterns::kOpenFour
                              : completions == 1 ? patterns::kFour
                                                 : l;
            ASSERT_EQ(l, want) << to_string(s) << " square " << sq << " direction " << d;
            if (completions == 0) {
              ASSERT_LT(l, patterns::kFour);
            }
            fours += completions > 0;
          }
        }
      }
    }
    EXPECT_GE(fives, 5);
    EXPECT_GE(fours, 50);
  }
}

// The codes: one per multiset of four line classes, the same whatever the order of the lines,
// named by their classes strongest first; every name distinct.
TEST(GomokuPatterns, PatternCodesAreTheMultisetsOfFourLines) {
  std::set<std::string> names;
  for (int k = 0; k < patterns::kCodes; ++k) {
    const uint8_t* l = patterns::kCodeTables.lines[k];
    EXPECT_TRUE(l[0] >= l[1] && l[1] >= l[2] && l[2] >= l[3]) << k;
    EXPECT_EQ(patterns::code_of(l[0], l[1], l[2], l[3]), k);
    EXPECT_EQ(patterns::code_of(l[3], l[1], l[0], l[2]), k);
    EXPECT_EQ(patterns::code_of(l[2], l[3], l[1], l[0]), k);
    names.insert(patterns::kCodeTables.name[k]);
  }
  EXPECT_EQ(names.size(), static_cast<size_t>(patterns::kCodes));
  EXPECT_STREQ(patterns::kCodeTables.name[patterns::code_of(1, 4, 0, 6)], "6410");
  EXPECT_EQ(kFeatureNames[static_cast<size_t>(code_feature(patterns::code_of(6, 4, 1, 0), 1))],
            "opp_code_6410");
  EXPECT_EQ(kFeatureNames[kRequiredFeatures], "own_code_1000");
  EXPECT_EQ(kFeatureNames[kNumFeatures - 1], "opp_code_7777");
}

// The code features refine the line and combination features: on random positions every line
// count is the sum over codes of their squares times the lines of that class in the code, and
// the squares of each combination the sum over the codes that make it.
TEST(GomokuPatterns, CodeFeaturesSumToTheLineFeatures) {
  WordStream rng({31, 0, 0, kLeafSetup, 0});
  for (int position = 0; position < 40; ++position) {
    State s = initial_state(Rules{15, position % 2 ? WinRule::kStandard : WinRule::kFreestyle});
    const int stones = 6 + static_cast<int>(rng.next() % 30);
    for (int i = 0; i < stones && !is_over(s); ++i) {
      const int x = 2 + static_cast<int>(rng.next() % 11),
                y = 2 + static_cast<int>(rng.next() % 11);
      if (!test_square(s.stones[0], y * 15 + x) && !test_square(s.stones[1], y * 15 + x))
        apply(s, Move{static_cast<uint8_t>(x), static_cast<uint8_t>(y)});
    }
    if (is_over(s)) continue;
    float f[kNumFeatures];
    extract_features(s, f);
    const Board b(s);
    for (int view = 0; view < 2; ++view) {
      double lines[patterns::kLines] = {}, combos[patterns::kCombos] = {};
      for (int k = 1; k < patterns::kCodes; ++k) {
        const double n = f[code_feature(k, view)];
        const uint8_t* c = patterns::kCodeTables.lines[k];
        for (int d = 0; d < kDirections; ++d) lines[c[d]] += n;
        const Line l4[kDirections] = {Line(c[0]), Line(c[1]), Line(c[2]), Line(c[3])};
        combos[patterns::combine(l4)] += n;
      }
      for (int l = 1; l < patterns::kLines; ++l)
        ASSERT_EQ(lines[l], b.line_count(s.side ^ view, static_cast<Line>(l))) << to_string(s);
      for (int k = 1; k < patterns::kCombos; ++k)
        ASSERT_EQ(combos[k], b.combo_count(s.side ^ view, static_cast<patterns::Combo>(k)));
    }
    // Without codes only the first kRequiredFeatures are written, the same.
    float g[kNumFeatures];
    std::fill(g, g + kNumFeatures, -1.0f);
    extract_features(s, g, false);
    for (int i = 0; i < kRequiredFeatures; ++i) ASSERT_EQ(g[i], f[i]);
    EXPECT_EQ(g[kRequiredFeatures], -1.0f);
  }
}

TEST(GomokuPatterns, FeaturesAreTheBoardsCounts) {
  float f[kNumFeatures];
  extract_features(row8("....xxx", 1), f);  // White to move against Black's open three
  const auto at = [&](std::string_view name) {
    for (int i = 0; i < kNumFeatures; ++i)
      if (kFeatureNames[i] == name) return f[i];
    ADD_FAILURE() << name;
    return -1.0f;
  };
  EXPECT_EQ(at("opp_to_open_four"), 2);
  EXPECT_EQ(at("opp_to_four"), 2);
  EXPECT_EQ(at("own_to_open_four"), 0);
  EXPECT_EQ(at("opp_to_double_four"), 2) << "the open-four squares win next move";
  EXPECT_EQ(at("opp_open_three"), 1) << "the window features stay as they were";
}

// The engines' evaluation (eval::LinearEvaluation, MCTS's prior among them) over the shipped
// weights files equals the dense dot product bit for bit on random games: classic.yaml weighs
// only the window features, which it reads without building a pattern board; pattern.yaml its
// pattern features. A window-only evaluation that read the wrong features fails here.
TEST(GomokuPatterns, TheEnginesEvaluationIsTheDotProductOfEveryFeature) {
  for (const char* file : {"classic.yaml", "pattern.yaml"}) {
    const eval::Weights w = eval::load_weights<GomokuGame>(std::string(SELFPLAY_SOURCE_DIR) +
                                                           "/configs/gomoku/weights/" + file);
    const eval::LinearEvaluation<GomokuGame> evaluate(w);
    int nonzero = 0;
    for (const int stones : {6, 12, 18, 24})
      for (const State& s : middle_games(static_cast<uint32_t>(stones), 4, stones)) {
        const double dense = eval::evaluate<GomokuGame>(w, s, Rules{});
        EXPECT_EQ(evaluate(s, Rules{}), dense) << file << " stones " << stones;
        nonzero += dense != 0;
      }
    EXPECT_GE(nonzero, 8) << file;
  }
}

// The weights of configs/gomoku/weights/pattern.yaml, as a vector for PatternSearch (no code
// weighs).
std::vector<double> ladder() {
  std::vector<double> w{0,   -2,    5,    -3,     1,  -0.8, 0.8, -0.6, 0.15, -0.12,
                        0.1, -0.08, 0.02, -0.015, 10, -4,   6,   -3,   3,    -2};
  w.resize(kPatternFeatures + kCodeFeatures, 0);
  return w;
}

// The ladder moved onto the pattern codes: each code weighs what its lines and combination
// weigh in the ladder, and the line and combination features weigh 0. The same evaluation.
std::vector<double> ladder_as_codes() {
  const std::vector<double> l = ladder();
  std::vector<double> w(l.size(), 0);
  // Ladder indices (from own_to_five): line class -> index of its own weight.
  const auto line_weight = [&](int cls, int view) {
    switch (cls) {
      case patterns::kFive:
        return l[0 + view];
      case patterns::kOpenFour:
        return l[2 + view];
      case patterns::kFour:
        return l[4 + view];
      case patterns::kOpenThree:
        return l[6 + view];
      case patterns::kThree:
        return l[8 + view];
      case patterns::kOpenTwo:
        return l[10 + view];
      case patterns::kTwo:
        return l[12 + view];
      default:
        return 0.0;
    }
  };
  for (int k = 1; k < patterns::kCodes; ++k) {
    const uint8_t* c = patterns::kCodeTables.lines[k];
    const Line lines[kDirections] = {Line(c[0]), Line(c[1]), Line(c[2]), Line(c[3])};
    const patterns::Combo combo = patterns::combine(lines);
    for (int view = 0; view < 2; ++view) {
      double v = 0;
      for (int d = 0; d < kDirections; ++d) v += line_weight(c[d], view);
      if (combo == patterns::kComboWinNext) v += l[14 + view];
      if (combo == patterns::kComboFourThree) v += l[16 + view];
      if (combo == patterns::kComboDoubleThree) v += l[18 + view];
      w[static_cast<size_t>(code_feature(k, view) - kFirstPatternFeature)] = v;
    }
  }
  return w;
}

PatternSearch::Result search_at(const State& s, int depth, uint32_t vcf = 200) {
  PatternSearchOptions o;
  o.depth = depth;
  o.tt_size_mb = 1;
  o.vcf_nodes = vcf;
  o.root_vcf_nodes = 1u << 20;
  o.root_vct_nodes = 0;
  PatternSearch search(ladder(), o);
  return search.search(s);
}

// The root's VCF finds a win exactly where threats.hpp's VCF does (both searched to the end).
TEST(GomokuPatterns, RootVcfAgreesWithTheThreatSearch) {
  for (const WinRule rule : {WinRule::kFreestyle, WinRule::kStandard}) {
    WordStream rng({2026, static_cast<uint32_t>(rule), 0, kLeafSetup, 0});
    int positions = 0, wins = 0;
    while (positions < 150) {
      State s = initial_state(Rules{15, rule});
      const int stones = 14 + static_cast<int>(rng.next() % 16);
      for (int i = 0; i < stones && !is_over(s); ++i) {
        const int x = 3 + static_cast<int>(rng.next() % 9),
                  y = 3 + static_cast<int>(rng.next() % 9);
        if (!test_square(s.stones[0], y * 15 + x) && !test_square(s.stones[1], y * 15 + x))
          apply(s, Move{static_cast<uint8_t>(x), static_cast<uint8_t>(y)});
      }
      if (is_over(s)) continue;
      ++positions;
      Move m{};
      const bool reference = forced_win(s, 1u << 22, 64, false, &m) > 0;
      const PatternSearch::Result r = search_at(s, 1);
      const bool found = r.proven && r.value > 0 && std::string(r.how) != "search";
      ASSERT_EQ(found, reference) << "position " << positions << ": " << to_string(s) << " ("
                                  << r.how << ")";
      if (found) {
        ++wins;
        State t = s;
        apply(t, r.best);  // the first move of a win is legal and not a loss at once
        EXPECT_TRUE(!is_over(t) || winner(t) == s.side);
      }
    }
    EXPECT_GE(wins, 10) << "the positions must exercise the search";
  }
}

TEST(GomokuPatterns, SearchWinsBlocksAndMeetsAnOpenThree) {
  // Black to move with d8-g8: a five at c8 or h8.
  PatternSearch::Result r = search_at(row8("...xxxx"), 3);
  EXPECT_TRUE(r.best == (Move{2, 7}) || r.best == (Move{7, 7}));
  EXPECT_EQ(r.value, PatternSearch::kWin - 1);
  // White to move against Black's four d8-g8 (c8 is White's): the one block, h8.
  r = search_at(row8("..oxxxx", 1), 3);
  EXPECT_EQ(r.best, (Move{7, 7}));
  // White to move against Black's open three d8-f8: a move that meets it.
  const State s = play_moves(initial_state(), "d8a1e8o1f8");
  r = search_at(s, 4);
  const std::vector<Move> defences = {{2, 7}, {6, 7}, {1, 7}, {7, 7}};  // c8 g8 b8 h8
  EXPECT_NE(std::find(defences.begin(), defences.end(), r.best), defences.end())
      << to_string(r.best) << ": an open three must be met";
  // The broad search's double three (threats_test): the root's VCT finds it.
  State d = initial_state();
  for (const auto& [x, y] : std::vector<std::pair<int, int>>{{6, 7}, {7, 7}, {8, 5}, {8, 6}})
    set_square(d.stones[0], y * 15 + x);
  for (const auto& [x, y] : std::vector<std::pair<int, int>>{{0, 0}, {0, 14}, {14, 0}, {14, 14}})
    set_square(d.stones[1], y * 15 + x);
  d.ply = 8;
  PatternSearchOptions o;
  o.depth = 1;
  o.tt_size_mb = 1;
  o.root_vct_nodes = 1u << 16;
  PatternSearch vct(ladder(), o);
  r = vct.search(d);
  EXPECT_STREQ(r.how, "vct");
  EXPECT_EQ(r.best, (Move{8, 7}));
  EXPECT_EQ(r.value, PatternSearch::kWin - 5);
}

TEST(GomokuPatterns, FixedDepthSearchIsDeterministic) {
  const State s = play_moves(initial_state(), "h8i9g7i7i8g9");
  PatternSearchOptions o;
  o.depth = 5;
  o.tt_size_mb = 2;
  PatternSearch a(ladder(), o), b(ladder(), o);
  const PatternSearch::Result ra = a.search(s), rb = b.search(s);
  EXPECT_EQ(ra.best, rb.best);
  EXPECT_EQ(ra.value, rb.value);
  EXPECT_EQ(ra.nodes, rb.nodes);
  EXPECT_EQ(ra.depth, 5);
  EXPECT_GT(ra.nodes, 100u);
}

// The ladder moved onto the pattern codes searches exactly as the ladder: the same move, value
// and nodes on the opening and on random middle games, and the code weights count (a mutation:
// the codes' weights halved changes the values).
TEST(GomokuPatterns, TheLadderAsCodesSearchesAsTheLadder) {
  PatternSearchOptions o;
  o.depth = 4;
  o.tt_size_mb = 2;
  o.root_vct_nodes = 0;
  std::vector<State> positions{play_moves(initial_state(), "h8i9g7i7i8g9")};
  WordStream rng({57, 0, 0, kLeafSetup, 0});
  while (positions.size() < 8) {
    State s = initial_state();
    for (int i = 0; i < 16 && !is_over(s); ++i) {
      const int x = 4 + static_cast<int>(rng.next() % 7), y = 4 + static_cast<int>(rng.next() % 7);
      if (!test_square(s.stones[0], y * 15 + x) && !test_square(s.stones[1], y * 15 + x))
        apply(s, Move{static_cast<uint8_t>(x), static_cast<uint8_t>(y)});
    }
    if (!is_over(s)) positions.push_back(s);
  }
  std::vector<double> halved = ladder_as_codes();
  for (int i = kPatternFeatures; i < kPatternFeatures + kCodeFeatures; ++i)
    halved[static_cast<size_t>(i)] /= 2;
  int differ = 0;
  for (const State& s : positions) {
    PatternSearch a(ladder(), o), b(ladder_as_codes(), o), c(halved, o);
    const PatternSearch::Result ra = a.search(s), rb = b.search(s), rc = c.search(s);
    EXPECT_EQ(ra.best, rb.best) << to_string(s);
    EXPECT_EQ(ra.value, rb.value) << to_string(s);
    EXPECT_EQ(ra.nodes, rb.nodes) << to_string(s);
    differ += rc.value != ra.value;
  }
  EXPECT_GE(differ, 4);
}

// The engine on an injected clock that advances 1 ms at every read: it stops within a few reads
// of its budget, in the threat searches too, and answers a legal move; with the budget spent at
// the first read it still answers one. The same with every optional search feature on.
TEST(GomokuPatterns, TheEngineKeepsAnInjectedClock) {
  for (const bool features : {false, true})
    for (const uint32_t budget : {1u, 20u, 200u}) {
      PatternEngineOptions o;
      o.time_ms = budget;
      o.search.tt_size_mb = 1;
      o.search.root_vct_nodes = 1u << 20;
      // Every optional feature on: time management iterates past half the budget, razoring runs
      // the horizon's VCF inside the tree; the clock must hold all the same.
      o.search.forced_extension = o.search.futility = o.search.razoring = features;
      o.search.move_count_pruning = o.search.time_management = o.search.score_reductions = features;
      o.search.opponent_vct = features;
      PatternEngine engine(ladder(), o, "ladder");
      auto t = std::chrono::steady_clock::time_point{};
      int reads = 0;
      engine.set_clock([&] {
        ++reads;
        return t += std::chrono::milliseconds(1);
      });
      const State s = play_moves(initial_state(), "h8i9g7i7i8g9j8k8");
      engine.begin(s, search::SearchIds{});
      const Move m = engine.decision(nullptr);
      EXPECT_FALSE(test_square(s.stones[0], m.y * 15 + m.x) ||
                   test_square(s.stones[1], m.y * 15 + m.x));
      EXPECT_LE(reads, static_cast<int>(budget) + 4)
          << "budget " << budget << ", features " << features;
      EXPECT_LE(engine.last_seconds(), budget / 1000.0 + 0.005);
      if (budget == 200) {
        EXPECT_GE(engine.last_result().depth, 1);
      }
    }
}

// Each optional search feature by itself (experiments/gomoku-strength/ measures their strength):
// it still wins, blocks and meets an open three, searches deterministically, and does what it
// says to the node count: the prunings search fewer nodes over middle games at depth 4, the
// extension more, the score-driven reductions other nodes (more here: they re-search). A feature
// wired to nothing fails here.
TEST(GomokuPatterns, EachSearchFeatureKeepsTheTacticsAndChangesTheNodes) {
  using Flag = bool PatternSearchOptions::*;
  const struct {
    const char* name;
    Flag flag;
    int nodes;  // -1: fewer nodes than the search without it, +1: more, 0: other nodes
  } features[] = {{"futility", &PatternSearchOptions::futility, -1},
                  {"razoring", &PatternSearchOptions::razoring, -1},
                  {"move_count_pruning", &PatternSearchOptions::move_count_pruning, -1},
                  {"forced_extension", &PatternSearchOptions::forced_extension, 1},
                  {"score_reductions", &PatternSearchOptions::score_reductions, 0},
                  {"opponent_vct", &PatternSearchOptions::opponent_vct, 0}};
  const std::vector<State> positions = middle_games(91, 6);
  PatternSearchOptions base;
  base.depth = 4;
  base.tt_size_mb = 2;
  base.root_vct_nodes = 0;
  uint64_t base_nodes = 0;
  for (const State& s : positions) base_nodes += PatternSearch(ladder(), base).search(s).nodes;
  for (const auto& f : features) {
    PatternSearchOptions o = base;
    o.*f.flag = true;
    uint64_t nodes = 0;
    for (const State& s : positions) nodes += PatternSearch(ladder(), o).search(s).nodes;
    const PatternSearch::Result ra = PatternSearch(ladder(), o).search(positions[0]);
    const PatternSearch::Result rb = PatternSearch(ladder(), o).search(positions[0]);
    EXPECT_EQ(ra.best, rb.best) << f.name;
    EXPECT_EQ(ra.nodes, rb.nodes) << f.name;
    if (f.nodes < 0) {
      EXPECT_LT(nodes, base_nodes) << f.name;
    } else if (f.nodes > 0) {
      EXPECT_GT(nodes, base_nodes) << f.name;
    } else {
      EXPECT_NE(nodes, base_nodes) << f.name;
    }
    // The tactics of SearchWinsBlocksAndMeetsAnOpenThree, at depths where the features act.
    o.depth = 3;
    o.tt_size_mb = 1;
    o.root_vcf_nodes = 1u << 20;
    PatternSearch::Result r = PatternSearch(ladder(), o).search(row8("...xxxx"));
    EXPECT_EQ(r.value, PatternSearch::kWin - 1) << f.name;
    r = PatternSearch(ladder(), o).search(row8("..oxxxx", 1));
    EXPECT_EQ(r.best, (Move{7, 7})) << f.name;
    o.depth = 4;
    r = PatternSearch(ladder(), o).search(play_moves(initial_state(), "d8a1e8o1f8"));
    const std::vector<Move> defences = {{2, 7}, {6, 7}, {1, 7}, {7, 7}};  // c8 g8 b8 h8
    EXPECT_NE(std::find(defences.begin(), defences.end(), r.best), defences.end()) << f.name;
  }
}

// opponent_vct. White's f8 g8 and h6 h7 meet at h8, a double open three: White wins by it (a VCT)
// unless Black, to move, takes it away. With one such square the search at depth 2 plays a move
// after which White has no VCT (checked by White's own root VCF and VCT, 65,536 nodes each); with a
// second one at l12, which no one move stops, every move is lost, and the search says so at depth
// 2 in exactly the plies of the VCT (Black moves, White's double three, Black blocks one three,
// White's open four, Black blocks one end, White's five: the sixth ply). Black's stones are far
// away on the edges.
TEST(GomokuPatterns, OpponentVctScoresTheMovesThatLeaveItAsLost) {
  PatternSearchOptions o;
  o.depth = 2;
  o.tt_size_mb = 1;
  o.root_vct_nodes = 0;
  o.opponent_vct = true;
  PatternSearchOptions check;  // White's own search for a win, at the root
  check.depth = 1;
  check.tt_size_mb = 1;
  check.root_vcf_nodes = 1u << 16;
  check.root_vct_nodes = 1u << 16;
  const auto white_wins = [&](const State& s) {
    const PatternSearch::Result r = PatternSearch(ladder(), check).search(s);
    return r.value >= PatternSearch::kProven;
  };

  const State one = play_moves(initial_state(), "a1h6o1h7a15f8o15g8");
  State pass = one;
  pass.side ^= 1;
  ASSERT_TRUE(white_wins(pass)) << "White would win if it moved now";
  const PatternSearch::Result r = PatternSearch(ladder(), o).search(one);
  EXPECT_GT(r.value, -PatternSearch::kProven);
  State after = one;
  apply(after, r.best);
  EXPECT_FALSE(white_wins(after)) << "the answer " << int(r.best.x) << "," << int(r.best.y);

  const State two = play_moves(initial_state(), "a1h6o1h7a15f8o15g8a8l10o8l11h1j12h15k12");
  const PatternSearch::Result lost = PatternSearch(ladder(), o).search(two);
  EXPECT_EQ(lost.value, -(PatternSearch::kWin - 6));
  EXPECT_TRUE(lost.proven);
  // Without the feature the same depth searches every move to the horizon: more nodes.
  PatternSearchOptions plain = o;
  plain.opponent_vct = false;
  EXPECT_GT(PatternSearch(ladder(), plain).search(two).nodes, lost.nodes);
}

// The move-score table: the ladder's values given explicitly search exactly as the built-in
// table; another table (attack scores dropped to the defence's) orders the moves otherwise and
// changes the nodes, the tactics staying right; a weights file's move_scores reach the engine
// through the config; a table of the wrong size is refused.
TEST(GomokuPatterns, TheMoveScoreTableComesFromTheWeightsFile) {
  PatternSearchOptions o;
  o.depth = 4;
  o.tt_size_mb = 2;
  o.root_vct_nodes = 0;
  std::vector<double> flat(kMoveScoreDefaults.begin(), kMoveScoreDefaults.end());
  for (int k = 1; k < patterns::kCodes; ++k)
    flat[static_cast<size_t>(move_score_entry(k, 0))] =
        flat[static_cast<size_t>(move_score_entry(k, 1))];
  int differ = 0;
  for (const State& s : middle_games(33, 8)) {
    const PatternSearch::Result a = PatternSearch(ladder(), o).search(s);
    const PatternSearch::Result b = PatternSearch(ladder(), o, kMoveScoreDefaults).search(s);
    const PatternSearch::Result c = PatternSearch(ladder(), o, flat).search(s);
    EXPECT_EQ(a.nodes, b.nodes);
    EXPECT_EQ(a.best, b.best);
    differ += c.nodes != a.nodes;
  }
  EXPECT_GE(differ, 4);
  PatternSearchOptions t = o;
  t.depth = 3;
  t.root_vcf_nodes = 1u << 20;
  EXPECT_EQ(PatternSearch(ladder(), t, flat).search(row8("...xxxx")).value,
            PatternSearch::kWin - 1);
  EXPECT_EQ(PatternSearch(ladder(), t, flat).search(row8("..oxxxx", 1)).best, (Move{7, 7}));
  EXPECT_THROW(PatternSearch(ladder(), o, std::vector<double>(3, 1.0)), std::invalid_argument);

  // Through a weights file and the config: pattern.yaml with the flattened table.
  std::ifstream in(std::string(SELFPLAY_SOURCE_DIR) + "/configs/gomoku/weights/pattern.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text += "move_scores:\n";
  for (int k = 1; k < patterns::kCodes; ++k)
    text += "  " + std::string(kMoveScoreNames[static_cast<size_t>(move_score_entry(k, 0))]) +
            ": " + std::to_string(flat[static_cast<size_t>(move_score_entry(k, 0))]) + "\n";
  const std::string path = ::testing::TempDir() + "flat-move-scores.yaml";
  std::ofstream(path) << text;
  const eval::Weights w = eval::load_weights<GomokuGame>(path);
  EXPECT_EQ(w.move_scores, flat);
  const auto engine_nodes = [](const std::string& weights) {
    const auto cfg = config::load_campaign_config_text<GomokuGame>(
        "game: gomoku\nengines:\n  player0: {type: alphabeta, search: pattern, depth: 4, "
        "weights: \"" +
            weights + "\"}\n",
        "m.yaml");
    const auto engine = selfplay::make_engine<GomokuGame>(cfg.engines[0], Rules{}, 0);
    engine->begin(play_moves(initial_state(), "h8i9g7i7i8g9"), search::SearchIds{});
    search::MoveStats stats;
    engine->decision(&stats);
    return stats.tree_nodes;
  };
  EXPECT_NE(engine_nodes(path), engine_nodes(std::string(SELFPLAY_SOURCE_DIR) +
                                             "/configs/gomoku/weights/pattern.yaml"));
}

// MCTS priors of every child at once (one pattern board, each move played and taken back) are the
// priors child by child, bit for bit; weights on the window counts keep the one-by-one path.
TEST(GomokuPatterns, ChildPriorsAtOnceAreThoseChildByChild) {
  const auto pattern = std::make_shared<const eval::Weights>(eval::load_weights<GomokuGame>(
      std::string(SELFPLAY_SOURCE_DIR) + "/configs/gomoku/weights/pattern.yaml"));
  const auto classic = std::make_shared<const eval::Weights>(eval::load_weights<GomokuGame>(
      std::string(SELFPLAY_SOURCE_DIR) + "/configs/gomoku/weights/classic.yaml"));
  EXPECT_TRUE(eval::LinearEvaluation<GomokuGame>(*pattern).children_at_once());
  EXPECT_FALSE(eval::LinearEvaluation<GomokuGame>(*classic).children_at_once());
  EXPECT_FALSE(selfplay::children_prior<GomokuGame>(classic, Rules{}, 0.1));
  const auto at_once = selfplay::children_prior<GomokuGame>(pattern, Rules{}, 0.18);
  const auto one = selfplay::evaluation_prior<GomokuGame>(pattern, Rules{}, 0.18);
  ASSERT_TRUE(at_once);
  int children = 0, differ = 0;
  for (const State& s : middle_games(23, 10, 11)) {
    GomokuGame::MoveList moves;
    GomokuGame::candidate_moves(s, Rules{}, moves);
    std::vector<double> priors(static_cast<size_t>(moves.size));
    at_once(s, moves.moves, moves.size, priors.data());
    for (int k = 0; k < moves.size; ++k) {
      State child = s;
      apply(child, moves.moves[k]);
      ASSERT_EQ(priors[static_cast<size_t>(k)], one(child)) << k;
      differ += priors[static_cast<size_t>(k)] != priors[0];
      ++children;
    }
    // The windows' evaluation, one by one through children(), as operator() gives it.
    const eval::LinearEvaluation<GomokuGame> windows(*classic);
    std::vector<double> scores(static_cast<size_t>(moves.size));
    windows.children(s, Rules{}, moves.moves, moves.size, scores.data());
    State child = s;
    apply(child, moves.moves[moves.size - 1]);
    EXPECT_EQ(scores.back(), windows(child, Rules{}));
  }
  EXPECT_GT(children, 200);
  EXPECT_GT(differ, children / 4);  // the priors tell the children apart
}

// Without threat searches (threat_nodes 0) the search still plays the open four it has, and a whole
// game of it is legal to its end (it once replayed a stale move: the root returned the win
// without a move).
TEST(GomokuPatterns, WithoutThreatSearchesTheOpenFourIsPlayedAndEveryMoveIsLegal) {
  PatternSearchOptions o;
  o.depth = 2;
  o.tt_size_mb = 1;
  o.vcf_nodes = o.root_vcf_nodes = o.root_vct_nodes = 0;
  PatternSearch search(ladder(), o);
  const PatternSearch::Result r = search.search(row8("....xxx", 0));
  EXPECT_TRUE(r.best == (Move{3, 7}) || r.best == (Move{7, 7})) << int(r.best.x);
  EXPECT_EQ(r.value, PatternSearch::kWin - 3);
  for (const State& start : middle_games(5, 3, 4)) {
    State s = start;
    search.clear();
    while (!is_over(s)) {
      const Move m = search.search(s).best;
      ASSERT_FALSE(test_square(s.stones[0], square_of(s, m)) ||
                   test_square(s.stones[1], square_of(s, m)))
          << "ply " << s.ply;
      apply(s, m);
    }
    EXPECT_LT(s.ply, 120);
  }
}

// The data of the move-score fit: a played move among the squares the search orders, each with
// the table entries of its codes; positions the search does not order are no choice.
TEST(GomokuPatterns, AMoveChoiceIsTheSearchsCandidatesWithTheirEntries) {
  std::vector<std::array<int32_t, 2>> out;
  int checked = 0;
  for (const State& s : middle_games(71, 12, 9)) {
    const Board b(s);
    const int me = b.side_to_move();
    if (b.threats(0, patterns::kFiveSet).any() || b.threats(1, patterns::kFiveSet).any() ||
        b.threats(me ^ 1, patterns::kWinNextSet).any())
      continue;
    std::vector<int> cells;
    b.near().for_each([&](int c) { cells.push_back(c); });
    const int pick = cells[cells.size() / 2];
    ASSERT_EQ(move_choice(s, Board::move_of(pick), out), static_cast<int>(cells.size() / 2));
    ASSERT_EQ(out.size(), cells.size());
    for (size_t i = 0; i < cells.size(); ++i) {
      const int mine = b.code(me, cells[i]), theirs = b.code(me ^ 1, cells[i]);
      EXPECT_EQ(out[i][0], mine ? move_score_entry(mine, 0) : -1);
      EXPECT_EQ(out[i][1], theirs ? move_score_entry(theirs, 1) : -1);
    }
    // The ladder's score of a candidate is the sum of its entries.
    const MoveScoreTables& t = kLadderMoveScores;
    EXPECT_EQ((out[0][0] < 0 ? 0 : kMoveScoreDefaults[static_cast<size_t>(out[0][0])]) +
                  (out[0][1] < 0 ? 0 : kMoveScoreDefaults[static_cast<size_t>(out[0][1])]),
              t.attack[b.code(me, cells[0])] + t.defend[b.code(me ^ 1, cells[0])]);
    // A square far from every stone is none of them.
    EXPECT_EQ(move_choice(s, Move{0, 0}, out), -1);
    EXPECT_TRUE(out.empty());
    ++checked;
  }
  EXPECT_GE(checked, 6);
  // Black to move against White's open three: only the squares of a four of either side.
  const State three = row8("x.x...ooo....", 0);
  const Board b(three);
  patterns::CellSet fours = b.threats(0, patterns::kFourSet);
  for (int i = 0; i < patterns::kCellWords; ++i)
    fours.w[i] |= b.threats(1, patterns::kFourSet).w[i];
  ASSERT_EQ(move_choice(three, Move{4, 7}, out), 0);  // x = 4 makes the broken four o.ooo
  EXPECT_EQ(static_cast<int>(out.size()), fours.count());
  EXPECT_LT(fours.count(), b.near().count());
  // A four on the board (a five to make or to block), the empty board: no choice.
  EXPECT_EQ(move_choice(row8("..oooo", 0), Move{1, 7}, out), -1);
  EXPECT_EQ(move_choice(row8("xxxx...o", 1), Move{4, 7}, out), -1);
  EXPECT_EQ(move_choice(initial_state(), Move{7, 7}, out), -1);
}

// time_management: past `soft` the search goes on while the best move changed in one of the last
// two iterations (until `stop`, or the depth); without it, no iteration starts past `soft`.
TEST(GomokuPatterns, TimeManagementIteratesOnWhileTheBestMoveChanges) {
  // soft says "half spent" from the start of iteration 4 on; stop never.
  int calls = 0;
  const auto soft = [](void* c) { return ++*static_cast<int*>(c) >= 3; };
  PatternSearchOptions o;
  o.depth = 5;
  o.tt_size_mb = 2;
  o.root_vcf_nodes = 0;
  o.root_vct_nodes = 0;
  int unstable = 0, stable = 0;
  for (const State& s : middle_games(5, 24, 12)) {
    // Whether the best move changed at iteration 2 or 3: the fixed-depth searches say.
    o.time_management = false;
    std::vector<Move> best;
    for (int d = 1; d <= 3; ++d) {
      PatternSearchOptions fixed = o;
      fixed.depth = d;
      best.push_back(PatternSearch(ladder(), fixed).search(s).best);
    }
    const bool changed = !(best[1] == best[0]) || !(best[2] == best[1]);
    calls = 0;
    const PatternSearch::Result plain = PatternSearch(ladder(), o).search(s, {}, {soft, &calls});
    if (plain.proven || std::string(plain.how) != "search") continue;
    EXPECT_EQ(plain.depth, 3);
    o.time_management = true;
    calls = 0;
    const PatternSearch::Result managed = PatternSearch(ladder(), o).search(s, {}, {soft, &calls});
    o.time_management = false;
    if (changed) {
      EXPECT_GT(managed.depth, 3) << to_string(s);
      ++unstable;
    } else {
      EXPECT_EQ(managed.depth, 3) << to_string(s);
      ++stable;
    }
  }
  EXPECT_GE(unstable, 3);
  EXPECT_GE(stable, 3);
}

TEST(GomokuPatterns, TheConfigKeyMakesThePatternEngineAndRefusesWindowWeights) {
  const std::string base =
      std::string("game: gomoku\nengines:\n  player0:\n    type: alphabeta\n") +
      "    search: pattern\n    depth: 2\n    weights: " + SELFPLAY_SOURCE_DIR;
  const auto cfg = config::load_campaign_config_text<GomokuGame>(
      base + "/configs/gomoku/weights/pattern.yaml\n", "pattern.yaml");
  const auto engine = selfplay::make_engine<GomokuGame>(cfg.engines[0], Rules{}, 0);
  EXPECT_EQ(engine->describe().rfind("alphabeta(pattern search", 0), 0u) << engine->describe();
  const auto featured = config::load_campaign_config_text<GomokuGame>(
      base + "/configs/gomoku/weights/pattern.yaml\n    futility: true\n    razoring: true\n" +
          "    move_count_pruning: true\n    forced_extension: true\n    time_management: true\n" +
          "    score_reductions: true\n    opponent_vct: true\n",
      "featured.yaml");
  EXPECT_NE(selfplay::make_engine<GomokuGame>(featured.engines[0], Rules{}, 0)
                ->describe()
                .find("forced extension, futility, razoring, move-count pruning, time management, "
                      "score reductions, opponent VCT"),
            std::string::npos);
  try {
    config::load_campaign_config_text<GomokuGame>(
        "game: gomoku\nengines:\n  player0: {type: alphabeta, depth: 2, futility: true}\n",
        "generic.yaml");
    FAIL() << "futility is the pattern search's";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("engines.player0.futility"), std::string::npos)
        << e.what();
  }
  try {
    config::load_campaign_config_text<GomokuGame>(base + "/configs/gomoku/weights/classic.yaml\n",
                                                  "classic.yaml");
    FAIL() << "classic.yaml weighs the window features";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("engines.player0.search"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("own_five"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sp::gomoku
