// Evaluation features on hand-made positions (values computed by hand), weights files (errors and
// the shipped files), and the expectimax engine against a plain brute-force expectimax written
// here without pruning, table or chance classes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "games/ewn/ewn.hpp"
#include "games/ewn/features.hpp"
#include "games/ewn/game.hpp"
#include "games/ewn/host.hpp"
#include "games/ewn/notation.hpp"
#include "games/ewn/tests/test_util.hpp"
#include "host/engines/eval/weights.hpp"
#include "host/engines/search/expectimax.hpp"
#include "host/engines/search/game_hooks.hpp"

namespace sp {
namespace {

using ewn::Move;
using ewn::MoveList;
using ewn::Rules;
using ewn::State;

std::string weights_path(const std::string& name) {
  return std::string(SELFPLAY_SOURCE_DIR) + "/configs/ewn/weights/" + name + ".yaml";
}

// The table's entry size fixes how many entries tt_size_mb holds, and with that its collisions and
// the results of a search: it must not change.
static_assert(sizeof(search::TranspositionTable<Move, double>::Entry) == 24);

std::string ply_text(const search::ExpectimaxPly<Move>& p) {
  return ewn::ply_to_string(p.outcome + 1, p.move);
}

std::vector<float> features(const std::string& position, const Rules& rules = {}) {
  const State s = ewn::parse_position(position);
  EXPECT_TRUE(ewn::state_ok(s));
  std::vector<float> f(ewn::kNumFeatures);
  ewn::extract_features(s, rules, f.data());
  return f;
}

// Expected values by name, so a reordered feature list cannot pass by accident.
void expect_features(const std::vector<float>& got,
                     const std::vector<std::pair<std::string, double>>& want) {
  ASSERT_EQ(want.size(), static_cast<size_t>(ewn::kNumFeatures)) << "check every feature";
  for (const auto& [name, value] : want) {
    const auto it = std::find(ewn::kFeatureNames.begin(), ewn::kFeatureNames.end(), name);
    ASSERT_NE(it, ewn::kFeatureNames.end()) << name;
    EXPECT_NEAR(got[it - ewn::kFeatureNames.begin()], value, 1e-6) << name;
  }
}

// ---- features

// One cube each in its start corner: a5 is 4 steps from e1 and reaches b5, a4, b4.
TEST(Features, LoneCubesInTheCorners) {
  expect_features(
      features("A4/5/5/5/4a 0 -"),
      {{"own_cubes", 1},      {"opp_cubes", 1},      {"own_lost", 5},      {"opp_lost", 5},
       {"own_dist_sum", 4},   {"opp_dist_sum", 4},   {"own_dist_min", 4},  {"opp_dist_min", 4},
       {"own_inv_dist", 0.2}, {"opp_inv_dist", 0.2}, {"own_dice_dist", 4}, {"opp_dice_dist", 4},
       {"own_reach", 3},      {"opp_reach", 3},      {"own_blocked", 0},   {"opp_blocked", 0},
       {"own_threats", 0},    {"opp_threats", 0},    {"own_dice_1", 6},    {"opp_dice_1", 6},
       {"own_dice_2", 0},     {"opp_dice_2", 0},     {"own_dice_3", 0},    {"opp_dice_3", 0},
       {"own_dice_4", 0},     {"opp_dice_4", 0},     {"own_dice_5", 0},    {"opp_dice_5", 0},
       {"own_dice_6", 0},     {"opp_dice_6", 0}});
}

// Player 1 to move with a (c3), b (e1), e (d1) against A (b4), C (d2), F (e2).
//   own distances 2, 4, 4; opp distances 3, 1, 1.
//   own dice: 1->a 2, 2->b 4, 3->b|e 4, 4->b|e 4, 5->e 4, 6->e 4: 22/6.
//   opp dice: 1->A 3, 2->A|C 2, 3->C 1, 4->C|F 1, 5->C|F 1, 6->F 1: 9/6.
//   own reach {b4 c4 b3 c2 d2 e2 c1 d1} = 8, of which b4 d2 e2 hold enemy cubes: 3 threats.
//   opp reach {c4 b3 c3 e2 d1 e1} = 6, of which c3 d1 e1 hold enemy cubes: 3 threats.
//   blocked: b on e1 (d1 e2 d2 all taken); C on d2 (e2 d1 e1 taken) and F on e2 (only e1).
//   rolls per cube: own a 1 (1), b 3 (2 3 4), e 4 (3 4 5 6); opp A 2 (1 2), C 4 (2-5), F 3 (4-6).
TEST(Features, MidgameFromPlayerOnesView) {
  const std::vector<std::pair<std::string, double>> want = {{"own_cubes", 3},
                                                            {"opp_cubes", 3},
                                                            {"own_lost", 3},
                                                            {"opp_lost", 3},
                                                            {"own_dist_sum", 10},
                                                            {"opp_dist_sum", 5},
                                                            {"own_dist_min", 2},
                                                            {"opp_dist_min", 1},
                                                            {"own_inv_dist", 1.0 / 3 + 0.4},
                                                            {"opp_inv_dist", 1.25},
                                                            {"own_dice_dist", 22.0 / 6},
                                                            {"opp_dice_dist", 1.5},
                                                            {"own_reach", 8},
                                                            {"opp_reach", 6},
                                                            {"own_blocked", 1},
                                                            {"opp_blocked", 2},
                                                            {"own_threats", 3},
                                                            {"opp_threats", 3},
                                                            {"own_dice_1", 1},
                                                            {"opp_dice_1", 2},
                                                            {"own_dice_2", 3},
                                                            {"opp_dice_2", 0},
                                                            {"own_dice_3", 0},
                                                            {"opp_dice_3", 4},
                                                            {"own_dice_4", 0},
                                                            {"opp_dice_4", 0},
                                                            {"own_dice_5", 4},
                                                            {"opp_dice_5", 0},
                                                            {"own_dice_6", 0},
                                                            {"opp_dice_6", 3}};
  expect_features(features("5/1A3/2a2/3CF/3eb 1 -"), want);
  // The same position with player 0 to move: every own/opp pair swaps.
  std::vector<std::pair<std::string, double>> swapped;
  for (size_t i = 0; i < want.size(); i += 2) {
    swapped.push_back({want[i].first, want[i + 1].second});
    swapped.push_back({want[i + 1].first, want[i].second});
  }
  expect_features(features("5/1A3/2a2/3CF/3eb 0 -"), swapped);
}

// The start position, cubes 1-6 row-major and mirrored: five cubes 4 steps away and E (b4) 3.
//   reach: 12 squares each side; only the corner cube (A on a5, a on e1) is blocked.
TEST(Features, StartPosition) {
  const std::vector<std::pair<std::string, double>> want = {{"own_cubes", 6},
                                                            {"opp_cubes", 6},
                                                            {"own_lost", 0},
                                                            {"opp_lost", 0},
                                                            {"own_dist_sum", 23},
                                                            {"opp_dist_sum", 23},
                                                            {"own_dist_min", 3},
                                                            {"opp_dist_min", 3},
                                                            {"own_inv_dist", 1.25},
                                                            {"opp_inv_dist", 1.25},
                                                            {"own_dice_dist", 23.0 / 6},
                                                            {"opp_dice_dist", 23.0 / 6},
                                                            {"own_reach", 12},
                                                            {"opp_reach", 12},
                                                            {"own_blocked", 1},
                                                            {"opp_blocked", 1},
                                                            {"own_threats", 0},
                                                            {"opp_threats", 0},
                                                            {"own_dice_1", 1},
                                                            {"opp_dice_1", 1},
                                                            {"own_dice_2", 1},
                                                            {"opp_dice_2", 1},
                                                            {"own_dice_3", 1},
                                                            {"opp_dice_3", 1},
                                                            {"own_dice_4", 1},
                                                            {"opp_dice_4", 1},
                                                            {"own_dice_5", 1},
                                                            {"opp_dice_5", 1},
                                                            {"own_dice_6", 1},
                                                            {"opp_dice_6", 1}};
  expect_features(features("ABC2/DE3/F3f/3ed/2cba 0 1"), want);
  expect_features(features("ABC2/DE3/F3f/3ed/2cba 1 -"), want);
}

// ---- weights files

std::string weights_yaml(const std::string& drop = "", const std::string& replace = "") {
  std::string text = "name: t\ndescription: d\nweights:\n";
  for (const std::string_view n : ewn::kFeatureNames) {
    if (n == drop) {
      if (!replace.empty()) text += "  " + replace + "\n";
      continue;
    }
    text += "  " + std::string(n) + ": 1\n";
  }
  return text;
}

std::string load_error(const std::string& text) {
  try {
    eval::load_weights_text<EwnGame>(text, "t.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "loaded without error:\n" << text;
  return "";
}

TEST(Weights, LoadsEveryFeature) {
  const eval::Weights w =
      eval::load_weights_text<EwnGame>(weights_yaml("opp_reach", "opp_reach: -2.5"), "t.yaml");
  EXPECT_EQ(w.name, "t");
  EXPECT_EQ(w.source, "t.yaml");
  ASSERT_EQ(w.w.size(), static_cast<size_t>(ewn::kNumFeatures));
  for (int i = 0; i < ewn::kNumFeatures; ++i)
    EXPECT_EQ(w.w[i], ewn::kFeatureNames[i] == "opp_reach" ? -2.5 : 1.0) << ewn::kFeatureNames[i];
}

// The loader knows no game: the names passed in are the schema, and the weights come out in their
// order whatever the order of the file.
TEST(Weights, LoadsTheFeaturesItIsGiven) {
  constexpr std::string_view kNames[] = {"stones", "liberties", "eyes"};
  const eval::Weights w = eval::load_weights_text(
      "name: g\nweights: {eyes: 3, stones: 1, liberties: -2}\n", "g.yaml", kNames);
  EXPECT_EQ(w.w, (std::vector<double>{1, -2, 3}));
  std::string e;
  try {
    eval::load_weights_text("name: g\nweights: {stones: 1, liberty: 2, eyes: 3}\n", "g.yaml",
                            kNames);
  } catch (const InputError& ex) {
    e = ex.what();
  }
  EXPECT_NE(e.find("key 'weights.liberty': unknown key"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'liberties'?"), std::string::npos) << e;
  EXPECT_THROW(
      eval::load_weights_text("name: g\nweights: {stones: 1, eyes: 3}\n", "g.yaml", kNames),
      InputError)
      << "liberties is missing";
}

// A move-score table (games with one: Gomoku's pattern search) under move_scores: each entry
// optional, its default where left out, checked like a weight; a game without one refuses the key.
TEST(Weights, MoveScoresAreOptionalEntriesWithDefaults) {
  constexpr std::string_view kNames[] = {"stones"};
  constexpr std::string_view kScores[] = {"attack_a", "defend_a"};
  constexpr double kDefaults[] = {7, 9};
  const eval::MoveScoreSpec spec{kScores, kDefaults};
  const auto load = [&](const std::string& text) {
    return eval::load_weights_text(text, "g.yaml", kNames, SIZE_MAX, spec);
  };
  EXPECT_EQ(load("name: g\nweights: {stones: 1}\n").move_scores, (std::vector<double>{7, 9}));
  EXPECT_EQ(load("name: g\nweights: {stones: 1}\nmove_scores: {defend_a: -2.5}\n").move_scores,
            (std::vector<double>{7, -2.5}));
  const auto error = [&](const std::string& text) {
    try {
      load(text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(error("name: g\nweights: {stones: 1}\nmove_scores: {atack_a: 1}\n")
                .rfind("g.yaml:3:15: key 'move_scores.atack_a': unknown key", 0),
            0u);
  EXPECT_NE(error("name: g\nweights: {stones: 1}\nmove_scores: {attack_a: .nan}\n")
                .find("key 'move_scores.attack_a'"),
            std::string::npos);
  // Without a table (no spec): no move_scores key, and no entries.
  EXPECT_TRUE(eval::load_weights_text("name: g\nweights: {stones: 1}\n", "g.yaml", kNames)
                  .move_scores.empty());
  EXPECT_NE(load_error(weights_yaml() + "move_scores: {attack_a: 1}\n")
                .find("key 'move_scores': unknown key"),
            std::string::npos);
  EXPECT_TRUE(eval::load_weights_text<EwnGame>(weights_yaml(), "t.yaml").move_scores.empty());
}

TEST(Weights, UnknownFeatureHasAHint) {
  const std::string e = load_error(weights_yaml("own_cubes", "own_cubez: 1"));
  EXPECT_EQ(e.rfind("t.yaml:4:3: key 'weights.own_cubez': unknown key", 0), 0u) << e;
  EXPECT_NE(e.find("did you mean 'own_cubes'?"), std::string::npos) << e;
}

TEST(Weights, MissingFeature) {
  const std::string e = load_error(weights_yaml("opp_threats"));
  EXPECT_EQ(e.rfind("t.yaml:4:3: key 'weights.opp_threats': missing", 0), 0u) << e;
  EXPECT_NE(load_error("name: t\n").find("key 'weights': missing"), std::string::npos);
  EXPECT_NE(load_error(weights_yaml() + "bogus: 1\n").find("unknown key"), std::string::npos);
  EXPECT_NE(load_error("name: t\nwieghts: {}\n").find("did you mean 'weights'?"),
            std::string::npos);
}

TEST(Weights, BadValues) {
  // own_reach is feature 12: line 4 + 12, its value after "  own_reach: ".
  std::string e = load_error(weights_yaml("own_reach", "own_reach: abc"));
  EXPECT_EQ(e.rfind("t.yaml:16:14: key 'weights.own_reach': expected a number, found 'abc'", 0), 0u)
      << e;
  e = load_error(weights_yaml("own_reach", "own_reach: [1, 2]"));
  EXPECT_NE(e.find("key 'weights.own_reach': expected a number, found a list"), std::string::npos)
      << e;
  for (const char* bad : {"nan", "inf", "-inf", ".nan", ".inf", "1e400", "2e6", "true", ""}) {
    e = load_error(weights_yaml("own_reach", std::string("own_reach: ") + bad));
    EXPECT_NE(e.find("t.yaml:16:"), std::string::npos) << bad << ": " << e;
    EXPECT_NE(e.find("key 'weights.own_reach': "), std::string::npos) << bad << ": " << e;
  }
  e = load_error(weights_yaml("own_reach", "own_reach: 1\n  own_reach: 2"));
  EXPECT_NE(e.find("duplicate key"), std::string::npos) << e;
  EXPECT_NE(load_error("name: t\nweights: 3\n").find("key 'weights': expected a map"),
            std::string::npos);
  try {
    eval::load_weights<EwnGame>(weights_path("no-such-weights"));
    ADD_FAILURE() << "no error";
  } catch (const InputError& ex) {
    EXPECT_NE(std::string(ex.what()).find("cannot read"), std::string::npos) << ex.what();
  }
}

double weight(const eval::Weights& w, std::string_view name) {
  const auto it = std::find(ewn::kFeatureNames.begin(), ewn::kFeatureNames.end(), name);
  return w.w.at(it - ewn::kFeatureNames.begin());
}

TEST(Weights, ShippedFiles) {
  const eval::Weights sd = eval::load_weights<EwnGame>(weights_path("survival-distance"));
  EXPECT_EQ(sd.name, "survival-distance");
  EXPECT_EQ(weight(sd, "own_cubes"), 120);
  EXPECT_EQ(weight(sd, "opp_cubes"), -120);
  EXPECT_EQ(weight(sd, "own_dist_sum"), -12);
  EXPECT_EQ(weight(sd, "opp_dist_sum"), 12);
  EXPECT_EQ(weight(sd, "own_lost"), -260);
  EXPECT_EQ(weight(sd, "opp_lost"), 260);
  EXPECT_EQ(weight(sd, "own_reach"), 0);

  const eval::Weights dcs = eval::load_weights<EwnGame>(weights_path("distance-control-safety"));
  EXPECT_EQ(dcs.name, "distance-control-safety");
  EXPECT_EQ(weight(dcs, "own_inv_dist"), 0.45);
  EXPECT_EQ(weight(dcs, "opp_inv_dist"), -0.45);
  EXPECT_EQ(weight(dcs, "own_reach"), 0.30);
  EXPECT_EQ(weight(dcs, "opp_reach"), -0.30);
  EXPECT_EQ(weight(dcs, "own_blocked"), -0.25);
  EXPECT_EQ(weight(dcs, "opp_blocked"), 0.25);
  EXPECT_EQ(weight(dcs, "own_cubes"), 0);

  // tuned.yaml is whatever `selfplay tune configs/ewn/tune.yaml` last wrote (weights.output,
  // weights.name: tuned), so only what any tuning result must satisfy is checked: it loads (every
  // feature named once, finite values in range), carries that name, and evaluates something.
  const eval::Weights tuned = eval::load_weights<EwnGame>(weights_path("tuned"));
  EXPECT_EQ(tuned.name, "tuned");
  ASSERT_EQ(tuned.w.size(), static_cast<size_t>(ewn::kNumFeatures));
  EXPECT_TRUE(std::any_of(tuned.w.begin(), tuned.w.end(), [](double w) { return w != 0; }))
      << "all weights 0: every position evaluates to 0";
  const double bound = eval::evaluation_bound<EwnGame>(tuned);
  for (uint32_t i = 0; i < 50; ++i) {
    const State s = ewn::test::random_midgame(17, i, Rules{}, false);
    const double v = eval::evaluate<EwnGame>(tuned, s, Rules{});
    EXPECT_TRUE(std::isfinite(v) && std::abs(v) <= bound) << ewn::to_string(s) << ": " << v;
  }
}

// Survival-distance on the midgame position, player 1 to move: cubes and losses cancel (3 each),
// distance 10 own vs 5 opp: -12 * 10 + 12 * 5 = -60; from player 0's view +60.
TEST(Weights, EvaluateIsTheDotProduct) {
  const eval::Weights sd = eval::load_weights<EwnGame>(weights_path("survival-distance"));
  const Rules rules;
  EXPECT_DOUBLE_EQ(eval::evaluate<EwnGame>(sd, ewn::parse_position("5/1A3/2a2/3CF/3eb 1 -"), rules),
                   -60);
  EXPECT_DOUBLE_EQ(eval::evaluate<EwnGame>(sd, ewn::parse_position("5/1A3/2a2/3CF/3eb 0 -"), rules),
                   60);
  // distance-control-safety: 0.45 (0.7333 - 1.25) + 0.30 (8 - 6) - 0.25 (1 - 2).
  const eval::Weights dcs = eval::load_weights<EwnGame>(weights_path("distance-control-safety"));
  EXPECT_NEAR(eval::evaluate<EwnGame>(dcs, ewn::parse_position("5/1A3/2a2/3CF/3eb 1 -"), rules),
              0.45 * (1.0 / 3 + 0.4 - 1.25) + 0.6 + 0.25, 1e-6);
  // The bound covers every evaluation: 6 * 240 (cubes) + 24 * 24 (distance) + 6 * 520 (lost).
  EXPECT_DOUBLE_EQ(eval::evaluation_bound<EwnGame>(sd), 1440 + 576 + 3120);
}

// ---- expectimax against brute force

struct BruteForce {
  const eval::Weights& w;
  Rules rules;
  double win;

  double move_value(const State& s, Move m, int depth) const {
    State c = s;
    ewn::apply(c, m);
    if (ewn::is_over(c)) return c.winner == s.side ? win : -win;
    return -chance(c, depth - 1);
  }
  double decision(const State& s, int depth) const {
    MoveList moves;
    ewn::generate_moves(s, rules, moves);
    double best = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < moves.size; ++i)
      best = std::max(best, move_value(s, moves.moves[i], depth));
    return best;
  }
  // Every die value on its own: no chance classes.
  double chance(const State& s, int depth) const {
    if (depth == 0) return eval::evaluate<EwnGame>(w, s, rules);
    double sum = 0;
    for (int die = 1; die <= 6; ++die) {
      State d = s;
      d.die = static_cast<uint8_t>(die);
      sum += decision(d, depth);
    }
    return sum / 6;
  }
};

std::vector<State> test_positions(size_t random = 20) {
  std::vector<State> out;
  // Random playouts often stop one move before the end; a won-in-one position is proven at depth 1
  // and would test nothing deeper, so those are skipped.
  for (uint32_t i = 0; out.size() < random; ++i) {
    const State s = ewn::test::random_midgame(77, i, Rules{}, true);
    MoveList moves;
    ewn::generate_moves(s, Rules{}, moves);
    bool wins = false;
    for (int k = 0; k < moves.size; ++k) wins |= ewn::is_winning_move(s, s.side, moves.moves[k].to);
    if (!wins) out.push_back(s);
  }
  for (const char* p : {"5/1b3/5/3A1/5 0 1", "5/5/2A2/3b1/5 0 1", "5/1B1c1/5/3a1/2D2 1 4",
                        "1a3/5/2C2/b3A/5 0 6", "5/2cB1/1A3/3ba/5 1 2", "E4/1f3/2B2/4d/5 0 3"})
    out.push_back(ewn::parse_position(p));
  for (const State& s : out) {
    EXPECT_TRUE(ewn::state_ok(s)) << ewn::to_string(s);
    EXPECT_FALSE(ewn::is_over(s)) << ewn::to_string(s);
  }
  return out;
}

struct Config {
  bool tt, star1, history;
};
constexpr Config kConfigs[] = {{false, false, false},
                               {true, false, true},
                               {false, true, true},
                               {true, true, true},
                               {true, true, false}};

std::string name(const Config& c) {
  return std::string(c.tt ? "tt" : "no-tt") + (c.star1 ? " star1" : " plain") +
         (c.history ? " history" : "");
}

// Depths 1-4 on 66 positions: a wrong Star1 bound shows only where the table hands it to another
// window, which takes depth 4 and many positions to happen.
TEST(Expectimax, EqualsBruteForceAtFixedDepths) {
  constexpr int kDepth = 4;
  const eval::Weights weights[] = {
      eval::load_weights<EwnGame>(weights_path("survival-distance")),
      eval::load_weights<EwnGame>(weights_path("distance-control-safety"))};
  const std::vector<State> positions = test_positions(60);
  ASSERT_GE(positions.size(), 20u);
  uint64_t nodes_plain = 0, nodes_star1 = 0, tt_hits = 0;
  for (size_t i = 0; i < positions.size(); ++i) {
    const State& s = positions[i];
    const Rules rules = ewn::test::rules_variant(static_cast<int>(i % 4));
    const eval::Weights& w = weights[i % 2];
    // Wins are worth W, a power of two above every evaluation (see expectimax.hpp).
    const double win = search::Expectimax<EwnGame>(w, rules, {}).win_score();
    EXPECT_GT(win, eval::evaluation_bound<EwnGame>(w));
    EXPECT_LE(win, 2 * eval::evaluation_bound<EwnGame>(w));
    const BruteForce bf{w, rules, win};
    double want_at[kDepth + 1];
    for (int depth = 1; depth <= kDepth; ++depth) want_at[depth] = bf.decision(s, depth);
    for (const Config& c : kConfigs) {
      // One engine per position and configuration: the table carries over from depth to depth.
      search::ExpectimaxOptions o;
      o.tt_size_mb = 1;
      o.use_tt = c.tt;
      o.use_star1 = c.star1;
      o.use_history = c.history;
      for (int depth = 1; depth <= kDepth; ++depth) {
        o.depth = depth;
        search::Expectimax<EwnGame> engine(w, rules, o);
        EXPECT_EQ(engine.win_score(), bf.win);
        const search::ExpectimaxStats<Move> st = engine.search(s);
        const std::string what = ewn::to_string(s) + " rules " + std::to_string(i % 4) + " " +
                                 name(c) + " depth " + std::to_string(depth);
        const double want = want_at[depth];
        // A proven result (every line won or lost) or a tree without horizon ends the deepening
        // early; the value is the same then.
        EXPECT_GE(st.depth, 1) << what;
        EXPECT_LE(st.depth, depth) << what;
        EXPECT_EQ(st.proven, std::abs(want) == bf.win) << what;
        EXPECT_NEAR(st.value, want, 1e-9) << what;
        EXPECT_NEAR(bf.move_value(s, st.best, depth), want, 1e-9)
            << what << ": best " << ewn::to_string(st.best);
        ASSERT_FALSE(st.line.empty()) << what;
        EXPECT_EQ(st.line[0].move, st.best) << what;
        EXPECT_EQ(st.line[0].outcome + 1, s.die) << what;
        if (depth == 3 && !c.tt) (c.star1 ? nodes_star1 : nodes_plain) += st.nodes;
        if (depth == 3) tt_hits += st.tt_hits;
      }
    }
  }
  EXPECT_LT(nodes_star1, nodes_plain) << "Star1 never pruned";
  EXPECT_GT(tt_hits, 0u) << "the table was never used";
}

// The decision states of a few random games from the start, last first: a position searched
// earlier comes back in a later search of an ancestor at a smaller remaining depth.
std::vector<State> games_backwards(const Rules& rules) {
  std::vector<State> out;
  for (uint32_t game = 0; game < 4; ++game) {
    WordStream rng({31, game, 0, kLeafDice, 0});
    State s = ewn::initial_state(ewn::random_arrangement(rng), ewn::random_arrangement(rng), 0);
    while (!ewn::is_over(s)) {
      s.die = static_cast<uint8_t>(1 + rng.below(6));
      out.push_back(s);
      MoveList moves;
      ewn::generate_moves(s, rules, moves);
      ewn::apply(s, moves.moves[rng.below(static_cast<uint32_t>(moves.size))]);
    }
  }
  std::reverse(out.begin(), out.end());
  return out;
}

// One engine for many searches: entries left by other searches must not change any value (only
// entries of the same remaining depth give values).
TEST(Expectimax, TableSharedAcrossSearches) {
  const Rules rules;
  std::vector<State> positions = test_positions();
  for (const State& s : games_backwards(rules)) positions.push_back(s);
  for (const char* file : {"survival-distance", "distance-control-safety"}) {
    const eval::Weights w = eval::load_weights<EwnGame>(weights_path(file));
    const BruteForce bf{w, rules, search::Expectimax<EwnGame>(w, rules, {}).win_score()};
    for (const bool star1 : {false, true}) {
      search::ExpectimaxOptions o;
      o.depth = 3;
      o.tt_size_mb = 1;
      o.use_star1 = star1;
      search::Expectimax<EwnGame> engine(w, rules, o);
      for (int round = 0; round < 2; ++round)
        for (const State& s : positions) {
          const search::ExpectimaxStats<Move> st = engine.search(s);
          const double want = bf.decision(s, 3);
          const std::string what = ewn::to_string(s) + " " + file + (star1 ? " star1" : "");
          EXPECT_NEAR(st.value, want, 1e-9) << what << " round " << round;
          EXPECT_NEAR(bf.move_value(s, st.best, 3), want, 1e-9) << what;
        }
    }
  }
}

// EWN without the optional search hooks (hash, move_index: private, so the concepts do not see
// them): the table keys hash the state's bytes and there is no history ordering. Values and
// decisions stay those of brute force.
struct EwnWithoutHooks : private EwnGame {
  using EwnGame::apply, EwnGame::generate_moves, EwnGame::is_over, EwnGame::playout,
      EwnGame::playout_many, EwnGame::side_to_move, EwnGame::winner;
  using EwnGame::chance_classes, EwnGame::needs_chance, EwnGame::same_class, EwnGame::set_chance;
  using EwnGame::extract_features, EwnGame::feature_max, EwnGame::feature_names;
  using EwnGame::kChanceOutcomes, EwnGame::kMaxMoves, EwnGame::kName, EwnGame::kNoWinner,
      EwnGame::kNumFeatures;
  using EwnGame::Move, EwnGame::MoveList, EwnGame::Policy, EwnGame::Result, EwnGame::Rules,
      EwnGame::State;
};
static_assert(search::ExpectimaxGame<EwnWithoutHooks>);
static_assert(!search::hooks::HasHash<EwnWithoutHooks> &&
              !search::hooks::HasMoveIndex<EwnWithoutHooks>);

TEST(Expectimax, SearchesWithoutTheOptionalHooks) {
  const Rules rules;
  const eval::Weights w = eval::load_weights<EwnGame>(weights_path("distance-control-safety"));
  const BruteForce bf{w, rules, search::Expectimax<EwnGame>(w, rules, {}).win_score()};
  search::ExpectimaxOptions o;
  o.depth = 3;
  o.tt_size_mb = 1;
  search::Expectimax<EwnWithoutHooks> engine(w, rules, o);
  uint64_t tt_hits = 0;
  for (const State& s : test_positions()) {
    const auto st = engine.search(s);
    const double want = bf.decision(s, 3);
    EXPECT_NEAR(st.value, want, 1e-9) << ewn::to_string(s);
    EXPECT_NEAR(bf.move_value(s, st.best, 3), want, 1e-9) << ewn::to_string(s);
    ASSERT_FALSE(st.line.empty());
    EXPECT_EQ(st.line[0].outcome + 1, s.die);
    tt_hits += st.tt_hits;
  }
  EXPECT_GT(tt_hits, 0u) << "the byte hash never found a position again";
}

TEST(Expectimax, DeterministicAtFixedDepth) {
  const eval::Weights w = eval::load_weights<EwnGame>(weights_path("distance-control-safety"));
  search::ExpectimaxOptions o;
  o.depth = 4;
  o.tt_size_mb = 1;
  search::Expectimax<EwnGame> a(w, Rules{}, o), b(w, Rules{}, o);
  for (const State& s : test_positions()) {
    const auto x = a.search(s), y = b.search(s);
    EXPECT_EQ(x.nodes, y.nodes);
    EXPECT_EQ(x.value, y.value);
    EXPECT_EQ(x.best, y.best);
    EXPECT_EQ(x.line, y.line);
    EXPECT_NE(search::to_string(x, ply_text)
                  .find("depth " + std::to_string(x.depth) + " nodes " + std::to_string(x.nodes)),
              std::string::npos)
        << search::to_string(x, ply_text);
  }
}

TEST(Expectimax, RejectsBadOptions) {
  const eval::Weights w = eval::load_weights<EwnGame>(weights_path("survival-distance"));
  search::ExpectimaxOptions o;
  o.depth = 0;
  o.time_ms = 0;
  EXPECT_THROW(search::Expectimax<EwnGame>(w, Rules{}, o), std::invalid_argument);
  o.depth = search::Expectimax<EwnGame>::kMaxDepth + 1;
  EXPECT_THROW(search::Expectimax<EwnGame>(w, Rules{}, o), std::invalid_argument);
  o.depth = 2;
  eval::Weights short_w = w;
  short_w.w.pop_back();
  EXPECT_THROW(search::Expectimax<EwnGame>(short_w, Rules{}, o), std::invalid_argument);
}

// A time budget instead of a depth: whatever depth it reaches, depth 1 is always complete and the
// move is legal (nothing here depends on how fast the machine is).
TEST(Expectimax, TimeLimitReturnsALegalMove) {
  const eval::Weights w = eval::load_weights<EwnGame>(weights_path("survival-distance"));
  search::ExpectimaxOptions o;
  o.depth = 0;
  o.time_ms = 20;
  search::Expectimax<EwnGame> engine(w, Rules{}, o);
  const State s = ewn::parse_position("ABC2/DE3/F3f/3ed/2cba 0 3");
  const search::ExpectimaxStats<Move> st = engine.search(s);
  EXPECT_GE(st.depth, 1);
  EXPECT_TRUE(ewn::test::move_set(s, Rules{}).count(ewn::to_string(st.best)));
}

// ---- the Engine interface

Move play_through_engine(search::Engine<EwnGame>& engine, const State& s,
                         search::MoveStats* stats) {
  engine.new_game();
  engine.begin(s, search::SearchIds{1, 0, 9});
  EXPECT_TRUE(engine.decided());
  std::vector<rollout::Leaf<EwnGame>> leaves;
  engine.collect(leaves);
  EXPECT_TRUE(leaves.empty());
  return engine.decision(stats);
}

TEST(ExpectimaxEngine, WinsInOne) {
  const eval::Weights w = eval::load_weights<EwnGame>(weights_path("survival-distance"));
  // d2-e1 and b4-a5 reach the goal, c3xd2 and d2xc3 take the last enemy cube; the other side
  // would win on its next move.
  for (const char* p :
       {"5/1b3/5/3A1/5 0 1", "5/5/2A2/3b1/5 0 1", "5/1a3/5/3A1/4b 1 1", "5/5/2B2/3b1/5 1 2"}) {
    for (const bool star1 : {false, true}) {
      search::ExpectimaxOptions o;
      o.depth = 3;
      o.use_star1 = star1;
      o.tt_size_mb = 1;
      search::ExpectimaxEngine<EwnGame> engine(w, Rules{}, o);
      EXPECT_NE(engine.describe().find("expectimax(survival-distance, depth 3"), std::string::npos)
          << engine.describe();
      State s = ewn::parse_position(p);
      search::MoveStats stats;
      const Move m = play_through_engine(engine, s, &stats);
      const int mover = s.side;
      ewn::apply(s, m);
      EXPECT_TRUE(ewn::is_over(s)) << p << " played " << ewn::to_string(m);
      EXPECT_EQ(s.winner, mover) << p;
      EXPECT_FLOAT_EQ(stats.value, 1.0f) << p;
      EXPECT_TRUE(engine.last_stats().proven) << p;
      EXPECT_EQ(engine.last_stats().depth, 1) << p << ": a proven win needs no deeper search";
    }
  }
}

TEST(ExpectimaxEngine, ForcedMoveAndGameThrough) {
  const eval::Weights w = eval::load_weights<EwnGame>(weights_path("survival-distance"));
  search::ExpectimaxOptions o;
  o.depth = 2;
  o.tt_size_mb = 1;
  search::ExpectimaxEngine<EwnGame> e0(w, Rules{}, o), e1(w, Rules{}, o);
  // A lone cube on the edge has one move.
  const State forced = ewn::parse_position("4A/5/5/5/a4 0 5");
  EXPECT_EQ(ewn::to_string(play_through_engine(e0, forced, nullptr)), "e5-e4");
  EXPECT_EQ(e0.last_stats().depth, 0);
  // A whole game between two engines ends with a winner, every move legal.
  e0.new_game();
  e1.new_game();
  WordStream dice({5, 0, 0, kLeafDice, 0});
  State s = ewn::parse_position("ABC2/DE3/F3f/3ed/2cba 0 -");
  search::Engine<EwnGame>* engines[2] = {&e0, &e1};
  for (uint32_t ply = 0; !ewn::is_over(s); ++ply) {
    ASSERT_LT(ply, 200u);
    s.die = static_cast<uint8_t>(1 + dice.below(6));
    engines[s.side]->begin(s, search::SearchIds{0, ply, 5});
    ASSERT_TRUE(engines[s.side]->decided());
    const Move m = engines[s.side]->decision(nullptr);
    ASSERT_TRUE(ewn::test::move_set(s, Rules{}).count(ewn::to_string(m))) << ewn::to_string(s);
    ewn::apply(s, m);
    ASSERT_TRUE(ewn::state_ok(s));
    for (auto* e : engines) e->observe(m, s);
  }
  EXPECT_NE(s.winner, ewn::kNoWinner);
}

// Whatever tuning wrote into tuned.yaml, an expectimax engine on it takes a win in one and plays
// whole games of legal moves against survival-distance.
TEST(ExpectimaxEngine, TunedWeightsTakeWinsAndPlayLegalGames) {
  const eval::Weights tuned = eval::load_weights<EwnGame>(weights_path("tuned"));
  const eval::Weights sd = eval::load_weights<EwnGame>(weights_path("survival-distance"));
  search::ExpectimaxOptions o;
  o.depth = 2;
  o.tt_size_mb = 1;
  for (const char* p : {"5/1b3/5/3A1/5 0 1", "5/5/2A2/3b1/5 0 1", "5/1a3/5/3A1/4b 1 1"}) {
    search::ExpectimaxEngine<EwnGame> engine(tuned, Rules{}, o);
    State s = ewn::parse_position(p);
    const int mover = s.side;
    ewn::apply(s, play_through_engine(engine, s, nullptr));
    EXPECT_TRUE(ewn::is_over(s) && s.winner == mover) << p;
  }
  for (uint32_t game = 0; game < 2; ++game) {
    search::ExpectimaxEngine<EwnGame> a(tuned, Rules{}, o), b(sd, Rules{}, o);
    search::Engine<EwnGame>* engines[2] = {game == 0 ? &a : &b, game == 0 ? &b : &a};
    for (auto* e : engines) e->new_game();
    WordStream dice({11, game, 0, kLeafDice, 0});
    State s = ewn::parse_position("ABC2/DE3/F3f/3ed/2cba 0 -");
    for (uint32_t ply = 0; !ewn::is_over(s); ++ply) {
      ASSERT_LT(ply, 200u);
      s.die = static_cast<uint8_t>(1 + dice.below(6));
      engines[s.side]->begin(s, search::SearchIds{game, ply, 5});
      ASSERT_TRUE(engines[s.side]->decided());
      const Move m = engines[s.side]->decision(nullptr);
      ASSERT_TRUE(ewn::test::move_set(s, Rules{}).count(ewn::to_string(m))) << ewn::to_string(s);
      ewn::apply(s, m);
      ASSERT_TRUE(ewn::state_ok(s));
      for (auto* e : engines) e->observe(m, s);
    }
    EXPECT_NE(s.winner, ewn::kNoWinner);
  }
}

}  // namespace
}  // namespace sp
