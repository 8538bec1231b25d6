// `selfplay verify`, `selfplay export` and `selfplay convert` end to end: files written by
// `selfplay run` and `selfplay match` verify OK; copies rewritten with one fault (a move, a die,
// a setup, a winner, a record, a feature) are reported at the right row with exit code 1; the
// export lists every game's moves as stored, the same bytes for the same campaign; format-1 files
// verify, export and convert to format-2 copies that give the same text; unreadable files exit
// with 2. A file whose stored config is gone verifies with EWN's fallback hooks. Tic-tac-toe (tests
// only: no chance, no features) runs through the same generic verify and export.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "games/games.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/records.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "host/records/export.hpp"
#include "host/records/game_record_rules.hpp"
#include "host/records/verify.hpp"
#include "tests/games/tictactoe/host.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

namespace fs = std::filesystem;

const char* kCampaign = R"(
game: ewn
rules: {first_player: alternate, setup: random, substitution: nearest}
campaign: {games: 6, concurrency: 6, seed: 41, paired: true}
engines:
  player0: {type: mcts, rollouts_per_move: 48, rollouts_per_leaf: 4, leaves_per_round: 4}
  player1: {type: random, label: random mover}
backend: {name: cpu, threads: 2, batch_rollouts: 1024}
output: {path: unused.h5, positions_per_game: 0, flush_seconds: 0.05}
)";

// Everything a campaign file holds that verify reads, to rewrite it with one fault.
struct Contents {
  io::FileMeta meta;
  std::vector<io::GameRow> games;
  std::vector<io::PlyRow> plies;
  std::vector<io::PositionRow> positions;
  std::vector<float> features;          // positions.size() x F
  std::vector<io::MatchPairRow> pairs;  // a match file's /match/pairs
};

Contents read_all(const std::string& path) {
  const io::CampaignReader reader(path);
  return {reader.meta(),      reader.games(),    reader.plies(),
          reader.positions(), reader.features(), reader.match_pairs()};
}

// Writes the contents as a new file, game by game in the order of `games`.
void write_all(const Contents& c, const std::string& path) {
  io::CampaignWriter writer = io::CampaignWriter::create(path, c.meta);
  const size_t width = c.meta.feature_names.size();
  for (const io::GameRow& g : c.games) {
    std::vector<io::PlyRow> plies;
    for (const auto& p : c.plies)
      if (p.game_id == g.game_id) plies.push_back(p);
    std::vector<io::PositionRow> positions;
    std::vector<float> features;
    for (size_t i = 0; i < c.positions.size(); ++i) {
      if (c.positions[i].game_id != g.game_id) continue;
      positions.push_back(c.positions[i]);
      features.insert(features.end(), c.features.begin() + i * width,
                      c.features.begin() + (i + 1) * width);
    }
    writer.append_game(g, std::move(plies), std::move(positions), std::move(features));
  }
  for (const io::MatchPairRow& pair : c.pairs) writer.append_match_pair(pair);
  writer.close();
}

// The record of game `id` made again from its plies, as campaign.cpp makes it ("3:b4-c3"; the
// move alone in a game without chance).
void rebuild_record(Contents& c, uint64_t id) {
  std::string record;
  for (const auto& p : c.plies)
    if (p.game_id == id)
      record += (record.empty() ? "" : " ") +
                (p.chance == io::kNoChance ? "" : std::to_string(p.chance) + ":") +
                std::string(io::text_of(p.move));
  for (auto& g : c.games)
    if (g.game_id == id) io::set_record(g, record);
}

template <class Row>
uint64_t row_of(const std::vector<Row>& rows, const std::function<bool(const Row&)>& match) {
  for (size_t i = 0; i < rows.size(); ++i)
    if (match(rows[i])) return i;
  ADD_FAILURE() << "no such row";
  return 0;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, sep)) out.push_back(item);
  if (!text.empty() && text.back() == sep) out.push_back("");
  return out;
}

class Verify : public ::testing::Test {
 protected:
  test::CommandResult selfplay(const std::string& args) {
    return test::run_command(std::string("'") + SELFPLAY_BINARY + "' " + args + " 2>'" +
                             tmp_.file("stderr") + "'");
  }
  std::string stderr_text() const { return test::read_text(tmp_.file("stderr")); }

  // A campaign played by `selfplay run`, once per test fixture.
  std::string campaign(const std::string& name = "campaign.h5") {
    tmp_.write("campaign.yaml", kCampaign);
    const std::string path = tmp_.file(name);
    const auto r =
        selfplay("run '" + tmp_.file("campaign.yaml") + "' --out '" + path + "' --quiet");
    EXPECT_EQ(r.code, 0) << stderr_text();
    // The summary names the labels after its first line.
    EXPECT_NE(r.out.find(" in the file\nengine labels       player0 (no label), player1 \"random "
                         "mover\"\nplayer 0 wins"),
              std::string::npos)
        << r.out;
    return path;
  }

  // A game of the campaign with at least `plies` plies.
  static const io::GameRow& long_game(const Contents& c, uint16_t plies) {
    for (const auto& g : c.games)
      if (g.plies >= plies) return g;
    ADD_FAILURE() << "no game of " << plies << " plies";
    return c.games.front();
  }

  // Verifies a copy of `path` with the fault `spoil` makes; returns verify's stdout lines.
  std::vector<std::string> verify_spoiled(const std::string& path,
                                          const std::function<void(Contents&)>& spoil,
                                          Contents* written = nullptr) {
    Contents c = read_all(path);
    spoil(c);
    const std::string bad = tmp_.file("bad.h5");
    fs::remove(bad);
    write_all(c, bad);
    if (written) *written = read_all(bad);
    const auto r = selfplay("verify '" + bad + "'");
    EXPECT_EQ(r.code, 1) << r.out << stderr_text();
    return lines_of(r.out);
  }

  test::TempDir tmp_;
};

TEST_F(Verify, CampaignVerifiesOk) {
  const std::string path = campaign();
  const Contents c = read_all(path);
  ASSERT_EQ(c.games.size(), 6u);
  const auto r = selfplay("verify '" + path + "'");
  EXPECT_EQ(r.code, 0) << r.out << stderr_text();
  EXPECT_EQ(r.out, "verified 6 games, " + std::to_string(c.plies.size()) + " plies, " +
                       std::to_string(c.positions.size()) + " positions: OK\n");
  EXPECT_EQ(c.positions.size(), c.plies.size());  // positions_per_game 0: every ply
  EXPECT_EQ(stderr_text(), "");
  // The rows of a game need not be together: the same games written in another order verify too.
  Contents reversed = c;
  std::reverse(reversed.games.begin(), reversed.games.end());
  write_all(reversed, tmp_.file("reversed.h5"));
  EXPECT_EQ(selfplay("verify '" + tmp_.file("reversed.h5") + "'").out, r.out);
}

// A match file, whose engine's weights file is gone by the time it is checked: verify needs only
// the rules and the random streams of the stored config.
TEST_F(Verify, MatchVerifiesOkWithoutItsWeightsFile) {
  fs::copy_file(test::source_path("configs/ewn/weights/survival-distance.yaml"),
                tmp_.file("weights.yaml"));
  tmp_.write("match.yaml", R"(
rules: {first_player: alternate}
campaign: {concurrency: 4, seed: 5}
engines:
  player0: {type: expectimax, depth: 1, weights: ')" +
                               tmp_.file("weights.yaml") + R"('}
  player1: {type: random}
backend: {name: cpu, threads: 2, batch_rollouts: 1024}
output: {path: unused.h5, positions_per_game: 3, flush_seconds: 0.05}
match: {pairs: 2, sprt: {enabled: false}}
)");
  const std::string path = tmp_.file("match.h5");
  ASSERT_EQ(selfplay("match '" + tmp_.file("match.yaml") + "' --out '" + path + "' --quiet").code,
            0)
      << stderr_text();
  fs::remove(tmp_.file("weights.yaml"));
  const Contents c = read_all(path);
  ASSERT_TRUE(c.meta.match.has_value());
  const auto r = selfplay("verify '" + path + "'");
  EXPECT_EQ(r.code, 0) << r.out << stderr_text();
  EXPECT_EQ(r.out, "verified 4 games, " + std::to_string(c.plies.size()) + " plies, " +
                       std::to_string(c.positions.size()) + " positions, 2 pairs: OK\n");

  // Paired games share their dice: game 1 rolled with game 0's die stream is caught.
  Contents written;
  const auto lines = verify_spoiled(
      path,
      [](Contents& c) {
        for (auto& p : c.plies)
          if (p.game_id == 1 && p.ply == 0) p.chance = static_cast<int8_t>(p.chance % 6 + 1);
        rebuild_record(c, 1);
      },
      &written);
  ASSERT_FALSE(lines.empty());
  const uint64_t row = row_of<io::PlyRow>(
      written.plies, [](const io::PlyRow& p) { return p.game_id == 1 && p.ply == 0; });
  EXPECT_EQ(lines[0].rfind("game 1, ply 0 (/plies row " + std::to_string(row) + "): die ", 0), 0u)
      << lines[0];
  EXPECT_NE(lines[0].find("the campaign's dice give"), std::string::npos) << lines[0];
}

// /match/pairs against the games and the stored SPRT: a pair's result that is not engine A's, an
// LLR that the pairs up to it do not give, and pairs out of order are each reported at their row.
TEST_F(Verify, MatchPairsAgreeWithTheGamesAndTheTest) {
  tmp_.write("sprt.yaml", R"(
campaign: {concurrency: 4, seed: 11}
engines:
  player0: {type: mcts, rollouts_per_move: 32, rollouts_per_leaf: 4}
  player1: {type: random}
backend: {name: cpu, threads: 2}
output: {path: unused.h5, positions_per_game: 0, flush_seconds: 0.05}
match: {pairs: 5, sprt: {enabled: true, elo0: 0, elo1: 5}}
)");
  const std::string path = tmp_.file("sprt.h5");
  ASSERT_EQ(selfplay("match '" + tmp_.file("sprt.yaml") + "' --out '" + path + "' --quiet").code, 0)
      << stderr_text();
  const Contents c = read_all(path);
  ASSERT_GE(c.pairs.size(), 3u) << "the SPRT decided too early for this test";
  ASSERT_NE(c.pairs[1].llr, 0.0);
  const auto ok = selfplay("verify '" + path + "'");
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_NE(ok.out.find(std::to_string(c.pairs.size()) + " pairs: OK"), std::string::npos)
      << ok.out;

  const auto flipped = verify_spoiled(path, [](Contents& c) {
    c.pairs[1].result_1 = 1.0f - c.pairs[1].result_1 == 0.5f ? 0.0f : 1.0f - c.pairs[1].result_1;
  });
  ASSERT_FALSE(flipped.empty());
  EXPECT_EQ(flipped[0].rfind("pair 1 (/match/pairs row 1): results ", 0), 0u) << flipped[0];
  EXPECT_NE(flipped[0].find("engine A's results in games 2 and 3"), std::string::npos)
      << flipped[0];

  const auto llr = verify_spoiled(path, [](Contents& c) { c.pairs[2].llr += 0.25; });
  ASSERT_EQ(llr.size(), 1u);
  EXPECT_EQ(llr[0].rfind("pair 2 (/match/pairs row 2): LLR ", 0), 0u) << llr[0];

  const auto order = verify_spoiled(path, [](Contents& c) { std::swap(c.pairs[0], c.pairs[1]); });
  ASSERT_FALSE(order.empty());
  EXPECT_EQ(order[0],
            "pair 1 (/match/pairs row 0): pairs must come in order from 0; expected pair 0");
}

TEST_F(Verify, IllegalMoveIsReportedAtItsPlyRow) {
  const std::string path = campaign();
  const uint64_t id = long_game(read_all(path), 4).game_id;
  Contents written;
  const auto lines = verify_spoiled(
      path,
      [id](Contents& c) {
        for (auto& p : c.plies)
          if (p.game_id == id && p.ply == 2) io::set_text(p.move, "a5-a5");
        rebuild_record(c, id);
      },
      &written);
  const uint64_t row = row_of<io::PlyRow>(
      written.plies, [id](const io::PlyRow& p) { return p.game_id == id && p.ply == 2; });
  int die = 0;
  for (const auto& p : written.plies)
    if (p.game_id == id && p.ply == 2) die = p.chance;
  ASSERT_EQ(lines.size(), 1u) << lines[0];
  EXPECT_EQ(
      lines[0].rfind("game " + std::to_string(id) + ", ply 2 (/plies row " + std::to_string(row) +
                         "): move a5-a5 is not legal for die " + std::to_string(die) + " in ",
                     0),
      0u)
      << lines[0];
}

TEST_F(Verify, WrongDieIsReported) {
  const std::string path = campaign();
  const uint64_t id = long_game(read_all(path), 4).game_id;
  Contents written;
  const auto lines = verify_spoiled(
      path,
      [id](Contents& c) {
        for (auto& p : c.plies)
          if (p.game_id == id && p.ply == 3) p.chance = static_cast<int8_t>(p.chance % 6 + 1);
        rebuild_record(c, id);
      },
      &written);
  const uint64_t row = row_of<io::PlyRow>(
      written.plies, [id](const io::PlyRow& p) { return p.game_id == id && p.ply == 3; });
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].rfind("game " + std::to_string(id) + ", ply 3 (/plies row " +
                               std::to_string(row) + "): die ",
                           0),
            0u)
      << lines[0];
  EXPECT_NE(lines[0].find(", the campaign's dice give "), std::string::npos) << lines[0];
}

TEST_F(Verify, WrongSetupAndWinnerAreReportedAtTheirGamesRow) {
  const std::string path = campaign();
  const Contents c = read_all(path);
  const uint64_t id = c.games[2].game_id;
  Contents written;
  const auto lines = verify_spoiled(
      path, [&](Contents& c) { c.games[2].winner = static_cast<int8_t>(c.games[2].winner ^ 1); },
      &written);
  ASSERT_EQ(lines.size(), 1u);
  const int winner = c.games[2].winner;
  EXPECT_EQ(lines[0], "game " + std::to_string(id) + " (/games row 2): winner " +
                          std::to_string(winner ^ 1) + " recorded, the replay ends with player " +
                          std::to_string(winner) + " winning");

  // Player 1's arrangement with its first two cubes swapped: a legal setup, not the campaign's.
  std::string setup(io::text_of(c.games[4].opening));
  std::swap(setup[7], setup[8]);
  const auto setup_lines =
      verify_spoiled(path, [&](Contents& c) { io::set_text(c.games[4].opening, setup); });
  ASSERT_FALSE(setup_lines.empty());
  EXPECT_EQ(setup_lines[0], "game " + std::to_string(c.games[4].game_id) +
                                " (/games row 4): opening " + setup + ", the file's config gives " +
                                std::string(io::text_of(c.games[4].opening)));
}

TEST_F(Verify, RecordThatDiffersFromThePliesIsReported) {
  const std::string path = campaign();
  const Contents c = read_all(path);
  const io::GameRow& g = long_game(c, 3);
  const uint64_t row = row_of<io::PlyRow>(
      c.plies, [&](const io::PlyRow& p) { return p.game_id == g.game_id && p.ply == 1; });
  std::vector<std::string> tokens = split(std::string(io::text_of(g.record)), ' ');
  const std::string stored = tokens[1];
  tokens[1] = "9:a5-a5";
  std::string record;
  for (const auto& t : tokens) record += (record.empty() ? "" : " ") + t;
  Contents written;
  const auto lines = verify_spoiled(
      path,
      [&](Contents& c) {
        for (auto& r : c.games)
          if (r.game_id == g.game_id) io::set_record(r, record);
      },
      &written);
  // verify_spoiled writes the games in the order read: the plies keep their rows.
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "game " + std::to_string(g.game_id) + " (/games row " +
                          std::to_string(&g - c.games.data()) +
                          "): the record has 9:a5-a5 at ply " + "1, /plies row " +
                          std::to_string(row) + " has " + stored);
}

TEST_F(Verify, WrongFeatureIsReportedAtItsPositionRowAndManyAreCounted) {
  const std::string path = campaign();
  const Contents c = read_all(path);
  const size_t width = c.meta.feature_names.size();
  ASSERT_EQ(c.meta.feature_names[4], "own_dist_sum");
  const size_t target = 5;
  Contents written;
  const auto lines = verify_spoiled(
      path, [&](Contents& c) { c.features[target * width + 4] += 1.0f; }, &written);
  const io::PositionRow& p = c.positions[target];
  const uint64_t row =
      row_of<io::PositionRow>(written.positions, [&](const io::PositionRow& q) { return q == p; });
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(
      lines[0].rfind("game " + std::to_string(p.game_id) + ", ply " + std::to_string(p.ply) +
                         " (/positions row " + std::to_string(row) + "): feature own_dist_sum is ",
                     0),
      0u)
      << lines[0];

  // Every position wrong: ten lines, then the count of the rest.
  const auto all = verify_spoiled(path, [&](Contents& c) {
    for (size_t i = 0; i < c.positions.size(); ++i) c.features[i * width] = -1;
  });
  ASSERT_EQ(all.size(), 11u);
  EXPECT_EQ(all[10], "... and " + std::to_string(c.positions.size() - 10) + " more");
}

TEST_F(Verify, ExportListsTheStoredMovesByteForByte) {
  const std::string path = campaign("a.h5");
  const auto r = selfplay("export '" + path + "'");
  ASSERT_EQ(r.code, 0) << stderr_text();
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(
      lines[0],
      "game_id\topening\tfirst_player\twinner\tplies\tplayer0\tplayer1\tlabel0\tlabel1\tmoves");
  const Contents c = read_all(path);
  std::vector<io::GameRow> games = c.games;
  std::sort(games.begin(), games.end(),
            [](const auto& a, const auto& b) { return a.game_id < b.game_id; });
  for (size_t i = 0; i < games.size(); ++i) {
    const io::GameRow& g = games[i];
    const std::vector<std::string> columns = split(lines[i + 1], '\t');
    ASSERT_EQ(columns.size(), 10u) << lines[i + 1];
    EXPECT_EQ(columns[0], std::to_string(g.game_id));
    EXPECT_EQ(columns[1], io::text_of(g.opening));
    EXPECT_EQ(columns[2], std::to_string(g.first_player));
    EXPECT_EQ(columns[3], std::to_string(g.winner));
    EXPECT_EQ(columns[4], std::to_string(g.plies));
    // Who sat where: the campaign is paired, so the engines swap seats in odd games.
    const std::string mcts = "engines.player0 (mcts)", random = "engines.player1 (random)";
    EXPECT_EQ(columns[5], g.game_id % 2 ? random : mcts) << lines[i + 1];
    EXPECT_EQ(columns[6], g.game_id % 2 ? mcts : random) << lines[i + 1];
    ASSERT_FALSE(g.record_truncated);
    // The labels (the config gives player1 one).
    EXPECT_EQ(columns[7], g.game_id % 2 ? "random mover" : "") << lines[i + 1];
    EXPECT_EQ(columns[8], g.game_id % 2 ? "" : "random mover") << lines[i + 1];
    EXPECT_EQ(columns[9], io::text_of(g.record));
    // The moves parse back to the /plies rows.
    const std::vector<std::string> moves = split(columns[9], ' ');
    ASSERT_EQ(moves.size(), g.plies);
    for (const auto& p : c.plies) {
      if (p.game_id != g.game_id) continue;
      EXPECT_EQ(moves[p.ply], std::to_string(p.chance) + ":" + std::string(io::text_of(p.move)));
    }
  }

  // The file names the program that wrote it, as --version does.
  const auto version = selfplay("--version");
  ASSERT_EQ(version.code, 0);
  EXPECT_EQ(io::CampaignReader(path).meta().program + "\n", version.out);
  EXPECT_EQ(version.out.rfind("selfplay ", 0), 0u) << version.out;

  // The same campaign again gives the same bytes; --out writes what stdout gets.
  const std::string again = campaign("b.h5");
  const std::string out = tmp_.file("games.tsv");
  ASSERT_EQ(selfplay("export '" + again + "' --out '" + out + "'").code, 0) << stderr_text();
  EXPECT_EQ(test::read_text(out), r.out);
  EXPECT_FALSE(fs::exists(out + ".tmp"));
}

// Format-1 files (tests/data/, written before format 2) verify and export as they did, and the
// format-2 copy `selfplay convert` makes verifies and exports to the same text.
TEST_F(Verify, Format1FilesVerifyExportAndConvertToTheSameGames) {
  const std::map<std::string, std::string> verified = {
      {"format1-campaign", "verified 3 games, 55 plies, 55 positions: OK\n"},
      {"format1-match", "verified 2 games, 39 plies, 4 positions, 1 pair: OK\n"}};
  for (const auto& [name, report] : verified) {
    SCOPED_TRACE(name);
    const std::string old = test::source_path("tests/data/" + name + ".h5");
    const auto r = selfplay("verify '" + old + "'");
    EXPECT_EQ(r.code, 0) << stderr_text();
    EXPECT_EQ(r.out, report);
    EXPECT_EQ(stderr_text(), "");
    const auto exported = selfplay("export '" + old + "'");
    ASSERT_EQ(exported.code, 0) << stderr_text();
    const std::string copy = tmp_.file(name + ".h5");
    const auto converted = selfplay("convert '" + old + "' '" + copy + "'");
    EXPECT_EQ(converted.code, 0) << stderr_text();
    EXPECT_EQ(
        converted.out.rfind("converted " + old + " (format 1) to " + copy + " (format 3): ", 0), 0u)
        << converted.out;
    EXPECT_EQ(stderr_text(), "");
    EXPECT_EQ(selfplay("verify '" + copy + "'").out, report);
    EXPECT_EQ(selfplay("export '" + copy + "'").out, exported.out);
  }
  const std::vector<std::string> lines =
      lines_of(selfplay("export '" + tmp_.file("format1-campaign.h5") + "'").out);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[1].rfind("0\t216435/162453\t0\t1\t18\tengines.player0 (mcts)\tengines.player1 "
                           "(mcts)\t\t\t4:a4-a3 6:d1-c1 1:b5-c4 ",
                           0),
            0u)
      << lines[1];
}

// Each refusal is one line on stderr, exit code 2, and no output file.
TEST_F(Verify, ConvertRefusesBadInputWithOneLineAndExitTwo) {
  const std::string old = test::source_path("tests/data/format1-campaign.h5");
  const std::string out = tmp_.file("out.h5");
  const auto refused = [&](const std::string& in, const std::string& to,
                           const std::string& message) {
    const auto r = selfplay("convert '" + in + "' '" + to + "'");
    EXPECT_EQ(r.code, 2) << in << " -> " << to;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(stderr_text(), "error: " + message + "\n");
    EXPECT_FALSE(fs::exists(to + ".convert.tmp"));
  };
  refused(tmp_.file("missing.h5"), out, tmp_.file("missing.h5") + ": no such file");
  EXPECT_FALSE(fs::exists(out));
  refused(tmp_.path().string(), out,
          tmp_.path().string() + ": is a directory, not a campaign file");
  const std::string text = tmp_.write("text.h5", "not hdf5\n").string();
  refused(text, out, "cannot open '" + text + "': file signature not found");
  EXPECT_FALSE(fs::exists(out));
  refused(old, tmp_.file("no/such/dir/out.h5"),
          "cannot write '" + tmp_.file("no/such/dir/out.h5") + "': cannot create lock file '" +
              tmp_.file("no/such/dir/out.h5") + ".lock': No such file or directory");
  std::ofstream(out) << "precious";
  refused(old, out, "cannot write '" + out + "': it exists (convert writes a new file)");
  EXPECT_EQ(test::read_text(out), "precious");
  const std::string current = tmp_.file("current.h5");
  ASSERT_EQ(selfplay("convert '" + old + "' '" + current + "'").code, 0) << stderr_text();
  refused(current, tmp_.file("again.h5"),
          "'" + current + "' is already campaign format 3: nothing to convert");
  EXPECT_FALSE(fs::exists(tmp_.file("again.h5")));
}

// `selfplay run --resume` on a format-1 file stops before touching it and names the way on.
TEST_F(Verify, ResumeOfAFormat1FileSaysToConvertIt) {
  const std::string path = tmp_.file("old.h5");
  fs::copy_file(test::source_path("tests/data/format1-campaign.h5"), path);
  const std::string before = test::read_text(path);
  const auto r = selfplay("run '" + test::source_path("tests/data/format1-campaign.yaml") +
                          "' --out '" + path + "' --resume --games 4 --quiet");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(stderr_text().find("error: cannot resume '" + path +
                               "': it is a format-1 campaign file, which this build reads but "
                               "does not extend; run `selfplay convert " +
                               path + " NEW` and resume NEW\n"),
            std::string::npos)
      << stderr_text();
  EXPECT_EQ(test::read_text(path), before);
}

TEST_F(Verify, UnreadableFilesExitWithTwo) {
  const std::string missing = tmp_.file("missing.h5");
  for (const char* command : {"verify", "export"}) {
    auto r = selfplay(std::string(command) + " '" + missing + "'");
    EXPECT_EQ(r.code, 2) << command;
    EXPECT_EQ(stderr_text(), "error: " + missing + ": no such file\n");
    r = selfplay(std::string(command) + " '" + tmp_.write("text.h5", "not hdf5\n").string() + "'");
    EXPECT_EQ(r.code, 2) << command << ": " << stderr_text();
    EXPECT_NE(stderr_text().find("text.h5"), std::string::npos) << stderr_text();
    EXPECT_EQ(r.out, "");
  }
  // An export must not replace the campaign file it reads.
  const std::string path = campaign();
  const std::string before = test::read_text(path);
  EXPECT_EQ(selfplay("export '" + path + "' --out '" + path + "'").code, 2);
  EXPECT_EQ(test::read_text(path), before);

  // An output path that cannot be written is bad input (exit 2) for export as for merge: before
  // issue 23 export exited 1 for these.
  const std::string folder = tmp_.file("a-folder");
  fs::create_directories(folder);
  for (const std::string& out :
       {folder, std::string("/proc/selfplay-export.txt"), tmp_.file(std::string(300, 'n'))}) {
    SCOPED_TRACE(out);
    for (const char* command : {"export", "merge"}) {
      const std::string line = std::string(command) + " '" + path + "' " +
                               (command == std::string("export") ? "--out " : "-o ") + "'" + out +
                               "'";
      EXPECT_EQ(selfplay(line).code, 2) << line << ": " << stderr_text();
      EXPECT_NE(stderr_text().find(out), std::string::npos) << stderr_text();
    }
  }
  EXPECT_TRUE(fs::is_directory(folder));
  EXPECT_TRUE(fs::is_empty(folder));
}

// A file whose stored config cannot be read verifies against its `rules` attribute and its
// openings (EWN's GameHost hooks parse_rules and opening_position), with a note saying so; a bad
// opening is then reported as such, and a file without readable rules at all is refused.
TEST_F(Verify, WithoutItsStoredConfigEwnFallsBackToTheRulesAttribute) {
  const std::string path = campaign();
  const Contents c = read_all(path);
  Contents bare = c;
  bare.meta.config_text.clear();
  write_all(bare, tmp_.file("bare.h5"));
  const auto r = selfplay("verify '" + tmp_.file("bare.h5") + "'");
  EXPECT_EQ(r.code, 0) << r.out << stderr_text();
  EXPECT_EQ(r.out, "verified 6 games, " + std::to_string(c.plies.size()) + " plies, " +
                       std::to_string(c.positions.size()) + " positions: OK\n");
  EXPECT_EQ(stderr_text(), "note: " + tmp_.file("bare.h5") +
                               ": the stored config cannot be read (the file stores no config): "
                               "openings, first players and dice are checked against the rules "
                               "only\n");

  // Without the config, the opening is the start: one that is no pair of arrangements is named.
  bare.games[1].opening[3] = 'x';
  const std::string opening(io::text_of(bare.games[1].opening));
  write_all(bare, tmp_.file("opening.h5"));
  const auto bad = selfplay("verify '" + tmp_.file("opening.h5") + "'");
  EXPECT_EQ(bad.code, 1) << bad.out << stderr_text();
  ASSERT_FALSE(bad.out.empty());
  EXPECT_EQ(lines_of(bad.out).at(0).rfind("game " + std::to_string(bare.games[1].game_id) +
                                              " (/games row 1): opening \"" + opening +
                                              "\" does not parse: ",
                                          0),
            0u)
      << bad.out;

  bare = c;
  bare.meta.config_text.clear();
  bare.meta.rules = "capture_own=maybe";
  write_all(bare, tmp_.file("norules.h5"));
  const auto refused = selfplay("verify '" + tmp_.file("norules.h5") + "'");
  EXPECT_EQ(refused.code, 2);
  EXPECT_EQ(stderr_text(), "error: " + tmp_.file("norules.h5") +
                               ": cannot tell the rules its games were played under: the stored "
                               "config cannot be read (the file stores no config) and the rules "
                               "attribute is \"capture_own=maybe\"\n");
}

TEST_F(Verify, AFileOfAnUnknownGameIsRefusedNamingTheKnownGames) {
  Contents c = read_all(campaign());
  c.meta.game = "chess";
  write_all(c, tmp_.file("chess.h5"));
  for (const char* command : {"verify", "export"}) {
    const auto r = selfplay(std::string(command) + " '" + tmp_.file("chess.h5") + "'");
    EXPECT_EQ(r.code, 2) << command;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(stderr_text(),
              "error: " + tmp_.file("chess.h5") +
                  ": game 'chess' has no replay in this build (known: " + game_names_text() + ")\n")
        << command;
  }
}

// Tic-tac-toe, a game without chance or features outside the games list, through the same
// verify and export (make_game_record_rules<TicTacToe> instead of the dispatch by name).
class GenericVerify : public Verify {
 protected:
  // A campaign of perfect play against random moves, with a two-move random opening: wins and
  // draws.
  std::string ttt_campaign() {
    auto cfg = config::load_campaign_config_text<TicTacToe>(R"(game: tictactoe
rules: {first_player: alternate, opening_moves: 2}
campaign: {games: 8, concurrency: 4, seed: 7}
engines:
  player0: {type: random}
  player1: {type: alphabeta, depth: 9}
backend: {name: cpu, threads: 2}
output: {positions_per_game: 0, flush_seconds: 0.05}
)",
                                                            "ttt.yaml");
    cfg.output.path = tmp_.file("ttt.h5");
    std::atomic<bool> stop{false};
    EXPECT_EQ(selfplay::run_campaign<TicTacToe>(cfg, {}, stop).games_played, 8u);
    return cfg.output.path;
  }

  static selfplay::VerifyReport verify(const std::string& path) {
    return selfplay::verify_file(path, 10, selfplay::make_game_record_rules<TicTacToe>);
  }

  // The problems verify finds in a copy of `path` with the fault `spoil` makes.
  std::vector<std::string> verify_spoiled(const std::string& path,
                                          const std::function<void(Contents&)>& spoil,
                                          Contents* written = nullptr) {
    Contents c = read_all(path);
    spoil(c);
    const std::string bad = tmp_.file("bad.h5");
    fs::remove(bad);
    write_all(c, bad);
    if (written) *written = read_all(bad);
    const selfplay::VerifyReport report = verify(bad);
    EXPECT_TRUE(report.notes.empty());
    return report.problems.lines();
  }
};

TEST_F(GenericVerify, TicTacToeFileVerifiesAndExportsItsMovesAlone) {
  const std::string path = ttt_campaign();
  const Contents c = read_all(path);
  const selfplay::VerifyReport report = verify(path);
  EXPECT_EQ(report.problems.count(), 0u) << testing::PrintToString(report.problems.lines());
  EXPECT_EQ(report.games, 8u);
  EXPECT_EQ(report.plies, c.plies.size());
  EXPECT_EQ(report.positions, c.plies.size());
  EXPECT_TRUE(report.notes.empty());

  const std::vector<std::string> lines =
      lines_of(selfplay::export_text(path, selfplay::make_game_record_rules<TicTacToe>));
  ASSERT_EQ(lines.size(), 9u);
  std::vector<io::GameRow> games = c.games;
  std::sort(games.begin(), games.end(),
            [](const auto& a, const auto& b) { return a.game_id < b.game_id; });
  int draws = 0;
  for (size_t i = 0; i < games.size(); ++i) {
    const io::GameRow& g = games[i];
    const std::vector<std::string> columns = split(lines[i + 1], '\t');
    ASSERT_EQ(columns.size(), 10u) << lines[i + 1];
    EXPECT_EQ(columns[1], io::text_of(g.opening));
    EXPECT_EQ(columns[3], std::to_string(g.winner < 0 ? -1 : g.winner));  // a draw is -1
    draws += g.winner < 0;
    EXPECT_EQ(columns[9], io::text_of(g.record));  // the moves alone: "b2 c3 a1"
    const std::vector<std::string> moves = split(columns[9], ' ');
    ASSERT_EQ(moves.size(), g.plies);
    for (const auto& p : c.plies) {
      if (p.game_id != g.game_id) continue;
      EXPECT_EQ(moves[p.ply], io::text_of(p.move));
    }
  }
  EXPECT_GT(draws, 0);
  EXPECT_LT(draws, 8);
}

TEST_F(GenericVerify, TicTacToeFaultsAreReportedAtTheirRows) {
  const std::string path = ttt_campaign();
  const Contents c = read_all(path);
  const io::GameRow& g = c.games.at(3);
  ASSERT_GE(g.plies, 3);
  const uint64_t id = g.game_id;
  std::string first_move;
  for (const auto& p : c.plies)
    if (p.game_id == id && p.ply == 0) first_move = io::text_of(p.move);

  // Ply 1 played on the square ply 0 took: the replayed position and its legal moves are named.
  Contents written;
  const auto lines = verify_spoiled(
      path,
      [&](Contents& c) {
        for (auto& p : c.plies)
          if (p.game_id == id && p.ply == 1) io::set_text(p.move, first_move);
        rebuild_record(c, id);
      },
      &written);
  const uint64_t row = row_of<io::PlyRow>(
      written.plies, [&](const io::PlyRow& p) { return p.game_id == id && p.ply == 1; });
  const auto cfg = config::load_campaign_config_text<TicTacToe>(c.meta.config_text, "stored", true);
  ttt::State s =
      GameHost<TicTacToe>::start(cfg.rules, cfg.seed, static_cast<uint32_t>(id), nullptr);
  ttt::apply(s, ttt::parse_move(s, first_move));
  ttt::MoveList legal;
  ttt::generate_moves(s, legal);
  std::string options;
  for (int k = 0; k < legal.size; ++k) options += (k ? ", " : "") + ttt::to_string(legal.moves[k]);
  ASSERT_EQ(lines.size(), 1u) << testing::PrintToString(lines);
  EXPECT_EQ(lines[0], "game " + std::to_string(id) + ", ply 1 (/plies row " + std::to_string(row) +
                          "): move " + first_move + " is not legal in " + ttt::to_string(s) +
                          " (legal: " + options + ")");

  // A chance value in a game without chance.
  const auto chance = verify_spoiled(
      path,
      [&](Contents& c) {
        for (auto& p : c.plies)
          if (p.game_id == id && p.ply == 2) p.chance = 3;
      },
      &written);
  const uint64_t row2 = row_of<io::PlyRow>(
      written.plies, [&](const io::PlyRow& p) { return p.game_id == id && p.ply == 2; });
  ASSERT_EQ(chance.size(), 1u) << testing::PrintToString(chance);
  EXPECT_EQ(chance[0], "game " + std::to_string(id) + ", ply 2 (/plies row " +
                           std::to_string(row2) + "): chance 3, but tictactoe has no chance (-1)");

  // A drawn game recorded as won, and one of its positions scored as a win.
  const auto draw = std::find_if(c.games.begin(), c.games.end(),
                                 [](const io::GameRow& g) { return g.winner == -1; });
  ASSERT_NE(draw, c.games.end());
  const size_t draw_row = static_cast<size_t>(draw - c.games.begin());
  const uint64_t position = row_of<io::PositionRow>(
      c.positions, [&](const io::PositionRow& p) { return p.game_id == draw->game_id; });
  const auto drawn = verify_spoiled(path, [&](Contents& c) {
    c.games[draw_row].winner = 0;
    c.positions[position].result = 1.0f;
  });
  ASSERT_EQ(drawn.size(), 2u);
  EXPECT_EQ(drawn[0], "game " + std::to_string(draw->game_id) + " (/games row " +
                          std::to_string(draw_row) +
                          "): winner 0 recorded, the replay ends in a draw");
  EXPECT_EQ(drawn[1].rfind("game " + std::to_string(draw->game_id) + ", ply " +
                               std::to_string(c.positions[position].ply) + " (/positions row ",
                           0),
            0u)
      << drawn[1];
  EXPECT_NE(drawn[1].find("): result 1, the replayed game gives 0.5"), std::string::npos)
      << drawn[1];

  // Features stored for a game that has none: said once.
  const auto features = verify_spoiled(path, [](Contents& c) {
    c.meta.feature_names = {"material"};
    c.features.assign(c.positions.size(), 1.0f);
  });
  ASSERT_EQ(features.size(), 1u) << testing::PrintToString(features);
  EXPECT_NE(features[0].find("/positions row "), std::string::npos) << features[0];
  EXPECT_NE(features[0].find("): 1 features stored, but tictactoe has no features"),
            std::string::npos)
      << features[0];
}

}  // namespace
}  // namespace sp
