// The index over the part files of one campaign (host/base/hdf5/campaign_index.hpp) and `selfplay
// merge`: a campaign played by the CLI is split by game id into part files; the index of the parts
// reads, through CampaignReader, as the parts' rows end to end (games, plies, positions and
// features, perf, match pairs), verifies and exports like the original, and merges into a
// standalone file of the same rows (tune fits the same weights on both). Parts with fill rows and
// /positions columns of unequal lengths read as the reader reads each part. The index reads from
// another working directory and after its folder moved; h5py and the notebooks' loader read it.
// Parts of another campaign, overlapping game ids and missing parts are refused without leaving a
// file, an index is never half-written, never replaces a campaign file, and is never resumed.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/campaign_index.hpp"
#include "host/base/hdf5/h5.hpp"
#include "host/base/hdf5/records.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

namespace fs = std::filesystem;

const char* kCampaign = R"(
game: ewn
rules: {first_player: alternate, setup: random, substitution: nearest}
campaign: {games: 8, concurrency: 4, seed: 23}
engines:
  player0: {type: mcts, rollouts_per_move: 32, rollouts_per_leaf: 4, leaves_per_round: 4}
  player1: {type: random}
backend: {name: cpu, threads: 1, batch_rollouts: 512}
output: {path: unused.h5, positions_per_game: 3, flush_seconds: 0.05}
)";

const char* kMatch = R"(
campaign: {concurrency: 4, seed: 11}
engines:
  player0: {type: mcts, rollouts_per_move: 16, rollouts_per_leaf: 4}
  player1: {type: random}
backend: {name: cpu, threads: 1}
output: {path: unused.h5, positions_per_game: 0, flush_seconds: 0.05}
match: {pairs: 4}
)";

// Everything a reader sees in a campaign file or index.
struct Contents {
  io::FileMeta meta;
  std::vector<io::GameRow> games;
  std::vector<io::PlyRow> plies;
  std::vector<io::PositionRow> positions;
  std::vector<float> features;
  std::vector<io::PerfRow> perf;
  std::vector<io::MatchPairRow> pairs;
  std::vector<io::CandidateRow> candidates;
};

Contents read_all(const std::string& path) {
  const io::CampaignReader r(path);
  return {r.meta(),     r.games(), r.plies(),       r.positions(),
          r.features(), r.perf(),  r.match_pairs(), r.candidates()};
}

// The contents of the parts, laid end to end.
Contents concatenation(const std::vector<std::string>& parts) {
  Contents all = read_all(parts.front());
  for (size_t i = 1; i < parts.size(); ++i) {
    const Contents c = read_all(parts[i]);
    all.games.insert(all.games.end(), c.games.begin(), c.games.end());
    all.plies.insert(all.plies.end(), c.plies.begin(), c.plies.end());
    all.positions.insert(all.positions.end(), c.positions.begin(), c.positions.end());
    all.features.insert(all.features.end(), c.features.begin(), c.features.end());
    all.perf.insert(all.perf.end(), c.perf.begin(), c.perf.end());
    all.pairs.insert(all.pairs.end(), c.pairs.begin(), c.pairs.end());
    all.candidates.insert(all.candidates.end(), c.candidates.begin(), c.candidates.end());
  }
  return all;
}

// Row by row, every field (feature values: NaN, a fill value, equals NaN).
template <class Row>
void expect_rows(const std::vector<Row>& got, const std::vector<Row>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if constexpr (std::is_same_v<Row, float>) {
      EXPECT_TRUE(got[i] == want[i] || (std::isnan(got[i]) && std::isnan(want[i])))
          << what << " value " << i;
    } else {
      EXPECT_TRUE(got[i] == want[i]) << what << " row " << i;
    }
  }
}

void expect_same(const Contents& got, const Contents& want) {
  EXPECT_EQ(got.meta.config_text, want.meta.config_text);
  EXPECT_EQ(got.meta.seed, want.meta.seed);
  EXPECT_EQ(got.meta.identity, want.meta.identity);
  EXPECT_EQ(got.meta.feature_names, want.meta.feature_names);
  EXPECT_EQ(got.meta.match.has_value(), want.meta.match.has_value());
  expect_rows(got.games, want.games, "/games");
  expect_rows(got.plies, want.plies, "/plies");
  expect_rows(got.positions, want.positions, "/positions");
  expect_rows(got.features, want.features, "/positions/features");
  expect_rows(got.perf, want.perf, "/perf");
  expect_rows(got.pairs, want.pairs, "/match/pairs");
  expect_rows(got.candidates, want.candidates, "/candidates");
}

// Writes the games of `c` whose id `keep` accepts, with their plies and positions, the perf rows
// [perf_first, perf_end) and the match pairs whose games are both kept, as a new campaign file.
void write_part(const Contents& c, const std::string& path,
                const std::function<bool(uint64_t)>& keep, size_t perf_first, size_t perf_end) {
  io::CampaignWriter writer = io::CampaignWriter::create(path, c.meta, {.flush_seconds = 0});
  const size_t width = c.meta.feature_names.size();
  for (const io::GameRow& g : c.games) {
    if (!keep(g.game_id)) continue;
    std::vector<io::PlyRow> plies;
    for (const auto& p : c.plies)
      if (p.game_id == g.game_id) plies.push_back(p);
    std::vector<io::CandidateRow> candidates;
    for (const auto& row : c.candidates)
      if (row.game_id == g.game_id) candidates.push_back(row);
    std::vector<io::PositionRow> positions;
    std::vector<float> features;
    for (size_t i = 0; i < c.positions.size(); ++i) {
      if (c.positions[i].game_id != g.game_id) continue;
      positions.push_back(c.positions[i]);
      features.insert(features.end(), c.features.begin() + i * width,
                      c.features.begin() + (i + 1) * width);
    }
    writer.append_game(g, std::move(plies), std::move(positions), std::move(features),
                       std::move(candidates));
  }
  for (size_t i = perf_first; i < perf_end && i < c.perf.size(); ++i) writer.append_perf(c.perf[i]);
  for (const io::MatchPairRow& pair : c.pairs)
    if (keep(2 * pair.pair_id) && keep(2 * pair.pair_id + 1)) writer.append_match_pair(pair);
  writer.close();
}

// A small synthetic part: games `ids`, two plies and two positions each (with two features, or
// none when `meta` names none), one perf row; `meta` as given.
void write_synthetic(const std::string& path, const io::FileMeta& meta,
                     const std::vector<uint64_t>& ids) {
  io::CampaignWriter writer = io::CampaignWriter::create(path, meta, {.flush_seconds = 0});
  for (const uint64_t id : ids) {
    io::GameRow g;
    g.game_id = id;
    g.seed = id * 7;
    g.plies = 2;
    g.winner = static_cast<int8_t>(id % 2);
    std::vector<io::PlyRow> plies(2);
    std::vector<io::PositionRow> positions(2);
    std::vector<float> features;
    for (uint16_t k = 0; k < 2; ++k) {
      plies[k].game_id = id;
      plies[k].ply = k;
      plies[k].visits = static_cast<uint32_t>(100 * id + k);
      positions[k] = {id, k, static_cast<uint8_t>(k), 0.5f};
      if (meta.feature_names.empty()) continue;
      features.push_back(static_cast<float>(id) + 0.25f * k);
      features.push_back(-static_cast<float>(id));
    }
    writer.append_game(g, std::move(plies), std::move(positions), std::move(features));
  }
  io::PerfRow perf;
  perf.batch = ids.empty() ? 0 : ids.front();
  perf.rollouts = 1000 + perf.batch;
  writer.append_perf(perf);
  writer.close();
}

io::FileMeta synthetic_meta() {
  io::FileMeta meta;
  meta.game = "ewn";
  meta.rules = "capture_own=true substitution=nearest";
  meta.config_text = "campaign: {seed: 5}";
  meta.seed = 5;
  meta.identity = "weights: none";
  meta.feature_names = {"a", "b"};
  meta.host = "rank0";
  return meta;
}

// Grows dataset `name` of the closed file `path` by `rows` rows that are never written: what a
// killed writer can leave (fill rows; /positions columns of unequal lengths).
void grow_unwritten(const std::string& path, const std::string& name, hsize_t rows) {
  io::init_thread();
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0) << path;
  const hid_t dataset = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
  ASSERT_GE(dataset, 0) << name;
  std::vector<hsize_t> extent = io::dims(dataset);
  extent[0] += rows;
  EXPECT_GE(H5Dset_extent(dataset, extent.data()), 0);
  H5Dclose(dataset);
  EXPECT_GE(H5Fclose(file), 0);
}

bool is_virtual(const std::string& path, const std::string& dataset) {
  const io::File file = io::open_for_reading(path);
  const io::Dataset d = io::open_dataset(file.get(), dataset);
  const io::PropList dcpl(H5Dget_create_plist(d.get()));
  return H5Pget_layout(dcpl.get()) == H5D_VIRTUAL;
}

std::vector<std::string> stored_parts(const std::string& index) {
  const io::File file = io::open_for_reading(index);
  return io::read_string_list_attribute(file.get(), io::kIndexPartsAttribute);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Runs `f` with the working directory `dir`, then goes back.
template <class F>
void in_directory(const fs::path& dir, F&& f) {
  const fs::path before = fs::current_path();
  fs::current_path(dir);
  try {
    f();
  } catch (...) {
    fs::current_path(before);
    throw;
  }
  fs::current_path(before);
}

class CampaignIndex : public ::testing::Test {
 protected:
  test::CommandResult selfplay(const std::string& args) {
    return test::run_command(std::string("'") + SELFPLAY_BINARY + "' " + args + " 2>'" +
                             tmp_.file("stderr") + "'");
  }
  std::string stderr_text() const { return test::read_text(tmp_.file("stderr")); }

  // A campaign (or match) played by the CLI, and three parts of it made by game id (ids 0-2,
  // 3-4, 5 and up; a match's 0-3, 4-5, 6 and up), with its perf rows shared out; `folder`
  // (made) holds the parts.
  std::vector<std::string> played_parts(const std::string& folder, bool match = false) {
    // A match's pairs (games 2p and 2p + 1) stay whole in one part.
    const uint64_t cut1 = match ? 4 : 3;
    const uint64_t cut2 = match ? 6 : 5;
    fs::create_directories(tmp_.path() / folder);
    tmp_.write("play.yaml", match ? kMatch : kCampaign);
    original_ = tmp_.file("original.h5");
    const auto r = selfplay(std::string(match ? "match" : "run") + " '" + tmp_.file("play.yaml") +
                            "' --out '" + original_ + "' --quiet");
    EXPECT_EQ(r.code, 0) << stderr_text();
    const Contents c = read_all(original_);
    EXPECT_GE(c.games.size(), 6u);
    const size_t third = c.perf.size() / 3;
    std::vector<std::string> parts;
    const std::vector<std::pair<uint64_t, uint64_t>> ids = {
        {0, cut1}, {cut1, cut2}, {cut2, ~uint64_t{0}}};
    for (size_t i = 0; i < ids.size(); ++i) {
      parts.push_back(tmp_.file(folder + "/part" + std::to_string(i) + ".h5"));
      const auto [low, high] = ids[i];
      write_part(
          c, parts.back(), [low, high](uint64_t id) { return id >= low && id < high; }, i * third,
          i == 2 ? c.perf.size() : (i + 1) * third);
    }
    return parts;
  }

  test::TempDir tmp_;
  std::string original_;
};

TEST_F(CampaignIndex, ReadsAsThePartsEndToEndAndMergesIntoTheSameRows) {
  const std::vector<std::string> parts = played_parts("run");
  // The parts in an order of their own: the index keeps the order given.
  const std::vector<std::string> order = {parts[1], parts[0], parts[2]};
  const std::string index = tmp_.file("run/campaign.h5");
  io::write_campaign_index(index, order);

  const Contents want = concatenation(order);
  ASSERT_FALSE(want.positions.empty());
  ASSERT_FALSE(want.perf.empty());
  ASSERT_FALSE(want.candidates.empty());
  const Contents got = read_all(index);
  expect_same(got, want);
  EXPECT_EQ(got.meta.host, want.meta.host);
  EXPECT_EQ(io::CampaignReader(index).index_parts().size(), 3u);
  EXPECT_TRUE(is_virtual(index, "/positions/features"));
  // Beside the index, the parts are named relative to its folder.
  EXPECT_EQ(stored_parts(index), (std::vector<std::string>{"part1.h5", "part0.h5", "part2.h5"}));
  EXPECT_FALSE(fs::exists(index + ".index.tmp"));
  EXPECT_FALSE(fs::exists(index + ".lock"));

  // The standalone copy: the same rows, plain datasets, not an index.
  const std::string merged = tmp_.file("merged.h5");
  const auto m = selfplay("merge '" + index + "' -o '" + merged + "'");
  ASSERT_EQ(m.code, 0) << stderr_text();
  EXPECT_NE(m.out.find(std::to_string(want.games.size()) + " /games rows"), std::string::npos)
      << m.out;
  expect_same(read_all(merged), want);
  EXPECT_FALSE(is_virtual(merged, "/positions/features"));
  EXPECT_TRUE(io::CampaignReader(merged).index_parts().empty());
  EXPECT_FALSE(io::has_attribute(io::open_for_reading(merged).get(), io::kIndexPartsAttribute));

  // Verify replays every game through the index; export gives the original's text.
  const auto verified = selfplay("verify '" + index + "'");
  EXPECT_EQ(verified.code, 0) << verified.out << stderr_text();
  const auto exported = selfplay("export '" + index + "'");
  ASSERT_EQ(exported.code, 0) << stderr_text();
  EXPECT_EQ(exported.out, selfplay("export '" + original_ + "'").out);
  EXPECT_EQ(selfplay("export '" + merged + "'").out, exported.out);

  // tune reads the positions through the index as through the merged copy: the same weights.
  std::vector<std::string> tuned;
  for (const std::string& input : {index, merged}) {
    const std::string n = std::to_string(tuned.size());
    tmp_.write(
        "tune" + n + ".yaml",
        "data: {inputs: ['" + input + "'], validation_fraction: 0.25}\n" + "weights: {initial: '" +
            test::source_path("configs/ewn/weights/survival-distance.yaml") + "', output: '" +
            tmp_.file("tuned" + n + ".yaml") + "'}\n" + "texel: {epochs: 20, report_every: 10}\n");
    const auto t = selfplay("tune '" + tmp_.file("tune" + n + ".yaml") + "'");
    ASSERT_EQ(t.code, 0) << t.out << stderr_text();
    std::string weights;  // the YAML without its comments, which name the inputs
    for (const std::string& line : lines_of(test::read_text(tmp_.file("tuned" + n + ".yaml"))))
      if (!line.starts_with("#")) weights += line + "\n";
    tuned.push_back(weights);
  }
  EXPECT_GT(tuned[0].size(), 20u) << tuned[0];
  EXPECT_EQ(tuned[0], tuned[1]);

  // merge writes a new file only, and refuses input that is not there.
  EXPECT_EQ(selfplay("merge '" + index + "' -o '" + merged + "'").code, 2);
  EXPECT_NE(stderr_text().find("exists"), std::string::npos) << stderr_text();
  EXPECT_EQ(selfplay("merge '" + tmp_.file("none.h5") + "' -o '" + tmp_.file("x.h5") + "'").code,
            2);
  EXPECT_FALSE(fs::exists(tmp_.file("x.h5")));
}

TEST_F(CampaignIndex, MatchPairsFollowThePartsAndTheMatchVerifies) {
  const std::vector<std::string> parts = played_parts("match", true);
  const std::string index = tmp_.file("match/match.h5");
  io::write_campaign_index(index, parts);
  const Contents want = concatenation(parts);
  ASSERT_GE(want.pairs.size(), 3u);
  const Contents got = read_all(index);
  expect_same(got, want);
  ASSERT_TRUE(got.meta.match.has_value());
  EXPECT_EQ(*got.meta.match, *want.meta.match);
  const auto verified = selfplay("verify '" + index + "'");
  EXPECT_EQ(verified.code, 0) << verified.out << stderr_text();
  const std::string merged = tmp_.file("merged.h5");
  io::merge_campaign(index, merged);
  expect_same(read_all(merged), want);
}

// A part a killed writer left (fill rows in /games, /positions columns of unequal lengths) gives
// the index what the reader gives for that part: its fill rows where they are, its positions up
// to its shortest column, and the next part's positions still aligned behind them.
TEST_F(CampaignIndex, FillRowsAndUnequalColumnsReadAsInTheirPart) {
  const std::string a = tmp_.file("a.h5");
  const std::string b = tmp_.file("b.h5");
  write_synthetic(a, synthetic_meta(), {0, 1, 2});
  write_synthetic(b, synthetic_meta(), {3, 4});
  grow_unwritten(a, "/games", 2);
  grow_unwritten(a, "/positions/ply", 3);
  grow_unwritten(a, "/positions/features", 1);
  {
    const io::CampaignReader part(a);
    ASSERT_EQ(part.games_count(), 5u);
    ASSERT_EQ(part.games().back().game_id, io::kNoGame);
    ASSERT_EQ(part.positions_count(), 6u);
  }
  const std::string index = tmp_.file("index.h5");
  io::write_campaign_index(index, {a, b});
  const Contents want = concatenation({a, b});
  const Contents got = read_all(index);
  expect_same(got, want);
  ASSERT_EQ(got.positions.size(), 10u);
  EXPECT_EQ(got.positions[6].game_id, 3u);
  EXPECT_EQ(got.features[6 * 2], 3.0f);
  EXPECT_EQ(io::CampaignReader(index).plies_count(), 10u);

  // A part that lost rows after the index was written (a resume drops unfinished games) makes
  // the index stale: refused naming the part, never read as fill or another game's rows.
  fs::remove(b);
  write_synthetic(b, synthetic_meta(), {3});
  try {
    io::CampaignReader reader(index);
    FAIL() << "read an index whose part lost rows";
  } catch (const io::CampaignError& e) {
    EXPECT_NE(std::string(e.what()).find("'b.h5'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("write the index again"), std::string::npos) << e.what();
  }
  // Written again, it reads the part as it is now.
  io::write_campaign_index(index, {a, b});
  EXPECT_EQ(read_all(index).games.size(), 6u);
}

// Parts without rows (a rank that got no game) and games without features (F = 0) map nothing
// and read as nothing.
TEST_F(CampaignIndex, EmptyPartsAndZeroFeaturesReadAsNothing) {
  io::FileMeta meta = synthetic_meta();
  meta.feature_names.clear();
  const std::string a = tmp_.file("a.h5");
  const std::string empty = tmp_.file("empty.h5");
  const std::string b = tmp_.file("b.h5");
  write_synthetic(a, meta, {0, 1});
  io::CampaignWriter::create(empty, meta).close();
  write_synthetic(b, meta, {2});
  const std::string index = tmp_.file("index.h5");
  io::write_campaign_index(index, {a, empty, b});
  const Contents want = concatenation({a, empty, b});
  const Contents got = read_all(index);
  expect_same(got, want);
  EXPECT_EQ(got.games.size(), 3u);
  EXPECT_EQ(got.positions.size(), 6u);
  EXPECT_TRUE(got.features.empty());
  const std::string merged = tmp_.file("merged.h5");
  io::merge_campaign(index, merged);
  expect_same(read_all(merged), want);
}

// The parts are found beside the index, whatever the working directory holds, after the folder
// of the index and its parts moved.
TEST_F(CampaignIndex, ReadsFromAnotherDirectoryAfterTheFolderMoved) {
  fs::create_directories(tmp_.path() / "run" / "ranks");
  const std::string a = tmp_.file("run/ranks/a.h5");
  const std::string b = tmp_.file("run/b.h5");
  write_synthetic(a, synthetic_meta(), {0, 1});
  write_synthetic(b, synthetic_meta(), {2, 3, 4});
  // Written through a relative path from the parts' folder.
  in_directory(tmp_.path() / "run", [&] {
    io::write_campaign_index("index.h5", {"ranks/a.h5", "b.h5"});
  });
  EXPECT_EQ(stored_parts(tmp_.file("run/index.h5")),
            (std::vector<std::string>{"ranks/a.h5", "b.h5"}));
  const Contents want = concatenation({a, b});

  // Parts outside the index's folder are named by their absolute path.
  fs::create_directories(tmp_.path() / "indexes");
  io::write_campaign_index(tmp_.file("indexes/outside.h5"), {a, b});
  EXPECT_EQ(stored_parts(tmp_.file("indexes/outside.h5")),
            (std::vector<std::string>{fs::absolute(a).string(), fs::absolute(b).string()}));
  expect_same(read_all(tmp_.file("indexes/outside.h5")), want);

  fs::rename(tmp_.path() / "run", tmp_.path() / "moved");
  // A working directory holding other files of the parts' names: HDF5 looks there only when a
  // part is not beside the index.
  fs::create_directories(tmp_.path() / "elsewhere" / "ranks");
  write_synthetic(tmp_.file("elsewhere/ranks/a.h5"), synthetic_meta(), {7});
  write_synthetic(tmp_.file("elsewhere/b.h5"), synthetic_meta(), {8});
  in_directory(tmp_.path() / "elsewhere", [&] {
    expect_same(read_all("../moved/index.h5"), want);
    expect_same(read_all(tmp_.file("moved/index.h5")), want);
  });

  // A part that is not beside the index is an error naming it, not rows of another file.
  fs::remove(tmp_.file("moved/b.h5"));
  in_directory(tmp_.path() / "elsewhere", [&] {
    try {
      io::CampaignReader reader("../moved/index.h5");
      FAIL() << "read an index without its part";
    } catch (const io::CampaignError& e) {
      EXPECT_NE(std::string(e.what()).find("'b.h5'"), std::string::npos) << e.what();
    }
  });
  EXPECT_EQ(selfplay("verify '" + tmp_.file("moved/index.h5") + "'").code, 2);
  EXPECT_NE(stderr_text().find("b.h5"), std::string::npos) << stderr_text();
}

// h5py reads the index as one file (plain and SWMR read), from another working directory, and so
// does the notebooks' loader.
TEST_F(CampaignIndex, H5pyAndTheNotebookLoaderReadTheIndex) {
  if (test::run_command("/usr/bin/python3 -c 'import h5py, numpy' 2>/dev/null").code != 0)
    GTEST_SKIP() << "Debian's python3 lacks h5py (scripts/setup.sh installs it)";
  fs::create_directories(tmp_.path() / "run");
  fs::create_directories(tmp_.path() / "elsewhere");
  const std::string a = tmp_.file("run/a.h5");
  const std::string b = tmp_.file("run/b.h5");
  write_synthetic(a, synthetic_meta(), {0, 1, 2});
  write_synthetic(b, synthetic_meta(), {3, 4});
  write_synthetic(tmp_.file("elsewhere/a.h5"), synthetic_meta(), {9});
  io::write_campaign_index(tmp_.file("run/index.h5"), {a, b});
  tmp_.write("read.py", R"(
import sys
import h5py
for swmr in (False, True):
    with h5py.File("../run/index.h5", "r", swmr=swmr) as f:
        ids = [int(i) for i in f["games"]["game_id"]]
        plies = [int(i) for i in f["plies"]["game_id"]]
        features = f["positions/features"][:]
        names = [n.decode() for n in f["positions/features"].attrs["feature_names"]]
        print(ids, plies, features.shape, float(features[:, 0].sum()), names,
              f.attrs["seed"], f.attrs["identity"].decode(), [p.decode() for p in f.attrs["parts"]])
try:
    import pandas
except ImportError:
    sys.exit(0)
sys.path.insert(0, sys.argv[1])
import selfplay_data as sd
c = sd.load_campaign("../run/index.h5")
print("loader", list(c.games["game_id"]), len(c.plies), len(c.positions), c.feature_names)
)");
  const auto r =
      test::run_command("cd '" + tmp_.file("elsewhere") + "' && /usr/bin/python3 '" +
                        tmp_.file("read.py") + "' '" + test::source_path("notebooks") + "' 2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  // Features column 0: id + 0.25 * ply over ids 0..4 and plies 0, 1: 2 * 10 + 5 * 0.25.
  const std::string line =
      "[0, 1, 2, 3, 4] [0, 0, 1, 1, 2, 2, 3, 3, 4, 4] (10, 2) 21.25 ['a', 'b'] 5 weights: none "
      "['a.h5', 'b.h5']\n";
  EXPECT_EQ(r.out.substr(0, 2 * line.size()), line + line) << r.out;
  if (r.out.size() > 2 * line.size()) {
    EXPECT_EQ(r.out.substr(2 * line.size()), "loader [0, 1, 2, 3, 4] 10 10 ['a', 'b']\n");
  }
}

// Parts must be the files of one campaign: each difference is refused naming the part, and no
// index is left behind.
TEST_F(CampaignIndex, PartsOfAnotherCampaignOrOverlappingGamesAreRefused) {
  const std::string a = tmp_.file("a.h5");
  write_synthetic(a, synthetic_meta(), {0, 1});
  const std::string index = tmp_.file("index.h5");
  const auto refused = [&](const std::string& other, const std::string& what) {
    try {
      io::write_campaign_index(index, {a, other});
      ADD_FAILURE() << "indexed a part that differs in " << what;
    } catch (const io::CampaignError& e) {
      EXPECT_NE(std::string(e.what()).find("'" + other + "'"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(index));
    EXPECT_FALSE(fs::exists(index + ".index.tmp"));
  };
  int n = 0;
  const auto part = [&](const std::function<void(io::FileMeta&)>& change,
                        std::vector<uint64_t> ids = {5}) {
    io::FileMeta meta = synthetic_meta();
    change(meta);
    const std::string path = tmp_.file("p" + std::to_string(n++) + ".h5");
    write_synthetic(path, meta, ids);
    return path;
  };
  refused(part([](io::FileMeta& m) { m.seed = 6; }), "seed");
  refused(part([](io::FileMeta& m) { m.identity = "weights: other"; }), "identity");
  refused(part([](io::FileMeta& m) { m.game = "gomoku"; }), "game");
  refused(part([](io::FileMeta& m) { m.rules = "capture_own=false"; }), "rules");
  refused(part([](io::FileMeta& m) { m.config_text += " "; }), "config");
  refused(part([](io::FileMeta& m) { m.feature_names = {"a", "c"}; }), "feature_names");
  refused(part([](io::FileMeta& m) { m.match = io::MatchMeta{}; }), "kind");
  refused(part([](io::FileMeta&) {}, {1, 2}), "game 1");
  refused(test::source_path("tests/data/format1-campaign.h5"), "format_version");
  // What differs only by where and when a rank ran is not the campaign's: accepted.
  io::write_campaign_index(index, {a, part([](io::FileMeta& m) {
                                     m.host = "rank1";
                                     m.device = "gpu 1";
                                     m.start_time = "later";
                                   })});
  EXPECT_EQ(read_all(index).games.size(), 3u);

  // The same file twice, the index among its parts, an index as a part.
  EXPECT_THROW(io::write_campaign_index(tmp_.file("i2.h5"), {a, tmp_.file("./a.h5")}),
               io::CampaignError);
  EXPECT_THROW(io::write_campaign_index(index, {a, index}), io::CampaignError);
  EXPECT_THROW(io::write_campaign_index(tmp_.file("i3.h5"), {index}), io::CampaignError);
  EXPECT_FALSE(fs::exists(tmp_.file("i2.h5")));
  EXPECT_FALSE(fs::exists(tmp_.file("i3.h5")));
}

// The index is written whole or not at all: a missing part leaves no file and an older index as
// it was; a campaign file is never replaced by an index; an index is never resumed.
TEST_F(CampaignIndex, WrittenWholeOrNotAtAllAndNeverResumed) {
  const std::string a = tmp_.file("a.h5");
  const std::string b = tmp_.file("b.h5");
  write_synthetic(a, synthetic_meta(), {0, 1});
  write_synthetic(b, synthetic_meta(), {2});
  const std::string index = tmp_.file("index.h5");
  EXPECT_THROW(io::write_campaign_index(index, {a, tmp_.file("missing.h5")}), io::H5FileError);
  EXPECT_FALSE(fs::exists(index));
  EXPECT_FALSE(fs::exists(index + ".index.tmp"));

  io::write_campaign_index(index, {a});
  const std::string before = test::read_text(index);
  EXPECT_THROW(io::write_campaign_index(index, {a, tmp_.file("missing.h5")}), io::H5FileError);
  EXPECT_EQ(test::read_text(index), before);
  EXPECT_FALSE(fs::exists(index + ".index.tmp"));
  // An index is replaced by a newer one.
  io::write_campaign_index(index, {a, b});
  EXPECT_EQ(read_all(index).games.size(), 3u);

  // A campaign file is not an index to replace.
  const std::string campaign = tmp_.file("campaign.h5");
  write_synthetic(campaign, synthetic_meta(), {7});
  const std::string campaign_bytes = test::read_text(campaign);
  EXPECT_THROW(io::write_campaign_index(campaign, {a, b}), io::CampaignError);
  EXPECT_EQ(test::read_text(campaign), campaign_bytes);

  // A part a writer left open (killed before closing it) is refused: a plain read of the index
  // (h5py's default) would see its rows as fill.
  const std::string crashed = tmp_.file("crashed.h5");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    io::FileMeta meta = synthetic_meta();
    io::CampaignWriter writer = io::CampaignWriter::create(crashed, meta, {.flush_seconds = 0});
    io::GameRow g;
    g.game_id = 9;
    writer.append_game(g, {}, {}, std::vector<float>{});
    writer.flush();
    _exit(0);  // like a crash: the file is never closed
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_EQ(test::exit_code(status), 0);
  ASSERT_EQ(io::CampaignReader(crashed).games_count(), 1u);
  try {
    io::write_campaign_index(tmp_.file("i4.h5"), {a, crashed});
    ADD_FAILURE() << "indexed a part left open";
  } catch (const io::CampaignError& e) {
    EXPECT_NE(std::string(e.what()).find("'" + crashed + "'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("left it open"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(tmp_.file("i4.h5")));

  // While a writer holds the path, no index is written there.
  {
    io::CampaignWriter writer = io::CampaignWriter::create(tmp_.file("live.h5"), synthetic_meta());
    EXPECT_THROW(io::write_campaign_index(tmp_.file("live.h5"), {a}), FileLocked);
  }

  const std::string index_bytes = test::read_text(index);
  try {
    io::CampaignWriter::resume(index, synthetic_meta());
    FAIL() << "resumed an index";
  } catch (const io::CampaignError& e) {
    EXPECT_NE(std::string(e.what()).find("index"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("resume each part"), std::string::npos) << e.what();
  }
  EXPECT_EQ(test::read_text(index), index_bytes);
  EXPECT_EQ(read_all(a).games.size(), 2u);
}

}  // namespace
}  // namespace sp
