#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/h5.hpp"
#include "tests/test_util.hpp"

namespace sp::io {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPython = "/usr/bin/python3";

using test::TempDir;

FileMeta test_meta(size_t features = 3) {
  FileMeta meta;
  meta.game = "ewn";
  meta.rules = "board=5 pieces=6";
  meta.config_text = "game:\n  name: ewn\nseed: 7\n";
  meta.backend = "cpu";
  meta.device = "test cpu";
  meta.host = "testhost";
  meta.start_time = "2024-01-01T00:00:00Z";
  meta.git_commit = "0123456789ab";
  meta.seed = 7;
  for (size_t f = 0; f < features; ++f) {
    meta.feature_names.push_back("feature_");
    meta.feature_names.back() += std::to_string(f);
  }
  return meta;
}

struct Game {
  GameRow game;
  std::vector<PlyRow> plies;
  std::vector<PositionRow> positions;
  std::vector<float> features;
  std::vector<CandidateRow> candidates;
};

// Deterministic content from the id; game 2 has a record too long for the field.
Game make_game(uint64_t id, size_t features = 3) {
  Game g;
  g.game.game_id = id;
  g.game.seed = 7;
  set_text(g.game.opening, id % 2 ? "123456/654321" : "654321/123456");
  g.game.first_player = static_cast<uint8_t>(id % 2);
  g.game.winner = static_cast<int8_t>(id % 3 == 0 ? -1 : static_cast<int>(id % 2));
  g.game.plies = static_cast<uint16_t>(5 + id % 7);
  g.game.duration_s = 0.25 + static_cast<double>(id);
  std::string record;
  const int moves = id == 2 ? 300 : g.game.plies;
  for (int p = 0; p < moves; ++p) {
    if (p) record += ' ';
    record += std::to_string(1 + p % 6) + ":b4-c3";
  }
  set_record(g.game, record);
  for (uint16_t p = 0; p < g.game.plies; ++p) {
    PlyRow ply;
    ply.game_id = id;
    ply.ply = p;
    ply.player = static_cast<uint8_t>(p % 2);
    ply.chance = static_cast<int8_t>(1 + p % 6);
    set_text(ply.move, p % 2 ? "b4-c3" : "d2-c1");
    ply.visits = 100 + p;
    ply.root_value = 0.125f * static_cast<float>(p) - 0.5f;
    ply.rollouts = 1000ull * p + id;
    ply.time_ms = 1.5f * static_cast<float>(p);
    ply.search = static_cast<uint8_t>(1 + p % 7);
    ply.depth = static_cast<int16_t>(p % 3 - 1);
    ply.score = -250.5f + static_cast<float>(p);
    ply.nodes = 5000ull * p + id;
    ply.played = 900ull * p;
    ply.think_ms = 0.25f * static_cast<float>(p);
    set_text(ply.pv, p % 2 ? "3:b4-c3 5:d2-c1" : "");
    g.plies.push_back(ply);
    for (uint16_t rank = 0; rank < p % 3; ++rank) {
      CandidateRow c;
      c.game_id = id;
      c.ply = p;
      c.rank = rank;
      set_text(c.move, rank ? "a1-b2" : "b4-c3");
      c.visits = 50u - rank;
      c.value = 0.5f + 0.125f * rank;
      g.candidates.push_back(c);
    }
    g.positions.push_back({id, p, static_cast<uint8_t>(p % 2), p % 2 ? -1.0f : 1.0f});
    for (size_t f = 0; f < features; ++f) {
      g.features.push_back(static_cast<float>(id * 1000 + p * 10 + f));
    }
  }
  return g;
}

void append(CampaignWriter& writer, const Game& g) {
  writer.append_game(g.game, g.plies, g.positions, g.features, g.candidates);
}

PerfRow make_perf(uint64_t batch) {
  return {batch,
          0.5 * static_cast<double>(batch),
          static_cast<uint32_t>(64 + batch),
          4096 * batch,
          1.25f,
          3.5f};
}

void expect_meta(const FileMeta& a, const FileMeta& b) {
  EXPECT_EQ(a.game, b.game);
  EXPECT_EQ(a.rules, b.rules);
  EXPECT_EQ(a.config_text, b.config_text);
  EXPECT_EQ(a.backend, b.backend);
  EXPECT_EQ(a.device, b.device);
  EXPECT_EQ(a.host, b.host);
  EXPECT_EQ(a.start_time, b.start_time);
  EXPECT_EQ(a.git_commit, b.git_commit);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.feature_names, b.feature_names);
}

// Every /games row of the file has all of its plies and positions (with features), and the file
// holds no other rows; returns the game ids in /games order.
std::vector<uint64_t> expect_consistent(const CampaignReader& reader, size_t features = 3) {
  std::vector<uint64_t> ids;
  std::map<uint64_t, uint16_t> plies_of;
  for (const GameRow& g : reader.games()) {
    EXPECT_NE(g.game_id, kNoGame) << "unwritten /games row";
    ids.push_back(g.game_id);
    plies_of[g.game_id] = g.plies;
  }
  EXPECT_EQ(plies_of.size(), ids.size()) << "duplicate game ids";
  std::map<uint64_t, size_t> ply_rows, position_rows;
  for (const PlyRow& p : reader.plies()) ++ply_rows[p.game_id];
  const auto positions = reader.positions();
  const auto values = reader.features();
  EXPECT_EQ(values.size(), positions.size() * features);
  for (size_t i = 0; i < positions.size(); ++i) {
    ++position_rows[positions[i].game_id];
    for (size_t f = 0; f < features; ++f) EXPECT_FALSE(std::isnan(values[i * features + f]));
  }
  for (const auto& [id, plies] : plies_of) {
    EXPECT_EQ(ply_rows[id], plies) << "game " << id;
    EXPECT_EQ(position_rows[id], plies) << "game " << id;
  }
  EXPECT_EQ(ply_rows.size(), plies_of.size()) << "plies of games without a /games row";
  EXPECT_EQ(position_rows.size(), plies_of.size()) << "positions of games without a /games row";
  return ids;
}

bool have_h5py() {
  return std::system((std::string(kPython) + " -c 'import h5py' >/dev/null 2>&1").c_str()) == 0;
}

// Runs a Python script (written to `dir`) with arguments; returns its exit status and stdout.
std::pair<int, std::string> run_python(const TempDir& dir, const std::string& script,
                                       const std::string& arguments) {
  static int counter = 0;
  const std::string script_path = dir.file("script" + std::to_string(counter++) + ".py");
  std::ofstream(script_path) << script;
  const test::CommandResult r =
      test::run_command(std::string(kPython) + " " + script_path + " " + arguments + " 2>&1");
  return {r.code, r.out};
}

using test::read_text;

// ---- the RAII layer

TEST(H5Layer, HandleClosesWhenItGoesOutOfScope) {
  TempDir dir;
  hid_t group_id = H5I_INVALID_HID;
  {
    File file = create_file(dir.file("a.h5"), true);
    Group group = create_group(file.get(), "g");
    group_id = group.get();
    EXPECT_GT(H5Iis_valid(group_id), 0);
    Group moved = std::move(group);
    EXPECT_FALSE(group);
    EXPECT_EQ(moved.get(), group_id);
    EXPECT_GT(H5Iis_valid(group_id), 0);
  }
  EXPECT_LE(H5Iis_valid(group_id), 0);
}

// what() is one line naming the operation, the object and the cause; the stack is kept aside.
TEST(H5Layer, ErrorIsOneLineWithTheCauseAndKeepsTheStack) {
  TempDir dir;
  const std::string path = dir.file("x.h5");
  std::ofstream(path) << "not HDF5";
  try {
    open_file(path, OpenMode::kRead);
    FAIL() << "no exception";
  } catch (const H5FileError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what, "cannot open '" + path + "': file signature not found");
    EXPECT_NE(e.stack().find("H5Fopen"), std::string::npos) << "no error stack: " << e.stack();
  }
  File file = create_file(dir.file("y.h5"), true);
  try {
    open_dataset(file.get(), "missing");
    FAIL() << "no exception";
  } catch (const H5Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_EQ(what.rfind("HDF5 open dataset failed for 'missing': ", 0), 0u) << what;
    EXPECT_EQ(e.system_error(), 0);
  }
}

TEST(H5Layer, AttributesRoundTrip) {
  TempDir dir;
  File file = create_file(dir.file("a.h5"), true);
  const hid_t root = file.get();
  write_attribute(root, "text", std::string_view("hello world"));
  write_attribute(root, "empty", std::string_view(""));
  write_attribute(root, "big", uint64_t{0xFFFF'FFFF'FFFF'FFFEull});
  write_attribute(root, "small", uint32_t{42});
  write_attribute(root, "list", std::vector<std::string>{"a", "", "longer name"});
  write_attribute(root, "none", std::vector<std::string>{});
  write_attribute(root, "text", std::string_view("replaced"));
  EXPECT_EQ(read_string_attribute(root, "text"), "replaced");
  EXPECT_EQ(read_string_attribute(root, "empty"), "");
  EXPECT_EQ(read_uint64_attribute(root, "big"), 0xFFFF'FFFF'FFFF'FFFEull);
  EXPECT_EQ(read_uint64_attribute(root, "small"), 42u);
  EXPECT_EQ(read_string_list_attribute(root, "list"),
            (std::vector<std::string>{"a", "", "longer name"}));
  EXPECT_TRUE(read_string_list_attribute(root, "none").empty());
  EXPECT_TRUE(has_attribute(root, "small"));
  EXPECT_FALSE(has_attribute(root, "missing"));
  EXPECT_THROW(read_string_attribute(root, "small"), H5Error);
  EXPECT_THROW(read_uint64_attribute(root, "missing"), H5Error);
}

TEST(H5Layer, MatrixAppendsAndReadsRows) {
  TempDir dir;
  File file = create_file(dir.file("m.h5"), true);
  Dataset matrix = create_matrix(file.get(), "m", 3, {4, 4});
  const std::vector<float> first = {1, 2, 3, 4, 5, 6};
  const std::vector<float> second = {7, 8, 9};
  append_rows(matrix.get(), H5T_NATIVE_FLOAT, first.data(), 2);
  append_rows(matrix.get(), H5T_NATIVE_FLOAT, second.data(), 1);
  EXPECT_EQ(dims(matrix.get()), (std::vector<hsize_t>{3, 3}));
  std::vector<float> out(6);
  read_rows(matrix.get(), H5T_NATIVE_FLOAT, 1, 2, out.data());
  EXPECT_EQ(out, (std::vector<float>{4, 5, 6, 7, 8, 9}));
  EXPECT_THROW(read_rows(matrix.get(), H5T_NATIVE_FLOAT, 2, 2, out.data()), H5Error);

  Dataset empty = create_matrix(file.get(), "empty", 0, {4, 4});
  append_rows(empty.get(), H5T_NATIVE_FLOAT, nullptr, 5);
  EXPECT_EQ(dims(empty.get()), (std::vector<hsize_t>{5, 0}));
}

// Rows whose memory layout (padded) differs from the file's (packed) go through HDF5's conversion
// buffers, which append_rows and read_rows size to the request: one row, a few, and more than
// the 1 MiB cap in one call (converted in several strips) must all come back intact.
TEST(H5Layer, ConvertedRowsRoundTripAtEverySize) {
  struct Row {
    uint8_t tag;
    double value;  // 7 bytes of padding before it in memory, none in the file
    uint16_t count;
  };
  Datatype type(check_id(H5Tcreate(H5T_COMPOUND, sizeof(Row)), "create type", "Row"));
  check(H5Tinsert(type.get(), "tag", HOFFSET(Row, tag), H5T_NATIVE_UINT8), "insert", "tag");
  check(H5Tinsert(type.get(), "value", HOFFSET(Row, value), H5T_NATIVE_DOUBLE), "insert", "value");
  check(H5Tinsert(type.get(), "count", HOFFSET(Row, count), H5T_NATIVE_UINT16), "insert", "count");
  TempDir dir;
  File file = create_file(dir.file("rows.h5"), true);
  const Row fill{0, -1.0, 0};
  Dataset table = create_table(file.get(), "rows", type.get(), {1024, 1}, &fill);
  ASSERT_NE(H5Tget_size(Datatype(H5Dget_type(table.get())).get()), sizeof(Row));  // converted
  const auto row_at = [](size_t i) {
    return Row{static_cast<uint8_t>(i * 7), 0.5 * static_cast<double>(i),
               static_cast<uint16_t>(i * 13)};
  };
  std::vector<Row> all;
  for (size_t n : {size_t{1}, size_t{3}, size_t{150'000}}) {  // 150,000 rows: 1.7 MiB in memory
    std::vector<Row> rows;
    for (size_t i = 0; i < n; ++i) rows.push_back(row_at(all.size() + i));
    append_rows(table.get(), type.get(), rows.data(), n);
    all.insert(all.end(), rows.begin(), rows.end());
  }
  ASSERT_EQ(H5Sget_simple_extent_npoints(Dataspace(H5Dget_space(table.get())).get()),
            static_cast<hssize_t>(all.size()));
  std::vector<Row> back(all.size(), fill);
  read_rows(table.get(), type.get(), 0, all.size(), back.data());
  for (size_t i = 0; i < all.size(); ++i) {
    ASSERT_EQ(back[i].tag, all[i].tag) << "row " << i;
    ASSERT_EQ(back[i].value, all[i].value) << "row " << i;
    ASSERT_EQ(back[i].count, all[i].count) << "row " << i;
  }
  Row one = fill;
  read_rows(table.get(), type.get(), 2, 1, &one);
  EXPECT_EQ(one.value, 1.0);
}

TEST(H5Records, SetRecordCutsAtAMoveBoundary) {
  GameRow row;
  set_record(row, "1:b4-c3 2:d2-c1");
  EXPECT_EQ(text_of(row.record), "1:b4-c3 2:d2-c1");
  EXPECT_EQ(row.record_truncated, 0);

  std::string record;
  while (record.size() < 2000) record += "6:e5-d4 ";
  record.pop_back();
  set_record(row, record);
  EXPECT_EQ(row.record_truncated, 1);
  const std::string_view kept = text_of(row.record);
  EXPECT_LE(kept.size(), sizeof row.record - 1);
  EXPECT_EQ(kept.size() % 8, 7u) << "cut inside a move: " << kept.substr(kept.size() - 10);
  EXPECT_EQ(record.substr(0, kept.size()), kept);

  char setup[16];
  EXPECT_TRUE(set_text(setup, "123456/654321"));
  EXPECT_FALSE(set_text(setup, "0123456789abcdefgh"));
  EXPECT_EQ(text_of(setup), "0123456789abcde");
}

// ---- campaign files

TEST(H5Campaign, WriteCloseAndReadBackEveryField) {
  TempDir dir;
  const std::string path = dir.file("c.h5");
  std::vector<Game> games;
  {
    CampaignWriter writer = CampaignWriter::create(path, test_meta(), {.flush_seconds = 0.01});
    for (uint64_t id = 0; id < 40; ++id) {
      games.push_back(make_game(id));
      append(writer, games.back());
      if (id % 4 == 0) writer.append_perf(make_perf(id));
    }
    writer.close();
    writer.close();
  }
  EXPECT_FALSE(fs::exists(path + ".resume.tmp"));
  const CampaignReader reader(path);
  EXPECT_EQ(reader.format_version(), kCampaignFormatVersion);
  expect_meta(reader.meta(), test_meta());
  ASSERT_EQ(reader.games_count(), games.size());
  const auto rows = reader.games();
  std::vector<PlyRow> plies;
  std::vector<CandidateRow> candidates;
  std::vector<PositionRow> positions;
  std::vector<float> features;
  for (size_t i = 0; i < games.size(); ++i) {
    EXPECT_EQ(rows[i], games[i].game) << "game " << i;
    plies.insert(plies.end(), games[i].plies.begin(), games[i].plies.end());
    candidates.insert(candidates.end(), games[i].candidates.begin(), games[i].candidates.end());
    positions.insert(positions.end(), games[i].positions.begin(), games[i].positions.end());
    features.insert(features.end(), games[i].features.begin(), games[i].features.end());
  }
  EXPECT_EQ(rows[2].record_truncated, 1);
  EXPECT_EQ(text_of(rows[3].record),
            "1:b4-c3 2:b4-c3 3:b4-c3 4:b4-c3 5:b4-c3 6:b4-c3 1:b4-c3 2:b4-c3");
  EXPECT_EQ(text_of(rows[3].opening), "123456/654321");
  EXPECT_EQ(reader.plies(), plies);
  ASSERT_FALSE(candidates.empty());
  EXPECT_EQ(reader.candidates_count(), candidates.size());
  EXPECT_EQ(reader.candidates(), candidates);
  EXPECT_EQ(reader.candidates(2, 1), std::vector<CandidateRow>{candidates[2]});
  EXPECT_EQ(reader.positions(), positions);
  EXPECT_EQ(reader.features(), features);
  EXPECT_EQ(reader.plies(5, 3), std::vector<PlyRow>(plies.begin() + 5, plies.begin() + 8));
  EXPECT_EQ(reader.features(1, 1), std::vector<float>(features.begin() + 3, features.begin() + 6));
  EXPECT_TRUE(reader.games(100).empty());
  ASSERT_EQ(reader.perf_count(), 10u);
  for (uint64_t i = 0; i < 10; ++i) EXPECT_EQ(reader.perf()[i], make_perf(4 * i));
}

TEST(H5Campaign, SchemaMatchesGolden) {
  TempDir dir;
  const std::string path = dir.file("golden.h5");
  {
    CampaignWriter writer = CampaignWriter::create(path, test_meta());
    append(writer, make_game(0));
    append(writer, make_game(1));
    writer.append_perf(make_perf(0));
  }
  const std::string dump = schema_dump(path);
  const std::string golden = test::source_path("tests/golden/campaign_schema.txt");
  if (std::getenv("SELFPLAY_UPDATE_GOLDEN")) std::ofstream(golden) << dump;
  EXPECT_EQ(dump, read_text(golden)) << "regenerate with SELFPLAY_UPDATE_GOLDEN=1 after review";
}

// ---- format 1: the files written before format 2 (tests/data/, made by the format-1 code)

std::string fixture(const std::string& name) { return test::source_path("tests/data/" + name); }

// A dump compared to its golden file (SELFPLAY_UPDATE_GOLDEN=1 rewrites the golden file).
void expect_golden(const std::string& dump, const std::string& golden_name) {
  const std::string golden = test::source_path("tests/golden/" + golden_name);
  if (std::getenv("SELFPLAY_UPDATE_GOLDEN")) std::ofstream(golden) << dump;
  EXPECT_EQ(dump, read_text(golden))
      << golden_name << ": regenerate with SELFPLAY_UPDATE_GOLDEN=1 after review";
}

// Every row and attribute a reader presents, for comparing a file with its conversion.
void expect_same_contents(const CampaignReader& a, const CampaignReader& b) {
  expect_meta(a.meta(), b.meta());
  EXPECT_EQ(a.meta().identity, b.meta().identity);
  EXPECT_EQ(a.meta().match, b.meta().match);
  EXPECT_EQ(a.games(), b.games());
  EXPECT_EQ(a.plies(), b.plies());
  EXPECT_EQ(a.positions(), b.positions());
  EXPECT_EQ(a.features(), b.features());
  EXPECT_EQ(a.perf(), b.perf());
  EXPECT_EQ(a.match_pairs(), b.match_pairs());
  EXPECT_EQ(a.candidates(), b.candidates());
}

// The fixtures were written by format-1 code; their layout must stay readable exactly as it is.
TEST(H5Format1, FixtureLayoutsMatchTheirGoldenDumps) {
  expect_golden(schema_dump(fixture("format1-campaign.h5")), "format1_campaign_schema.txt");
  expect_golden(schema_dump(fixture("format1-match.h5")), "format1_match_schema.txt");
}

// The reader turns setup into opening and die into chance; each game's record (written by
// format-1 code from its plies) must equal the plies' text, chance first.
TEST(H5Format1, ReaderPresentsFormat1RowsAsFormat2Rows) {
  const CampaignReader reader(fixture("format1-campaign.h5"));
  EXPECT_EQ(reader.format_version(), 1u);
  EXPECT_EQ(reader.meta().game, "ewn");
  EXPECT_EQ(reader.meta().rules, "capture_own=true substitution=next_lower_or_higher");
  EXPECT_EQ(reader.meta().seed, 777u);
  const std::vector<GameRow> games = reader.games();
  ASSERT_EQ(games.size(), 3u);
  // Rows in the order the games ended: 2, 0, 1.
  const GameRow& game0 = games[1];
  ASSERT_EQ(game0.game_id, 0u);
  EXPECT_EQ(text_of(game0.opening), "216435/162453");
  EXPECT_EQ(game0.first_player, 0);
  EXPECT_EQ(game0.winner, 1);
  EXPECT_EQ(game0.plies, 18);
  const std::vector<PlyRow> plies = reader.plies();
  ASSERT_EQ(plies.size(), 55u);
  std::map<uint64_t, std::string> records;
  for (const PlyRow& p : plies) {
    if (p.game_id == 0 && p.ply == 0) {
      EXPECT_EQ(p.chance, 4);
      EXPECT_EQ(text_of(p.move), "a4-a3");
    }
    EXPECT_TRUE(p.chance >= 1 && p.chance <= 6) << "game " << p.game_id << " ply " << p.ply;
    std::string& r = records[p.game_id];
    r += (r.empty() ? "" : " ") + std::to_string(p.chance) + ":" + std::string(text_of(p.move));
  }
  for (const GameRow& g : games) {
    EXPECT_EQ(text_of(g.record), records[g.game_id]) << "game " << g.game_id;
    EXPECT_EQ(g.record_truncated, 0);
    EXPECT_EQ(text_of(g.opening).size(), 13u);
  }
  EXPECT_EQ(reader.positions_count(), 55u);
  EXPECT_EQ(reader.features().size(), 55u * reader.meta().feature_names.size());
  EXPECT_EQ(expect_consistent(reader, reader.meta().feature_names.size()),
            (std::vector<uint64_t>{2, 0, 1}));
}

TEST(H5Format1, ResumeRefusesAFormat1FileAndLeavesItAlone) {
  TempDir dir;
  const std::string path = dir.file("old.h5");
  fs::copy_file(fixture("format1-campaign.h5"), path);
  const std::string before = read_text(path);
  const FileMeta meta = CampaignReader(path).meta();
  try {
    CampaignWriter::resume(path, meta);
    FAIL() << "no exception";
  } catch (const CampaignError& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot resume '" + path +
                  "': it is a format-1 campaign file, which this build reads but does not "
                  "extend; run `selfplay convert " +
                  path + " NEW` and resume NEW");
  }
  EXPECT_EQ(read_text(path), before);
  EXPECT_FALSE(fs::exists(path + ".resume.tmp"));
  EXPECT_FALSE(fs::exists(path + ".lock"));
}

TEST(H5Format1, ConvertCopiesEveryRowAndAttributeIntoFormat2) {
  TempDir dir;
  for (const char* name : {"format1-campaign.h5", "format1-match.h5"}) {
    SCOPED_TRACE(name);
    const std::string out = dir.file(std::string("new-") + name);
    const ConvertReport report = convert_to_current(fixture(name), out);
    const CampaignReader old(fixture(name));
    const CampaignReader converted(out);
    EXPECT_EQ(converted.format_version(), kCampaignFormatVersion);
    expect_same_contents(old, converted);
    EXPECT_EQ(report.from_version, 1u);
    EXPECT_EQ(report.games, old.games_count());
    EXPECT_EQ(report.plies, old.plies_count());
    EXPECT_EQ(report.positions, old.positions_count());
    EXPECT_EQ(report.perf, old.perf_count());
    EXPECT_EQ(report.match_pairs, old.match_pairs_count());
    EXPECT_FALSE(fs::exists(out + ".convert.tmp"));
    EXPECT_FALSE(fs::exists(out + ".lock"));
  }
  EXPECT_TRUE(CampaignReader(dir.file("new-format1-match.h5")).meta().match.has_value());
  EXPECT_EQ(CampaignReader(dir.file("new-format1-match.h5")).match_pairs_count(), 1u);
  // Exactly the layout a format-2 writer makes (the row counts are the fixture's).
  expect_golden(schema_dump(dir.file("new-format1-campaign.h5")),
                "format1_campaign_converted_schema.txt");

  // The copy is a campaign like any other: a resume continues it.
  const std::string path = dir.file("new-format1-campaign.h5");
  CampaignWriter writer = CampaignWriter::resume(path, CampaignReader(path).meta());
  EXPECT_EQ(writer.resume_report().completed_games, (std::set<uint64_t>{0, 1, 2}));
  writer.close();
}

TEST(H5Format1, ConvertRefusesWhatItCannotCopyWholeAndWritesNothing) {
  TempDir dir;
  const std::string out = dir.file("out.h5");
  const auto refused = [&](const std::string& from) -> std::string {
    try {
      convert_to_current(from, out);
    } catch (const CampaignError& e) {
      EXPECT_FALSE(fs::exists(out)) << from;
      EXPECT_FALSE(fs::exists(out + ".convert.tmp")) << from;
      return e.what();
    }
    ADD_FAILURE() << from << ": converted";
    return {};
  };
  // An attribute or object format 1 does not define would be lost: refused.
  const std::string noted = dir.file("noted.h5");
  fs::copy_file(fixture("format1-campaign.h5"), noted);
  {
    const File file(H5Fopen(noted.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    ASSERT_TRUE(file);
    write_attribute(open_dataset(file.get(), "plies").get(), "note", std::string_view("by hand"));
  }
  EXPECT_EQ(refused(noted), "cannot convert '" + noted +
                                "': /plies has the attribute note, which format 1 does not define "
                                "and convert would not copy: remove it, convert, and add it to "
                                "the new file by hand");
  const std::string extra = dir.file("extra.h5");
  fs::copy_file(fixture("format1-campaign.h5"), extra);
  {
    const File file(H5Fopen(extra.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    ASSERT_TRUE(file);
    create_group(file.get(), "analysis");
  }
  EXPECT_EQ(refused(extra).rfind("cannot convert '" + extra + "': it holds /analysis, which", 0),
            0u);
  // A format-2 file has nothing to convert; an unknown version is not read at all.
  const std::string current = dir.file("current.h5");
  convert_to_current(fixture("format1-campaign.h5"), current);
  EXPECT_EQ(refused(current), "'" + current + "' is already campaign format 3: nothing to convert");
  const std::string future = dir.file("future.h5");
  fs::copy_file(fixture("format1-campaign.h5"), future);
  {
    const File file(H5Fopen(future.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    ASSERT_TRUE(file);
    ASSERT_GE(H5Adelete(file.get(), "format_version"), 0);
    write_attribute(file.get(), "format_version", uint32_t{4});
  }
  EXPECT_EQ(refused(future),
            "'" + future + "' has campaign format_version 4; this build reads 1 to 3");

  // An existing output is never replaced.
  std::ofstream(out) << "precious";
  EXPECT_THROW(convert_to_current(fixture("format1-campaign.h5"), out), H5FileError);
  EXPECT_EQ(read_text(out), "precious");
  EXPECT_FALSE(fs::exists(out + ".convert.tmp"));
}

// A conversion that runs out of space (a file size limit here) fails as a runtime error and
// leaves neither the output nor its temporary file.
TEST(H5Format1, ConvertThatRunsOutOfSpaceLeavesNothing) {
  TempDir dir;
  const std::string out = dir.file("out.h5");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int code = 1;
    signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{16 * 1024, 16 * 1024};
    setrlimit(RLIMIT_FSIZE, &limit);
    try {
      convert_to_current(fixture("format1-campaign.h5"), out);
      code = 3;
    } catch (const H5FileError&) {
      code = 4;  // would be bad input (exit 2), but the input is fine
    } catch (const H5Error& e) {
      code = std::string(e.what()).find("; nothing was written") != std::string::npos ? 10 : 5;
    } catch (...) {
      code = 2;
    }
    _exit(code);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "child died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 10);
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out + ".convert.tmp"));
}

// ---- format 2: files written before the search records (tests/data/format2-campaign.h5, made
// by the format-2 code)

// Its plies read with the search not recorded, everything else as it was written.
TEST(H5Format2, ReaderPresentsTheSearchColumnsAsNotRecorded) {
  const CampaignReader reader(fixture("format2-campaign.h5"));
  EXPECT_EQ(reader.format_version(), 2u);
  EXPECT_EQ(reader.games_count(), 3u);
  EXPECT_EQ(reader.candidates_count(), 0u);
  EXPECT_TRUE(reader.candidates().empty());
  const std::vector<PlyRow> plies = reader.plies();
  ASSERT_EQ(plies.size(), 55u);
  int searched = 0;  // plies that were no forced move
  for (const PlyRow& p : plies) {
    searched += p.visits > 0 && p.rollouts > 0;
    EXPECT_FALSE(text_of(p.move).empty());
    EXPECT_EQ(p.search, 0);
    EXPECT_EQ(p.depth, -1);
    EXPECT_EQ(p.score, 0);
    EXPECT_EQ(p.nodes, 0u);
    EXPECT_EQ(p.played, 0u);
    EXPECT_EQ(p.think_ms, 0);
    EXPECT_EQ(text_of(p.pv), "");
  }
  EXPECT_GT(searched, 40) << "the format-2 columns are read";
  EXPECT_EQ(reader.positions_count(), 6u);
}

TEST(H5Format2, ResumeRefusesItAndConvertMakesAFormat3CopyThatResumes) {
  TempDir dir;
  const std::string path = dir.file("old.h5");
  fs::copy_file(fixture("format2-campaign.h5"), path);
  const std::string before = read_text(path);
  try {
    CampaignWriter::resume(path, CampaignReader(path).meta());
    FAIL() << "no exception";
  } catch (const CampaignError& e) {
    EXPECT_NE(std::string(e.what()).find("it is a format-2 campaign file, which this build reads "
                                         "but does not extend; run `selfplay convert"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(read_text(path), before);

  const std::string out = dir.file("new.h5");
  const ConvertReport report = convert_to_current(path, out);
  EXPECT_EQ(report.from_version, 2u);
  EXPECT_EQ(report.plies, 55u);
  EXPECT_EQ(report.candidates, 0u);
  const CampaignReader old(path);
  const CampaignReader converted(out);
  EXPECT_EQ(converted.format_version(), 3u);
  expect_same_contents(old, converted);
  EXPECT_EQ(converted.meta().program, old.meta().program);
  CampaignWriter writer = CampaignWriter::resume(out, converted.meta());
  EXPECT_EQ(writer.resume_report().completed_games, (std::set<uint64_t>{0, 1, 2}));
  writer.close();
}

TEST(H5Campaign, H5pyReadsTheWritersFile) {
  if (!have_h5py()) GTEST_SKIP() << kPython << " has no h5py (apt-get install python3-h5py)";
  TempDir dir;
  const std::string path = dir.file("py.h5");
  {
    CampaignWriter writer = CampaignWriter::create(path, test_meta());
    for (uint64_t id = 0; id < 4; ++id) append(writer, make_game(id));
    writer.append_perf(make_perf(9));
  }
  const auto [status, output] = run_python(dir, R"(
import sys, h5py
f = h5py.File(sys.argv[1], 'r', swmr=True)
a = f.attrs
assert a['format_version'] == 3, a['format_version']
assert a['game'] == b'ewn' and a['seed'] == 7 and a['backend'] == b'cpu', dict(a)
assert a['config'] == b'game:\n  name: ewn\nseed: 7\n'
g = f['games']
assert g.shape == (4,), g.shape
r = g[3]
assert r['game_id'] == 3 and r['seed'] == 7 and r['opening'] == b'123456/654321'
assert r['first_player'] == 1 and r['winner'] == -1 and r['plies'] == 8
assert r['duration_s'] == 3.25 and r['record'].startswith(b'1:b4-c3 2:b4-c3')
assert g[2]['record_truncated'] == 1 and r['record_truncated'] == 0
p = f['plies']
assert p.shape == (5 + 6 + 7 + 8,), p.shape
q = p[1]
assert q['game_id'] == 0 and q['ply'] == 1 and q['player'] == 1 and q['chance'] == 2
assert q['move'] == b'b4-c3' and q['visits'] == 101 and q['root_value'] == -0.375
assert q['rollouts'] == 1000 and q['time_ms'] == 1.5
assert q['search'] == 2 and q['depth'] == 0 and q['score'] == -249.5 and q['nodes'] == 5000
assert q['played'] == 900 and q['think_ms'] == 0.25 and q['pv'] == b'3:b4-c3 5:d2-c1'
c = f['candidates']
assert c.shape == (4 + 6 + 6 + 7,), c.shape  # ply p of each game has p % 3 candidates
assert c[1]['game_id'] == 0 and c[1]['ply'] == 2 and c[1]['rank'] == 0 and c[1]['move'] == b'b4-c3'
assert c[2]['rank'] == 1 and c[2]['move'] == b'a1-b2' and c[2]['visits'] == 49 and c[2]['value'] == 0.625
x = f['positions/features']
assert x.shape == (26, 3) and x.dtype == 'float32', (x.shape, x.dtype)
assert list(x.attrs['feature_names']) == [b'feature_0', b'feature_1', b'feature_2']
assert x[6, 2] == 1012.0 and f['positions/game_id'][6] == 1 and f['positions/ply'][6] == 1
assert f['positions/side_to_move'][6] == 1 and f['positions/result'][6] == -1.0
perf = f['perf'][0]
assert perf['batch'] == 9 and perf['leaves'] == 73 and perf['backend_ms'] == 3.5
print('ok')
)",
                                           path);
  EXPECT_EQ(status, 0) << output;
  EXPECT_EQ(output, "ok\n");
}

// Counts the complete games an h5py SWMR reader sees; refreshes /games before /plies, the order
// that makes the "a /games row means a complete game" promise hold for a reader too.
constexpr const char* kSwmrCount = R"(
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], 'r', swmr=True)
g, p = f['games'], f['plies']
g.refresh(); p.refresh()
ids = g['game_id']
print(int((ids != np.iinfo(np.uint64).max).sum()))
)";

TEST(H5Campaign, SwmrReaderInAnotherProcessSeesRowsWhileWriterIsOpen) {
  if (!have_h5py()) GTEST_SKIP() << kPython << " has no h5py (apt-get install python3-h5py)";
  TempDir dir;
  const std::string path = dir.file("swmr.h5");
  CampaignWriter writer = CampaignWriter::create(path, test_meta(), {.flush_seconds = 3600});
  for (uint64_t id = 0; id < 3; ++id) append(writer, make_game(id));
  writer.flush();
  EXPECT_EQ(run_python(dir, kSwmrCount, path), std::make_pair(0, std::string("3\n")));
  for (uint64_t id = 3; id < 5; ++id) append(writer, make_game(id));
  writer.flush();
  EXPECT_EQ(run_python(dir, kSwmrCount, path), std::make_pair(0, std::string("5\n")));
  // Until the next flush a game's /games row is held back (flush_seconds is an hour here).
  append(writer, make_game(5));
  EXPECT_EQ(run_python(dir, kSwmrCount, path), std::make_pair(0, std::string("5\n")));
  writer.flush();
  EXPECT_EQ(run_python(dir, kSwmrCount, path), std::make_pair(0, std::string("6\n")));

  // A reader polling while games stream in never sees a /games row without all of its plies.
  constexpr uint64_t kTarget = 300;
  std::pair<int, std::string> poll;
  std::thread reader([&] {
    poll = run_python(dir, R"(
import sys, time, h5py, numpy as np
f = h5py.File(sys.argv[1], 'r', swmr=True)
g, p = f['games'], f['plies']
none = np.iinfo(np.uint64).max
deadline = time.time() + 300
while True:
    g.refresh(); p.refresh()
    rows = g[...]
    ids, counts = np.unique(p['game_id'], return_counts=True)
    have = dict(zip(ids.tolist(), counts.tolist()))
    done = 0
    for r in rows:
        if r['game_id'] == none: continue
        done += 1
        if have.get(int(r['game_id']), 0) != r['plies']:
            print('game', r['game_id'], 'has', have.get(int(r['game_id']), 0), 'of', r['plies'])
            sys.exit(3)
    if done >= int(sys.argv[2]): break
    if time.time() > deadline: sys.exit(4)
print('ok')
)",
                      path + " " + std::to_string(kTarget));
  });
  for (uint64_t id = 6; id < kTarget; ++id) {
    append(writer, make_game(id));
    if (id % 10 == 0) writer.flush();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  writer.flush();
  reader.join();
  EXPECT_EQ(poll, std::make_pair(0, std::string("ok\n")));
  writer.close();
}

// The child appends games forever, reporting each flushed count on a pipe, until it is killed.
[[noreturn]] void append_until_killed(const std::string& path, int report_fd) {
  try {
    CampaignWriter writer = CampaignWriter::create(path, test_meta(), {.flush_seconds = 0.002});
    for (uint64_t id = 0;; ++id) {
      append(writer, make_game(id));
      if (id % 10 == 9) {
        writer.flush();
        const uint64_t done = id + 1;
        if (write(report_fd, &done, sizeof done) != sizeof done) _exit(2);
      }
    }
  } catch (...) {
    _exit(1);
  }
}

// Kills a writer `delay_ms` after its 50th flushed game, then checks the file and resumes it.
void crash_and_resume(int delay_ms) {
  TempDir dir;
  const std::string path = dir.file("crash.h5");
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(fds[0]);
    append_until_killed(path, fds[1]);
  }
  close(fds[1]);
  struct Reaper {  // kills the child on every way out of this scope
    pid_t pid;
    int status = 0;
    ~Reaper() { kill_and_wait(); }
    void kill_and_wait() {
      if (pid <= 0) return;
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      pid = 0;
    }
  } reaper{child};
  uint64_t flushed = 0;
  while (flushed < 50) ASSERT_EQ(read(fds[0], &flushed, sizeof flushed), ssize_t{sizeof flushed});
  std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
  reaper.kill_and_wait();  // mid-run: the child is busy appending the next games
  close(fds[0]);
  ASSERT_TRUE(WIFSIGNALED(reaper.status) && WTERMSIG(reaper.status) == SIGKILL)
      << "child exited first";

  // A plain read-only open is refused: the superblock still says a writer holds the file. Either
  // open it in SWMR read mode, as CampaignReader does, or clear the flags with `h5clear -s`.
  EXPECT_THROW(open_file(path, OpenMode::kRead), H5Error);
  if (std::system("command -v h5clear >/dev/null 2>&1") == 0) {
    const std::string copy = dir.file("cleared.h5");
    fs::copy_file(path, copy);
    ASSERT_EQ(std::system(("h5clear -s " + copy).c_str()), 0);
    EXPECT_NO_THROW(open_file(copy, OpenMode::kRead));
  }

  std::set<uint64_t> complete;
  uint64_t orphan_plies = 0, orphan_candidates = 0;
  {
    const CampaignReader crashed(path);
    EXPECT_GE(crashed.games_count(), flushed);
    std::map<uint64_t, uint16_t> plies_of;
    for (const GameRow& g : crashed.games()) {
      if (g.game_id == kNoGame) continue;  // sized but never written
      EXPECT_EQ(g, make_game(g.game_id).game);
      plies_of[g.game_id] = g.plies;
      complete.insert(g.game_id);
    }
    std::map<uint64_t, size_t> ply_rows;
    for (const PlyRow& p : crashed.plies()) {
      if (complete.contains(p.game_id)) {
        ++ply_rows[p.game_id];
      } else {
        ++orphan_plies;
      }
    }
    for (const auto& [id, plies] : plies_of) EXPECT_EQ(ply_rows[id], plies) << "game " << id;
    for (const CandidateRow& c : crashed.candidates())
      orphan_candidates += !complete.contains(c.game_id);
  }
  for (uint64_t id = 0; id < flushed; ++id) EXPECT_TRUE(complete.contains(id)) << id;

  CampaignWriter writer = CampaignWriter::resume(path, test_meta());
  EXPECT_EQ(writer.resume_report().completed_games, complete);
  EXPECT_EQ(writer.resume_report().dropped_plies, orphan_plies);
  EXPECT_EQ(writer.resume_report().dropped_candidates, orphan_candidates);
  EXPECT_FALSE(fs::exists(path + ".resume.tmp"));
  // Continue where the crash left off: the unfinished games are played again under their ids.
  const uint64_t next = *complete.rbegin() + 1;
  for (uint64_t id = next; id < next + 5; ++id) append(writer, make_game(id));
  writer.close();

  const CampaignReader resumed(path);
  const std::vector<uint64_t> ids = expect_consistent(resumed);
  std::set<uint64_t> expected = complete;
  for (uint64_t id = next; id < next + 5; ++id) expected.insert(id);
  EXPECT_EQ(std::set<uint64_t>(ids.begin(), ids.end()), expected);
  EXPECT_EQ(ids.size(), expected.size());
  EXPECT_EQ(resumed.plies().size(), resumed.positions().size());
  for (const CandidateRow& c : resumed.candidates())
    EXPECT_TRUE(expected.contains(c.game_id)) << "a candidate of game " << c.game_id;
}

TEST(H5Campaign, SurvivesSigkillAndResumeKeepsExactlyTheCompleteGames) {
  for (const int delay_ms : {0, 3, 20}) {
    SCOPED_TRACE("killed " + std::to_string(delay_ms) + " ms after a flush");
    crash_and_resume(delay_ms);
    if (HasFatalFailure()) return;
  }
}

TEST(H5Campaign, CloseThenResumeRoundTrip) {
  TempDir dir;
  const std::string path = dir.file("round.h5");
  {
    CampaignWriter writer = CampaignWriter::create(path, test_meta());
    for (uint64_t id = 0; id < 3; ++id) append(writer, make_game(id));
    writer.append_perf(make_perf(1));
  }
  FileMeta later = test_meta();
  later.start_time = "2024-01-02T00:00:00Z";
  {
    CampaignWriter writer = CampaignWriter::resume(path, later);
    EXPECT_EQ(writer.resume_report().completed_games, (std::set<uint64_t>{0, 1, 2}));
    EXPECT_EQ(writer.resume_report().dropped_plies, 0u);
    EXPECT_EQ(writer.resume_report().dropped_positions, 0u);
    EXPECT_EQ(writer.resume_report().dropped_rows, 0u);
    for (uint64_t id = 3; id < 5; ++id) append(writer, make_game(id));
    writer.append_perf(make_perf(2));
  }
  const CampaignReader reader(path);
  expect_meta(reader.meta(), later);
  EXPECT_EQ(expect_consistent(reader), (std::vector<uint64_t>{0, 1, 2, 3, 4}));
  for (uint64_t id = 0; id < 5; ++id) EXPECT_EQ(reader.games()[id], make_game(id).game);
  std::vector<CandidateRow> candidates;
  std::vector<PlyRow> plies;
  for (uint64_t id = 0; id < 5; ++id) {
    const Game g = make_game(id);
    candidates.insert(candidates.end(), g.candidates.begin(), g.candidates.end());
    plies.insert(plies.end(), g.plies.begin(), g.plies.end());
  }
  EXPECT_EQ(reader.candidates(), candidates) << "the resume copies the search records";
  EXPECT_EQ(reader.plies(), plies);
  EXPECT_EQ(reader.perf(), (std::vector<PerfRow>{make_perf(1), make_perf(2)}));
  std::vector<float> features;
  for (uint64_t id = 0; id < 5; ++id) {
    const auto f = make_game(id).features;
    features.insert(features.end(), f.begin(), f.end());
  }
  EXPECT_EQ(reader.features(), features);
}

// What a crash can leave, made on purpose: plies and positions of a game without a /games row,
// and /games and /perf rows that were sized but never written.
TEST(H5Campaign, ResumeDropsOrphanAndUnwrittenRows) {
  TempDir dir;
  const std::string path = dir.file("orphans.h5");
  {
    CampaignWriter writer = CampaignWriter::create(path, test_meta());
    for (uint64_t id = 0; id < 3; ++id) append(writer, make_game(id));
    writer.append_perf(make_perf(0));
  }
  constexpr uint64_t kOrphan = 9;
  constexpr hsize_t kRows = 5;  // game 0's plies, relabelled
  {
    const File file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    ASSERT_TRUE(file);
    for (const char* name : {"games", "perf"}) {
      const Dataset table = open_dataset(file.get(), name);
      const hsize_t n = rows(table.get()) + 1;
      ASSERT_GE(H5Dset_extent(table.get(), &n), 0);
    }
    const Dataset plies = open_dataset(file.get(), "plies");
    const Datatype packed(H5Dget_type(plies.get()));
    const size_t width = H5Tget_size(packed.get());
    const size_t at = H5Tget_member_offset(packed.get(), 0);
    ASSERT_EQ(describe_type(packed.get()).rfind("compound{game_id: uint64", 0), 0u);
    std::vector<unsigned char> bytes(kRows * width);
    read_rows(plies.get(), packed.get(), 0, kRows, bytes.data());
    for (hsize_t i = 0; i < kRows; ++i) std::memcpy(&bytes[i * width + at], &kOrphan, 8);
    append_rows(plies.get(), packed.get(), bytes.data(), kRows);

    const Group positions = open_group(file.get(), "positions");
    const std::vector<uint64_t> ids(kRows, kOrphan);
    const std::vector<uint16_t> ply(kRows, 1);
    const std::vector<uint8_t> side(kRows, 1);
    const std::vector<float> values(kRows * 3, 0.5f);
    append_rows(open_dataset(positions.get(), "game_id").get(), H5T_NATIVE_UINT64, ids.data(),
                kRows);
    append_rows(open_dataset(positions.get(), "ply").get(), H5T_NATIVE_UINT16, ply.data(), kRows);
    append_rows(open_dataset(positions.get(), "side_to_move").get(), H5T_NATIVE_UINT8, side.data(),
                kRows);
    append_rows(open_dataset(positions.get(), "result").get(), H5T_NATIVE_FLOAT, values.data(),
                kRows);
    append_rows(open_dataset(positions.get(), "features").get(), H5T_NATIVE_FLOAT, values.data(),
                kRows);
  }
  {
    const CampaignReader damaged(path);
    ASSERT_EQ(damaged.games_count(), 4u);
    EXPECT_EQ(damaged.games()[3].game_id, kNoGame) << "unwritten rows must read as kNoGame";
    EXPECT_EQ(damaged.perf()[1].batch, kNoGame);
    EXPECT_EQ(damaged.plies().back().game_id, kOrphan);
  }
  CampaignWriter writer = CampaignWriter::resume(path, test_meta());
  const ResumeReport& report = writer.resume_report();
  EXPECT_EQ(report.completed_games, (std::set<uint64_t>{0, 1, 2}));
  EXPECT_EQ(report.dropped_plies, kRows);
  EXPECT_EQ(report.dropped_positions, kRows);
  EXPECT_EQ(report.dropped_rows, 2u);
  append(writer, make_game(kOrphan));  // played again from the start
  writer.close();
  const CampaignReader reader(path);
  EXPECT_EQ(expect_consistent(reader), (std::vector<uint64_t>{0, 1, 2, kOrphan}));
  EXPECT_EQ(reader.plies().back(), make_game(kOrphan).plies.back());
  EXPECT_EQ(reader.perf(), std::vector<PerfRow>{make_perf(0)});
}

TEST(H5Campaign, ResumeRefusesAnotherCampaignAndLeavesTheFileAlone) {
  TempDir dir;
  const std::string path = dir.file("other.h5");
  {
    CampaignWriter writer = CampaignWriter::create(path, test_meta());
    append(writer, make_game(0));
  }
  const std::string before = read_text(path);
  FileMeta other_seed = test_meta();
  other_seed.seed = 8;
  EXPECT_THROW(CampaignWriter::resume(path, other_seed), CampaignError);
  FileMeta other_features = test_meta();
  other_features.feature_names[1] = "another_feature";
  EXPECT_THROW(CampaignWriter::resume(path, other_features), CampaignError);
  EXPECT_THROW(CampaignWriter::resume(path, test_meta(2)), CampaignError) << "fewer features";
  EXPECT_EQ(read_text(path), before);
  EXPECT_FALSE(fs::exists(path + ".resume.tmp"));
}

// A build whose game has appended features (names are only ever appended) resumes a file written
// before: the file keeps its own features, and the rows the run gives are cut to that width.
TEST(H5Campaign, ResumeWithAppendedFeaturesKeepsTheFilesWidth) {
  TempDir dir;
  const std::string path = dir.file("narrow.h5");
  {
    CampaignWriter writer = CampaignWriter::create(path, test_meta(3));
    append(writer, make_game(0));
  }
  {
    CampaignWriter writer = CampaignWriter::resume(path, test_meta(5));
    EXPECT_EQ(writer.feature_count(), 3u);
    append(writer, make_game(1, 5));
  }
  CampaignReader reader(path);
  EXPECT_EQ(reader.meta().feature_names, test_meta(3).feature_names);
  std::vector<float> want = make_game(0, 3).features;
  const std::vector<float> narrow = make_game(1, 3).features;
  want.insert(want.end(), narrow.begin(), narrow.end());
  EXPECT_EQ(reader.features(), want);
}

TEST(H5Campaign, CreateRefusesAnExistingFileUnlessOverwriting) {
  TempDir dir;
  const std::string path = dir.file("exists.h5");
  std::ofstream(path) << "precious";
  EXPECT_THROW(CampaignWriter::create(path, test_meta()), H5Error);
  EXPECT_EQ(read_text(path), "precious");
  CampaignWriter writer = CampaignWriter::create(path, test_meta(), {.overwrite = true});
  writer.close();
  EXPECT_EQ(CampaignReader(path).games_count(), 0u);
}

TEST(H5Campaign, UnwritablePathThrowsWithThePath) {
  const std::string path = "/nonexistent-dir-sp/campaign.h5";
  try {
    CampaignWriter::create(path, test_meta());
    FAIL() << "no exception";
  } catch (const H5Error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(H5Campaign, ReadingSomethingElseIsAnError) {
  TempDir dir;
  const std::string text = dir.file("not.h5");
  std::ofstream(text) << "just some text, not HDF5\n";
  try {
    CampaignReader reader(text);
    FAIL() << "no exception";
  } catch (const H5Error& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
  EXPECT_THROW(schema_dump(text), H5Error);
  EXPECT_THROW(CampaignWriter::resume(text, test_meta()), H5Error);
  EXPECT_THROW(CampaignReader(dir.file("missing.h5")), H5Error);

  const std::string plain = dir.file("plain.h5");
  create_file(plain, true).close(plain);
  EXPECT_THROW(CampaignReader reader(plain), CampaignError);
}

TEST(H5Campaign, AppendChecksItsArguments) {
  TempDir dir;
  CampaignWriter writer = CampaignWriter::create(dir.file("args.h5"), test_meta());
  Game g = make_game(1);
  EXPECT_THROW(writer.append_game(g.game, g.plies, g.positions, {1.0f}), std::invalid_argument);
  g.plies[0].game_id = 2;
  EXPECT_THROW(append(writer, g), std::invalid_argument);
  g = make_game(1);
  g.game.game_id = kNoGame;
  EXPECT_THROW(append(writer, g), std::invalid_argument);
  writer.close();
  EXPECT_THROW(append(writer, make_game(1)), std::logic_error);
}

// The child writes until the file size limit makes HDF5 fail on the writer thread; the error
// must come back from append_game or flush as an H5Error, and the destructor must not throw.
TEST(H5Campaign, WriterThreadErrorIsRethrownToTheCaller) {
  TempDir dir;
  const std::string path = dir.file("full.h5");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int code = 1;
    signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{256 * 1024, 256 * 1024};
    setrlimit(RLIMIT_FSIZE, &limit);
    try {
      CampaignWriter writer = CampaignWriter::create(path, test_meta(64), {.flush_seconds = 0.001});
      uint32_t noise = 12345;
      for (uint64_t id = 0; id < 100000 && code == 1; ++id) {
        Game g = make_game(id, 64);
        for (float& f : g.features) {  // incompressible, so the file grows
          noise = noise * 1664525u + 1013904223u;
          f = static_cast<float>(noise >> 8);
        }
        try {
          append(writer, g);
          if (id % 8 == 0) writer.flush();
        } catch (const H5Error&) {
          code = 10;
        }
      }
    } catch (...) {
      code = 2;
    }
    _exit(code);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "child died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 10);
}

}  // namespace
}  // namespace sp::io
