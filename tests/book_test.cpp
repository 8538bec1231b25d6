// Opening books: the file (round trip, damaged files refused with their line), the rule that
// chooses the book moves, the engine that plays them (book kind in the records, the search
// everywhere else), the config key (checked against the game's rules, in the run's identity by
// content), and `selfplay book build` from a campaign's games to a campaign that plays the book.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "games/checkers/host.hpp"
#include "games/gomoku/host.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/engines/book/book_engine.hpp"
#include "host/engines/book/opening_book.hpp"
#include "host/engines/book/tally.hpp"
#include "host/engines/search/engine.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "host/records/book_build.hpp"
#include "host/records/verify.hpp"
#include "tests/test_util.hpp"

namespace sp::book {
namespace {

OpeningBook small_book() {
  OpeningBook b;
  b.game = "checkers";
  b.rules = "max_plies=400";
  b.plies = 6;
  b.built = "by hand";
  b.entries.push_back({"B:W21,22:B1,2", {{"1-5", 30, 0.6}, {"2-6", 12, 0.25}}, 0});
  b.entries.push_back({"W:W21,22:B1,5", {{"21-17", 25, 0.52}}, 0});
  b.index();
  return b;
}

TEST(BookFile, RoundTripsThroughItsText) {
  const OpeningBook b = small_book();
  const OpeningBook back = parse_book(b.text(), "b.book");
  EXPECT_EQ(back.game, b.game);
  EXPECT_EQ(back.rules, b.rules);
  EXPECT_EQ(back.plies, b.plies);
  EXPECT_EQ(back.built, b.built);
  ASSERT_EQ(back.entries.size(), 2u);
  EXPECT_EQ(back.entries[0].position, "B:W21,22:B1,2");
  ASSERT_EQ(back.entries[0].moves.size(), 2u);
  EXPECT_EQ(back.entries[0].moves[1].move, "2-6");
  EXPECT_EQ(back.entries[0].moves[1].games, 12u);
  EXPECT_DOUBLE_EQ(back.entries[0].moves[1].score, 0.25);
  EXPECT_EQ(back.entries[1].line, 9u);  // a comment, 4 header lines, the columns, entry 0's 2 rows
  EXPECT_EQ(back.text(), b.text());
  EXPECT_EQ(back.find("W:W21,22:B1,5"), &back.entries[1]);
  EXPECT_EQ(back.find("W:W21,22:B1,6"), nullptr);
  // The digest is of the contents: comments do not count, a changed count does.
  EXPECT_EQ(parse_book("# another comment\n" + b.text(), "c.book").digest(), b.digest());
  OpeningBook changed = b;
  changed.entries[1].moves[0].games = 26;
  EXPECT_NE(changed.digest(), b.digest());
}

TEST(BookFile, DamagedFilesAreRefusedWithTheirLine) {
  const std::string head = "game\tcheckers\nrules\tr\nplies\t4\nbuilt\tx\n";
  const std::string columns = "position\trank\tmove\tgames\tscore\n";
  const std::string row = "P\t0\t1-5\t3\t0.5\n";
  const struct {
    std::string text, says;
  } cases[] = {
      {"", "no columns line"},
      {head + columns, "no positions"},
      {"game\tcheckers\n" + columns + row, "b.book:2: the header lacks rules"},
      {head + "colour\tred\n" + columns + row, "b.book:5: unknown header key \"colour\""},
      {head + "plies\t0\n" + columns + row, "b.book:5: plies \"0\" is not a count"},
      {head + "just text\n", "b.book:5: \"just text\" is no header line"},
      {head + columns + "P\t0\t1-5\t3\n", "b.book:6: a row has five"},
      {head + columns + "P\t0\t1-5\t0\t0.5\n", "b.book:6: games \"0\""},
      {head + columns + "P\t0\t1-5\tx\t0.5\n", "b.book:6: games \"x\""},
      {head + columns + "P\t0\t1-5\t3\t1.5\n", "b.book:6: score \"1.5\""},
      {head + columns + "P\t0\t1-5\t3\tnan\n", "b.book:6: score \"nan\""},
      {head + columns + "P\t1\t1-5\t3\t0.5\n", "b.book:6: rank 1 does not follow"},
      {head + columns + row + "Q\t1\t2-6\t3\t0.5\n", "b.book:7: rank 1 does not follow"},
      {head + columns + row + "P\t2\t2-6\t3\t0.5\n", "b.book:7: rank 2 does not follow"},
      {head + columns + row + "P\t1\t1-5\t3\t0.5\n", "b.book:7: move 1-5 is listed twice"},
      {head + columns + row + "Q\t0\t1-5\t3\t0.5\n" + row, "b.book:8: position P is listed twice"},
      {head + columns + "\t0\t1-5\t3\t0.5\n", "b.book:6: the position is empty"},
  };
  for (const auto& c : cases) {
    try {
      (void)parse_book(c.text, "b.book");
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos)
          << e.what() << "\nwanted: " << c.says;
    }
  }
  EXPECT_NO_THROW((void)parse_book(head + columns + row + "P\t1\t2-6\t1\t0\r\n", "b.book"));
  EXPECT_THROW((void)read_book("/nonexistent/b.book"), InputError);
  // A device would never end: refused before it is read.
  try {
    (void)read_book("/dev/zero");
    ADD_FAILURE() << "read /dev/zero";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/dev/zero: not a regular file"), std::string::npos)
        << e.what();
  }
}

TEST(BookTally, ChoosesTheMovesByTheRule) {
  BookTally t;
  const auto play = [&](const std::string& pos, int ply, const std::string& move, int games,
                        double points_each) {
    for (int i = 0; i < games; ++i) t.add(pos, ply, move, points_each);
  };
  play("clear", 0, "a", 20, 1.0);  // 1.0
  play("clear", 0, "b", 20, 0.5);  // 0.5: a leads by 0.5
  play("clear", 0, "c", 3, 1.0);   // too few games to count against a or to be chosen
  play("close", 1, "a", 20, 0.5);
  play("close", 1, "b", 20, 0.5);
  t.add("close", 1, "b", 1.0);      // b: 21 games, 0.524; a: 0.5: a gap of 0.024 < 0.05
  play("rare", 2, "a", 19, 1.0);    // one game short
  play("alone", 3, "a", 30, 0.5);   // no other move: the gap does not apply; 0.5 >= min_score
  play("losing", 2, "a", 30, 0.0);  // below min_score
  play("late", 16, "a", 30, 1.0);   // at ply 16: past the rule's plies
  play("both", 5, "a", 40, 0.75);   // first seen at ply 5, then at ply 1
  t.add("both", 1, "a", 0.75);
  EXPECT_EQ(t.positions(), 7u);

  BookRule rule;  // plies 16, min_games 20, min_gap 0.05, min_score 0.5
  const OpeningBook b = t.book(rule);
  ASSERT_EQ(b.entries.size(), 3u);
  // By the first ply seen: clear (0), both (1), alone (3).
  EXPECT_EQ(b.entries[0].position, "clear");
  EXPECT_EQ(b.entries[1].position, "both");
  EXPECT_EQ(b.entries[2].position, "alone");
  const BookEntry& clear = b.entries[0];
  ASSERT_EQ(clear.moves.size(), 3u);
  EXPECT_EQ(clear.moves[0].move, "a");
  EXPECT_EQ(clear.moves[0].games, 20u);
  EXPECT_DOUBLE_EQ(clear.moves[0].score, 1.0);
  EXPECT_EQ(clear.moves[1].move, "b");  // the counted moves first, then the rare one
  EXPECT_EQ(clear.moves[2].move, "c");
  EXPECT_EQ(b.entries[1].moves[0].games, 41u);
  EXPECT_EQ(b.plies, 16);

  rule.min_gap = 0.02;  // now b's lead in "close" is enough
  rule.min_games = 19;  // and "rare" has enough games
  const OpeningBook looser = t.book(rule);
  ASSERT_NE(looser.find("close"), nullptr);
  EXPECT_EQ(looser.find("close")->moves[0].move, "b");
  EXPECT_NE(looser.find("rare"), nullptr);
  rule.min_score = 0;
  EXPECT_NE(t.book(rule).find("losing"), nullptr);
  rule.plies = 17;
  EXPECT_NE(t.book(rule).find("late"), nullptr);
  rule.plies = 1;  // only positions first seen at ply 0
  EXPECT_EQ(t.book(rule).entries.size(), 1u);
}

// A book of one position: the start, and the last of its legal moves in generation order.
template <class G>
OpeningBook start_book(const typename G::Rules& rules, typename G::State& start,
                       typename G::Move& book_move) {
  start = GameHost<G>::parse_position(GameHost<G>::position_text(start));
  typename G::MoveList moves;
  G::generate_moves(start, rules, moves);
  book_move = moves.moves[moves.size - 1];
  OpeningBook b;
  b.game = G::kName;
  b.rules = GameHost<G>::describe_rules(rules);
  b.plies = 4;
  b.entries.push_back({GameHost<G>::position_text(start),
                       {{GameHost<G>::move_text(start, book_move), 9, 0.75},
                        {GameHost<G>::move_text(start, moves.moves[0]), 3, 0.25}},
                       12});
  b.index();
  return b;
}

TEST(BookEngine, PlaysTheBookMoveAtOnceAndSearchesElsewhere) {
  using G = CheckersGame;
  const G::Rules rules{};
  G::State start = GameHost<G>::parse_position("B:W21-32:B1-12");
  G::Move book_move{};
  auto b = std::make_shared<const OpeningBook>(start_book<G>(rules, start, book_move));
  EXPECT_EQ(check_book<G>(*b, rules), "");
  BookEngine<G> engine(b, std::make_unique<search::RandomEngine<G>>(rules), rules);
  EXPECT_NE(engine.describe().find("random with book (1 positions, 4 plies)"), std::string::npos)
      << engine.describe();
  engine.new_game();
  engine.begin(start, search::SearchIds{0, 0, 7});
  ASSERT_TRUE(engine.decided());
  search::MoveStats stats;
  EXPECT_EQ(engine.decision(&stats), book_move);
  EXPECT_EQ(stats.visits, 9u);
  EXPECT_FLOAT_EQ(stats.value, 0.75f);
  search::SearchReport<G::Move> report;
  engine.report(report, 8);
  EXPECT_EQ(report.kind, search::SearchKind::kBook);
  ASSERT_EQ(report.candidates.size(), 2u);
  EXPECT_EQ(report.candidates[0].move, book_move);
  EXPECT_EQ(report.candidates[1].visits, 3u);
  ASSERT_EQ(report.pv.size(), 1u);
  EXPECT_EQ(report.pv[0].move, book_move);
  // The same position at ply 4 is past the book's plies: the wrapped engine decides.
  engine.begin(start, search::SearchIds{0, 4, 7});
  search::SearchReport<G::Move> searched;
  engine.decision(nullptr);
  engine.report(searched, 8);
  EXPECT_EQ(searched.kind, search::SearchKind::kRandom);
  // A position the book does not hold: the wrapped engine too.
  G::State after = start;
  G::apply(after, book_move);
  engine.observe(book_move, after);
  engine.begin(after, search::SearchIds{0, 1, 7});
  search::SearchReport<G::Move> other;
  engine.decision(nullptr);
  engine.report(other, 8);
  EXPECT_EQ(other.kind, search::SearchKind::kRandom);
}

TEST(BookEngine, ABookOfOtherRulesOrAnIllegalMoveIsRefusedWithItsLine) {
  using G = GomokuGame;
  const G::Rules rules = GameHost<G>::rules_of(GameHost<G>::Settings{});
  G::State start = GameHost<G>::pbrain_start(rules);
  G::Move move{};
  OpeningBook b = start_book<G>(rules, start, move);
  b.source = "g.book";
  EXPECT_EQ(check_book<G>(b, rules), "");
  OpeningBook other_game = b;
  other_game.game = "checkers";
  EXPECT_NE(check_book<G>(other_game, rules).find("g.book is a book of checkers, not of gomoku"),
            std::string::npos);
  OpeningBook other_rules = b;
  other_rules.rules = "board=19";
  EXPECT_NE(check_book<G>(other_rules, rules).find("was built from games under the rules"),
            std::string::npos);
  OpeningBook illegal = b;
  illegal.entries[0].moves[1].move = "z99";
  EXPECT_NE(check_book<G>(illegal, rules).find("g.book:13: move z99 of position"),
            std::string::npos)
      << check_book<G>(illegal, rules);
  OpeningBook bad_position = b;
  bad_position.entries[0].position = "not a board";
  EXPECT_NE(check_book<G>(bad_position, rules).find("g.book:12: position not a board does not"),
            std::string::npos)
      << check_book<G>(bad_position, rules);
}

}  // namespace
}  // namespace sp::book

namespace sp::selfplay {
namespace {

std::string checkers_config(const std::string& player0_extra) {
  return R"(
game: checkers
rules: {start: standard, max_plies: 120}
campaign: {games: 24, concurrency: 4, seed: 11, paired: true}
engines:
  player0: {type: mcts, rollouts_per_move: 120, rollouts_per_leaf: 4)" +
         player0_extra + R"(}
  player1: {type: mcts, rollouts_per_move: 120, rollouts_per_leaf: 4}
backend: {name: cpu, threads: 2, batch_rollouts: 512}
output: {path: unused.h5, flush_seconds: 0.05}
)";
}

std::string play(const std::string& text, const test::TempDir& dir, const std::string& name) {
  config::Config<CheckersGame> cfg =
      config::load_campaign_config_text<CheckersGame>(text, dir.file("c.yaml"));
  cfg.output.path = dir.file(name);
  std::atomic<bool> stop{false};
  run_campaign(cfg, RunOptions{}, stop);
  return cfg.output.path;
}

TEST(BookBuild, ACampaignsGamesMakeABookThatAnEnginePlays) {
  test::TempDir dir;
  const std::string games = play(checkers_config(""), dir, "games.h5");
  book::BookRule rule;
  rule.plies = 4;
  rule.min_games = 4;
  rule.min_gap = 0;
  rule.min_score = 0;
  BookBuildReport report;
  const book::OpeningBook b = build_book({games}, rule, report);
  EXPECT_EQ(report.games, 24u);
  EXPECT_EQ(report.skipped, 0u);
  using H = GameHost<CheckersGame>;
  const auto cfg = config::load_campaign_config_text<CheckersGame>(checkers_config(""), "c.yaml");
  EXPECT_EQ(b.game, "checkers");
  EXPECT_EQ(b.rules, H::describe_rules(H::rules_of(cfg.rules)));
  // Every game starts from the standard position: its moves add up to the 24 games.
  ASSERT_FALSE(b.entries.empty());
  const book::BookEntry& first = b.entries.front();
  std::string opening;
  EXPECT_EQ(first.position, H::position_text(H::start(cfg.rules, 11, 0, &opening)));
  uint64_t sum = 0;
  for (const book::BookMove& m : first.moves) sum += m.games;
  EXPECT_EQ(sum, 24u);
  EXPECT_GE(first.moves.front().games, 4u);

  book::write_book(dir.file("c.book"), b);
  const std::string booked = play(checkers_config(", book: c.book"), dir, "booked.h5");
  const VerifyReport verified = verify_file(booked, 10);
  EXPECT_EQ(verified.problems.count(), 0u)
      << (verified.problems.lines().empty() ? "" : verified.problems.lines().front());
  const io::CampaignReader reader(booked);
  const auto plies = reader.plies();
  const auto rows = reader.games();
  ASSERT_EQ(rows.size(), 24u);
  size_t book_plies = 0;
  for (const io::PlyRow& p : plies) {
    const bool player0 = p.player == (p.game_id % 2 == 0 ? 0 : 1);  // paired: seats swap
    if (p.ply == 0 && player0) {
      EXPECT_EQ(p.search, static_cast<uint8_t>(search::SearchKind::kBook));
      EXPECT_EQ(io::text_of(p.move), first.moves.front().move);
    }
    if (p.search == static_cast<uint8_t>(search::SearchKind::kBook)) {
      ++book_plies;
      EXPECT_LT(p.ply, 4u);
      EXPECT_TRUE(player0);
    }
  }
  EXPECT_GE(book_plies, 12u);  // at least player 0's first move in every game it opens
  // The identity counts the book's contents: the same book elsewhere resumes, another refuses.
  const auto identity = [&](const std::string& extra) {
    return run_identity(
        config::load_campaign_config_text<CheckersGame>(checkers_config(extra), dir.file("c.yaml")),
        false);
  };
  book::write_book(dir.file("same.book"), b);
  book::OpeningBook other = b;
  other.entries.front().moves.front().games += 1;
  other.index();
  book::write_book(dir.file("other.book"), other);
  EXPECT_EQ(identity(", book: c.book"), identity(", book: same.book"));
  EXPECT_NE(identity(", book: c.book"), identity(", book: other.book"));
  EXPECT_NE(identity(", book: c.book"), identity(""));
  EXPECT_EQ(identity(""), identity(", book: \"\""));
}

TEST(BookBuild, TheCommandWritesTheBookAndRefusesWhatItCannotUse) {
  test::TempDir dir;
  const std::string games = play(checkers_config(""), dir, "games.h5");
  const std::string bin = SELFPLAY_BINARY;
  const std::string out = dir.file("out.book");
  const auto r = test::run_command(bin + " book build " + games + " --out " + out +
                                   " --plies 2 --min-games 3 --min-score 0 2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("of 24 checkers games, written to " + out), std::string::npos) << r.out;
  const book::OpeningBook b = book::read_book(out);
  EXPECT_EQ(b.plies, 2);
  EXPECT_NE(b.built.find("24 games of 1 file; plies 2, min_games 3"), std::string::npos);
  // A config naming a book of another game is refused with the key and the reason.
  const std::string gomoku = dir.write("g.yaml",
                                       "game: gomoku\nengines:\n  player0: {type: "
                                       "random, book: out.book}\n")
                                 .string();
  const auto g = test::run_command(bin + " config --check " + gomoku + " 2>&1");
  EXPECT_EQ(g.code, 2);
  EXPECT_NE(g.out.find("book"), std::string::npos) << g.out;
  EXPECT_NE(g.out.find("is a book of checkers, not of gomoku"), std::string::npos) << g.out;
  // No game passes: nothing written, exit 2.
  const auto none = test::run_command(bin + " book build " + games + " --out " +
                                      dir.file("none.book") + " --min-games 1000 2>&1");
  EXPECT_EQ(none.code, 2) << none.out;
  EXPECT_FALSE(std::filesystem::exists(dir.file("none.book")));
  // A file that is no campaign: exit 2, the book it would replace untouched.
  const std::string before = test::read_text(out);
  const auto bad = test::run_command(bin + " book build " + dir.write("x.h5", "junk").string() +
                                     " --out " + out + " 2>&1");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_EQ(test::read_text(out), before);
}

}  // namespace
}  // namespace sp::selfplay
