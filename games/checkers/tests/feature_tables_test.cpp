// Checkers evaluation tables (games/checkers/feature_tables.hpp): the entries' names, values on
// hand-checked positions, and the symmetries every entry must have: the same position seen by
// the other side negates it, and the board turned round with the colours swapped changes nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <string>

#include "core/philox.hpp"
#include "games/checkers/checkers.hpp"
#include "games/checkers/feature_tables.hpp"
#include "games/checkers/features.hpp"
#include "games/checkers/game.hpp"
#include "games/checkers/notation.hpp"
#include "games/checkers/tests/random_position.hpp"
#include "host/engines/eval/weights.hpp"
#include "tests/test_util.hpp"

namespace sp::checkers {
namespace {

int index_of(std::string_view name) {
  for (int i = 0; i < kNumFeatures; ++i)
    if (kFeatureNames[i] == name) return i;
  ADD_FAILURE() << "no feature " << name;
  return 0;
}

State random_position(uint32_t seed, int plies) { return random_play(78, seed, plies); }

uint32_t rotate(uint32_t b) {
  uint32_t out = 0;
  for (int sq = 0; sq < kSquares; ++sq)
    if (b >> sq & 1) out |= 1u << (kSquares - 1 - sq);
  return out;
}

TEST(CheckersTables, EveryEntryHasItsOwnName) {
  EXPECT_EQ(kNumFeatures, kRequiredFeatures + tables::kCount);
  EXPECT_EQ(tables::kCount, 187);
  std::set<std::string_view> seen(kFeatureNames.begin(), kFeatureNames.end());
  EXPECT_EQ(seen.size(), static_cast<size_t>(kNumFeatures));
  EXPECT_EQ(kFeatureNames[kRequiredFeatures], "man_open_01");
  EXPECT_EQ(kFeatureNames[kRequiredFeatures + tables::kManEnd + 27], "man_end_28");
  EXPECT_EQ(kFeatureNames[kRequiredFeatures + tables::kKingEnd + 31], "king_end_32");
  EXPECT_EQ(kFeatureNames[kRequiredFeatures + tables::kBackOpen], "back_open_none");
  EXPECT_EQ(kFeatureNames[kRequiredFeatures + tables::kBackOpen + 5], "back_open_13");
  EXPECT_EQ(kFeatureNames[kRequiredFeatures + tables::kBackEnd + 15], "back_end_1234");
  EXPECT_EQ(kFeatureNames[kRequiredFeatures + tables::kRunaway + 6], "runaway_7");
  EXPECT_EQ(kFeatureNames[kRequiredFeatures + tables::kTempo], "tempo_men_01_04");
  EXPECT_EQ(kFeatureNames[kRequiredFeatures + tables::kLead + 2 * tables::kBuckets + 5],
            "lead_3_pieces_21_24");
  EXPECT_EQ(kFeatureNames[kNumFeatures - 1], "kings_end_4");
  for (const std::string_view n : kFeatureNames) {
    EXPECT_LT(n.size(), static_cast<size_t>(tables::Names::kLength)) << n;
    for (const char c : n)
      EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_') << n;
  }
}

TEST(CheckersTables, TheStartPositionBalancesEveryEntry) {
  float f[kNumFeatures];
  extract_features(initial_state(), f);
  for (int i = kRequiredFeatures; i < kNumFeatures; ++i) EXPECT_EQ(f[i], 0) << kFeatureNames[i];
}

TEST(CheckersTables, AManNearItsCrownAgainstTwoKings) {
  // White to move: its man on 5 (its square 28 as Black counts, one row from crowning, nothing in
  // its way) against Black's kings on 28 and 32; 3 pieces on the board: open 1/8, end 7/8.
  float f[kNumFeatures];
  extract_features(parse_position("W:W5:BK28,K32"), f);
  std::map<std::string_view, float> want = {
      {"man_open_28", 0.125f},  {"man_end_28", 0.875f},    {"king_open_28", -0.125f},
      {"king_end_28", -0.875f}, {"king_open_32", -0.125f}, {"king_end_32", -0.875f},
      {"runaway_1", 1},         {"tempo_men_01_04", 6},    {"lead_1_pieces_01_04", -1},
      {"kings_end_2", -0.875f},
  };
  for (int i = kRequiredFeatures; i < kNumFeatures; ++i) {
    const auto it = want.find(kFeatureNames[i]);
    EXPECT_EQ(f[i], it == want.end() ? 0.0f : it->second) << kFeatureNames[i];
  }
}

TEST(CheckersTables, BackRowPatternsOfBothSides) {
  // Black to move with men on 1 and 3 (the bridge) and 10; White with men on 30 and 31 (its
  // squares 2 and 3) and 23; six pieces: open 1/4.
  float f[kNumFeatures];
  extract_features(parse_position("B:W30,31,23:B1,3,10"), f);
  EXPECT_EQ(f[index_of("back_open_13")], 0.25f);
  EXPECT_EQ(f[index_of("back_end_13")], 0.75f);
  EXPECT_EQ(f[index_of("back_open_23")], -0.25f);
  EXPECT_EQ(f[index_of("back_end_23")], -0.75f);
  EXPECT_EQ(f[index_of("back_open_none")], 0);
  // Black's man on 10 and White's on 23 stand on the same square as each side counts (33 - 23).
  EXPECT_EQ(f[index_of("man_open_10")], 0);
}

TEST(CheckersTables, TheOtherSidesViewNegatesAndTheTurnedBoardKeepsEveryEntry) {
  int nonzero = 0;
  for (uint32_t g = 0; g < 300; ++g) {
    const State s = random_position(g, static_cast<int>(g % 110));
    State other = s;
    other.side = static_cast<uint8_t>(s.side ^ 1);
    State turned = s;
    turned.pieces[0] = rotate(s.pieces[1]);
    turned.pieces[1] = rotate(s.pieces[0]);
    turned.kings = rotate(s.kings);
    turned.side = static_cast<uint8_t>(s.side ^ 1);
    float a[kNumFeatures], b[kNumFeatures], c[kNumFeatures];
    extract_features(s, a);
    extract_features(other, b);
    extract_features(turned, c);
    for (int i = kRequiredFeatures; i < kNumFeatures; ++i) {
      ASSERT_EQ(a[i], -b[i]) << kFeatureNames[i] << " in " << fen(s);
      ASSERT_EQ(a[i], c[i]) << kFeatureNames[i] << " in " << fen(s);
      ASSERT_LE(std::abs(a[i]), kFeatureMax[i]) << kFeatureNames[i] << " in " << fen(s);
      nonzero += a[i] != 0;
    }
  }
  EXPECT_GT(nonzero, 3000);  // the positions exercise the tables
}

std::string load_error(const std::string& text) {
  try {
    eval::load_weights_text<CheckersGame>(text, "w.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CheckersTables, WeightsFilesMayLeaveTableEntriesOutButNoHandFeature) {
  const std::string hand =
      test::read_text(test::source_path("configs/checkers/weights/strong.yaml"));
  const eval::Weights w = eval::load_weights_text<CheckersGame>(hand, "strong.yaml");
  ASSERT_EQ(w.w.size(), static_cast<size_t>(kNumFeatures));
  EXPECT_EQ(w.w[0], 100);
  for (int i = kRequiredFeatures; i < kNumFeatures; ++i) EXPECT_EQ(w.w[i], 0) << kFeatureNames[i];
  const eval::Weights t = eval::load_weights_text<CheckersGame>(
      hand + "  man_open_05: 12.5\n  kings_end_4: -3\n", "tables.yaml");
  EXPECT_EQ(t.w[index_of("man_open_05")], 12.5);
  EXPECT_EQ(t.w[index_of("kings_end_4")], -3);
  EXPECT_EQ(t.w[index_of("man_open_06")], 0);
  // A table entry that does not exist, and a hand feature left out.
  const std::string unknown = load_error(hand + "  man_open_29: 1\n");
  EXPECT_NE(unknown.find("key 'weights.man_open_29': unknown key"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("did you mean 'man_open_"), std::string::npos) << unknown;
  std::string without = hand;
  without.erase(without.find("  own_tempo:"), without.find('\n', without.find("  own_tempo:")) -
                                                  without.find("  own_tempo:") + 1);
  EXPECT_NE(load_error(without).find("key 'weights.own_tempo': missing"), std::string::npos)
      << load_error(without);
}

// tables.yaml, the loop's champion: strong.yaml's hand weights and tuned table entries.
TEST(CheckersTables, TheShippedTablesWeighStrongsFeaturesAndTheirOwnEntries) {
  const eval::Weights strong =
      eval::load_weights<CheckersGame>(test::source_path("configs/checkers/weights/strong.yaml"));
  const eval::Weights tables =
      eval::load_weights<CheckersGame>(test::source_path("configs/checkers/weights/tables.yaml"));
  EXPECT_EQ(tables.name, "tables");
  for (int i = 0; i < kRequiredFeatures; ++i)
    EXPECT_EQ(tables.w[i], strong.w[i]) << kFeatureNames[i];
  int weighed = 0;
  for (int i = kRequiredFeatures; i < kNumFeatures; ++i) weighed += tables.w[i] != 0;
  EXPECT_GT(weighed, 150);
}

// The engines' evaluation (eval::LinearEvaluation): the dense dot product over every feature bit
// for bit when no table entry weighs (the tables are not even computed), and up to rounding when
// entries weigh (table_score sums them from the pieces).
TEST(CheckersTables, TheEnginesEvaluationEqualsTheFullDotProduct) {
  WordStream rng({79, 0, 0, kLeafSetup, 0});
  const auto random_weight = [&] {
    return (static_cast<double>(rng.below(200001)) - 100000) / 997;
  };
  for (int trial = 0; trial < 40; ++trial) {
    const bool tables = trial % 2 == 1;
    eval::Weights w;
    for (int i = 0; i < kNumFeatures; ++i) {
      // Hand weights any; table entries (odd trials) mostly 0, the others any sign and size.
      const bool weighed = i < kRequiredFeatures ? rng.below(5) != 0 : tables && rng.below(4) != 0;
      w.w.push_back(weighed ? random_weight() : 0);
    }
    const eval::LinearEvaluation<CheckersGame> linear(w);
    const Rules rules{};
    for (uint32_t g = 0; g < 40; ++g) {
      const State s = random_position(1000 * trial + g, static_cast<int>(g * 3 % 100));
      const double dense = eval::evaluate<CheckersGame>(w, s, rules), fast = linear(s, rules);
      if (tables)
        ASSERT_NEAR(fast, dense, 1e-9 * (1 + std::abs(dense))) << fen(s);
      else
        ASSERT_EQ(std::memcmp(&dense, &fast, sizeof dense), 0) << dense << " vs " << fast;
    }
  }
  // A mutation the comparison catches: one table entry's weight changed by 1 moves the score in
  // the positions where that entry is not 0.
  eval::Weights w;
  w.w.assign(kNumFeatures, 0);
  w.w[0] = 100;
  w.w[index_of("man_open_12")] = 7;
  eval::Weights other = w;
  other.w[index_of("man_open_12")] = 8;
  // Neither side has a man on its square 12 (White's 21), then Black has one.
  const State s = parse_position("B:W22-32:B1-11,13");
  const State t = parse_position("B:W22-32:B1-12");
  EXPECT_EQ(eval::LinearEvaluation<CheckersGame>(w)(s, Rules{}),
            eval::LinearEvaluation<CheckersGame>(other)(s, Rules{}));
  EXPECT_NE(eval::LinearEvaluation<CheckersGame>(w)(t, Rules{}),
            eval::LinearEvaluation<CheckersGame>(other)(t, Rules{}));
}

}  // namespace
}  // namespace sp::checkers
