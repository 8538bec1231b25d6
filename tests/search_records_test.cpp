// What each search thought ends up in the records (format 3): the /plies search columns and
// /candidates for MCTS, flat Monte Carlo, expectimax and alpha-beta, the same on any thread count,
// checked by `selfplay verify`, which catches a record that does not fit its game.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "games/checkers/host.hpp"
#include "games/ewn/host.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/h5.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "host/records/verify.hpp"
#include "tests/test_util.hpp"

namespace sp::selfplay {
namespace {

// EWN: MCTS against expectimax; flat Monte Carlo against random.
std::string ewn_config(const std::string& player0, const std::string& player1,
                       const std::string& output) {
  return R"(
game: ewn
rules: {first_player: alternate, setup: random}
campaign: {games: 6, concurrency: 3, seed: 5}
engines:
  player0: )" +
         player0 + R"(
  player1: )" +
         player1 + R"(
backend: {name: cpu, threads: 2, batch_rollouts: 1024}
output: {path: unused.h5, positions_per_game: 1, flush_seconds: 0.05)" +
         output + "}\n";
}

const std::string kMcts =
    "{type: mcts, rollouts_per_move: 400, rollouts_per_leaf: 4, leaves_per_round: 4}";

std::string expectimax() {
  return "{type: expectimax, depth: 2, weights: " +
         test::source_path("configs/ewn/weights/survival-distance.yaml") + "}";
}

template <class G>
std::string play(const config::Config<G>& loaded, const test::TempDir& dir, const std::string& name,
                 uint32_t threads = 2) {
  config::Config<G> cfg = loaded;
  cfg.output.path = dir.file(name);
  cfg.backend.threads = threads;
  std::atomic<bool> stop{false};
  run_campaign(cfg, RunOptions{}, stop);
  return cfg.output.path;
}

std::string ewn_file(const test::TempDir& dir, const std::string& name, const std::string& p0,
                     const std::string& p1, const std::string& output = "", uint32_t threads = 2) {
  return play(config::load_campaign_config_text<EwnGame>(ewn_config(p0, p1, output), "test.yaml"),
              dir, name, threads);
}

// The /candidates rows of each (game, ply).
std::map<std::pair<uint64_t, uint16_t>, std::vector<io::CandidateRow>> by_ply(
    const io::CampaignReader& reader) {
  std::map<std::pair<uint64_t, uint16_t>, std::vector<io::CandidateRow>> out;
  for (const io::CandidateRow& c : reader.candidates()) out[{c.game_id, c.ply}].push_back(c);
  return out;
}

// The first token of a pv: the ply it starts with.
std::string first_ply(std::string_view pv) { return std::string(pv.substr(0, pv.find(' '))); }

void expect_verified(const std::string& path) {
  const VerifyReport report = verify_file(path, 10);
  EXPECT_EQ(report.problems.count(), 0u)
      << (report.problems.lines().empty() ? "" : report.problems.lines().front());
}

TEST(SearchRecords, MctsAndExpectimaxSayWhatTheyThought) {
  test::TempDir dir;
  const std::string path = ewn_file(dir, "a.h5", kMcts, expectimax());
  const io::CampaignReader reader(path);
  ASSERT_EQ(reader.format_version(), io::kCampaignFormatVersion);
  const auto candidates = by_ply(reader);
  int mcts = 0, expecti = 0, thought = 0, long_pv = 0;
  for (const io::PlyRow& p : reader.plies()) {
    SCOPED_TRACE("game " + std::to_string(p.game_id) + " ply " + std::to_string(p.ply));
    const std::string played = std::to_string(p.chance) + ":" + std::string(io::text_of(p.move));
    EXPECT_EQ(first_ply(io::text_of(p.pv)), played) << "the pv starts with the move played";
    long_pv += io::text_of(p.pv).find(' ') != std::string_view::npos;
    thought += p.think_ms > 0;
    EXPECT_GE(p.think_ms, 0);
    const auto list = candidates.find({p.game_id, p.ply});
    if (p.player == 0) {  // MCTS in every game: player0 is engines.player0 (unpaired)
      ++mcts;
      EXPECT_EQ(p.search, static_cast<uint8_t>(search::SearchKind::kMcts));
      EXPECT_EQ(p.depth, -1);
      EXPECT_GT(p.nodes, 0u);
      EXPECT_LE(p.played, p.rollouts) << "played rollouts are part of the budget spent";
      if (p.rollouts == 0) continue;  // a forced move: no search
      EXPECT_GT(p.played, 0u);
      ASSERT_NE(list, candidates.end());
      const std::vector<io::CandidateRow>& c = list->second;
      ASSERT_LE(c.size(), 8u);
      EXPECT_EQ(io::text_of(c[0].move), io::text_of(p.move)) << "the most visited was played";
      EXPECT_EQ(c[0].visits, p.visits);
      EXPECT_FLOAT_EQ(c[0].value, p.root_value);
      for (size_t k = 0; k < c.size(); ++k) {
        EXPECT_EQ(c[k].rank, k);
        EXPECT_GT(c[k].visits, 0u);
        if (k) {
          EXPECT_LE(c[k].visits, c[k - 1].visits);
        }
        EXPECT_TRUE(c[k].value >= 0 && c[k].value <= 1);
      }
    } else {
      ++expecti;
      EXPECT_EQ(p.search, static_cast<uint8_t>(search::SearchKind::kExpectimax));
      EXPECT_EQ(list, candidates.end()) << "a depth-first search keeps no candidates";
      EXPECT_EQ(p.played, 0u);
      if (p.depth == 0) continue;  // a forced move
      EXPECT_EQ(p.depth, 2);
      EXPECT_GT(p.nodes, 0u);
    }
  }
  EXPECT_GT(mcts, 10);
  EXPECT_GT(expecti, 10);
  EXPECT_GT(thought, 0) << "some move took measurable thinking time";
  EXPECT_GT(long_pv, 10) << "principal variations go beyond the move";
  expect_verified(path);
}

TEST(SearchRecords, FlatKeepsItsMovesByMeanAndRandomItsMove) {
  test::TempDir dir;
  const std::string path =
      ewn_file(dir, "flat.h5", "{type: flat, rollouts_per_move: 120}", "{type: random}");
  const io::CampaignReader reader(path);
  const auto candidates = by_ply(reader);
  for (const io::PlyRow& p : reader.plies()) {
    SCOPED_TRACE("game " + std::to_string(p.game_id) + " ply " + std::to_string(p.ply));
    EXPECT_EQ(first_ply(io::text_of(p.pv)),
              std::to_string(p.chance) + ":" + std::string(io::text_of(p.move)));
    const auto list = candidates.find({p.game_id, p.ply});
    if (p.player == 1) {
      EXPECT_EQ(p.search, static_cast<uint8_t>(search::SearchKind::kRandom));
      EXPECT_EQ(list, candidates.end());
      continue;
    }
    EXPECT_EQ(p.search, static_cast<uint8_t>(search::SearchKind::kFlat));
    ASSERT_NE(list, candidates.end());
    const std::vector<io::CandidateRow>& c = list->second;
    EXPECT_EQ(io::text_of(c[0].move), io::text_of(p.move));
    uint64_t rollouts = 0;
    for (size_t k = 0; k < c.size(); ++k) {
      rollouts += c[k].visits;
      if (k) {
        EXPECT_LE(c[k].value, c[k - 1].value) << "best mean first";
      }
    }
    EXPECT_EQ(rollouts, p.played) << "every move's rollouts (fewer than 9 moves a ply)";
  }
  expect_verified(path);
}

// search_candidates bounds the list, 0 keeps none, root_policy keeps every visited root move;
// none of them changes a game.
TEST(SearchRecords, CandidatesAsConfiguredWithTheSameGames) {
  test::TempDir dir;
  const auto moves = [](const io::CampaignReader& r) {
    std::vector<std::string> out;
    for (const io::PlyRow& p : r.plies())
      out.push_back(std::to_string(p.game_id) + "/" + std::to_string(p.ply) + " " +
                    std::string(io::text_of(p.move)) + " " + std::string(io::text_of(p.pv)));
    return out;
  };
  const io::CampaignReader two(
      ewn_file(dir, "two.h5", kMcts, kMcts, ", search_candidates: 2, root_policy: false"));
  const io::CampaignReader none(ewn_file(dir, "none.h5", kMcts, kMcts, ", search_candidates: 0"));
  const io::CampaignReader all(
      ewn_file(dir, "all.h5", kMcts, kMcts, ", search_candidates: 1, root_policy: true"));
  EXPECT_EQ(moves(two), moves(none));
  EXPECT_EQ(moves(two), moves(all));
  EXPECT_EQ(none.candidates_count(), 0u);
  const auto at_most_two = by_ply(two), every = by_ply(all);
  bool more = false;
  for (const auto& [ply, list] : every) {
    EXPECT_LE(at_most_two.at(ply).size(), 2u);
    EXPECT_EQ(at_most_two.at(ply).size(), std::min<size_t>(2, list.size()));
    for (size_t k = 0; k < at_most_two.at(ply).size(); ++k)
      EXPECT_EQ(at_most_two.at(ply)[k], list[k]) << "the same order, cut";
    more |= list.size() > 2;
  }
  EXPECT_TRUE(more) << "root_policy keeps more than search_candidates";
  EXPECT_EQ(at_most_two.size(), every.size());
}

// Everything but the thinking time is a function of the config: the same on 1 and 2 threads.
TEST(SearchRecords, SameOnAnyThreadCount) {
  test::TempDir dir;
  const auto records = [](const std::string& path) {
    const io::CampaignReader r(path);
    std::vector<io::PlyRow> plies = r.plies();
    for (io::PlyRow& p : plies) p.time_ms = p.think_ms = 0;
    std::sort(plies.begin(), plies.end(), [](const auto& a, const auto& b) {
      return std::tie(a.game_id, a.ply) < std::tie(b.game_id, b.ply);
    });
    std::vector<io::CandidateRow> c = r.candidates();
    std::sort(c.begin(), c.end(), [](const auto& a, const auto& b) {
      return std::tie(a.game_id, a.ply, a.rank) < std::tie(b.game_id, b.ply, b.rank);
    });
    return std::make_pair(plies, c);
  };
  const auto one = records(ewn_file(dir, "one.h5", kMcts, expectimax(), "", 1));
  const auto two = records(ewn_file(dir, "two.h5", kMcts, expectimax(), "", 2));
  EXPECT_FALSE(one.second.empty());
  EXPECT_TRUE(one == two);
}

TEST(SearchRecords, AlphaBetaRecordsDepthScoreNodesAndPv) {
  test::TempDir dir;
  const std::string text = R"(
game: checkers
rules: {start: ballots, max_plies: 60}
campaign: {games: 2, concurrency: 2, seed: 3}
engines:
  player0: {type: alphabeta, depth: 3, weights: )" +
                           test::source_path("configs/checkers/weights/classic.yaml") + R"(}
  player1: {type: mcts, rollouts_per_move: 200, rollouts_per_leaf: 4}
backend: {name: cpu, threads: 2}
output: {path: unused.h5, positions_per_game: 1, flush_seconds: 0.05}
)";
  const std::string path =
      play(config::load_campaign_config_text<CheckersGame>(text, "test.yaml"), dir, "ab.h5");
  const io::CampaignReader reader(path);
  int searched = 0;
  for (const io::PlyRow& p : reader.plies()) {
    EXPECT_EQ(first_ply(io::text_of(p.pv)), io::text_of(p.move));
    if (p.search != static_cast<uint8_t>(search::SearchKind::kAlphaBeta)) continue;
    if (p.depth == 0) continue;  // forced
    ++searched;
    EXPECT_GE(p.depth, 1);  // less than 3 where a result was proven sooner
    EXPECT_LE(p.depth, 3);
    EXPECT_GT(p.nodes, 0u);
    // The score and the value say the same: value = 0.5 + 0.5 score / kWin.
    if (p.score > 0) {
      EXPECT_GE(p.root_value, 0.5f) << p.score;
    } else if (p.score < 0) {
      EXPECT_LE(p.root_value, 0.5f) << p.score;
    }
  }
  EXPECT_GT(searched, 5);
  expect_verified(path);
}

// verify replays each pv and candidate: a record that does not fit its game is reported.
TEST(SearchRecords, VerifyCatchesAPvOrCandidateThatDoesNotFit) {
  test::TempDir dir;
  const std::string good = ewn_file(dir, "good.h5", kMcts, kMcts);
  expect_verified(good);
  const io::CampaignReader reader(good);
  const io::FileMeta meta = reader.meta();
  std::vector<io::GameRow> games = reader.games();
  const auto problem = [&](const std::string& name, auto&& mutate) {
    std::vector<io::PlyRow> plies = reader.plies();
    std::vector<io::CandidateRow> candidates = reader.candidates();
    mutate(plies, candidates);
    const std::string path = dir.file(name);
    {
      io::CampaignWriter writer = io::CampaignWriter::create(path, meta);
      const std::vector<io::PositionRow> positions = reader.positions();
      const std::vector<float> features = reader.features();
      const size_t width = meta.feature_names.size();
      for (const io::GameRow& g : games) {
        std::vector<io::PlyRow> p;
        std::vector<io::CandidateRow> c;
        std::vector<io::PositionRow> pos;
        std::vector<float> f;
        for (const auto& row : plies)
          if (row.game_id == g.game_id) p.push_back(row);
        for (const auto& row : candidates)
          if (row.game_id == g.game_id) c.push_back(row);
        for (size_t i = 0; i < positions.size(); ++i)
          if (positions[i].game_id == g.game_id) {
            pos.push_back(positions[i]);
            f.insert(f.end(), features.begin() + static_cast<std::ptrdiff_t>(i * width),
                     features.begin() + static_cast<std::ptrdiff_t>((i + 1) * width));
          }
        writer.append_game(g, p, pos, f, c);
      }
    }
    const VerifyReport report = verify_file(path, 10);
    return report.problems.lines().empty() ? std::string() : report.problems.lines().front();
  };
  // Unchanged, the copy verifies: the mutations below are what verify reports.
  EXPECT_EQ(problem("same.h5", [](auto&, auto&) {}), "");
  const std::string swapped = problem("pv.h5", [](auto& plies, auto&) {
    for (io::PlyRow& p : plies)
      if (std::string_view pv = io::text_of(p.pv); pv.find(' ') != std::string_view::npos) {
        // The second ply first: the pv no longer starts with the move played, or is illegal.
        const size_t space = pv.find(' ');
        const std::string rest(pv.substr(space + 1));
        io::set_text(p.pv, rest);
        break;
      }
  });
  EXPECT_NE(swapped.find(": pv ply 0 ("), std::string::npos) << swapped;
  const std::string illegal = problem("candidate.h5", [](auto&, auto& candidates) {
    io::set_text(candidates.front().move, "e5-a1");
  });
  EXPECT_NE(illegal.find("/candidates row 0): candidate e5-a1 is not legal"), std::string::npos)
      << illegal;
  const std::string gap = problem("rank.h5", [](auto&, auto& candidates) {
    for (io::CandidateRow& c : candidates)
      if (c.rank == 1) {
        c.rank = 2;
        break;
      }
  });
  EXPECT_NE(gap.find(": rank 2, expected 1"), std::string::npos) << gap;
  const std::string kind = problem("kind.h5", [](auto& plies, auto&) { plies[3].search = 99; });
  EXPECT_NE(kind.find(": search 99 is no search kind"), std::string::npos) << kind;
}

}  // namespace
}  // namespace sp::selfplay
