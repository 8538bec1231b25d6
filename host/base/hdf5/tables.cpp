#include "host/base/hdf5/tables.hpp"

#include <cstddef>
#include <cstring>

#include "host/base/hdf5/format1.hpp"

namespace sp::io::internal {
namespace {

void add_member(const Datatype& type, const char* name, size_t offset, hid_t member) {
  check(H5Tinsert(type.get(), name, offset, member), "insert compound member", name);
}

Datatype new_compound(size_t size, const char* what) {
  return Datatype(check_id(H5Tcreate(H5T_COMPOUND, size), "create compound type", what));
}

constexpr unsigned kGzipLevel = 4;
constexpr hsize_t kGameChunkRows = 64;         // ~71 KB: a GameRow is ~1.1 KB packed
constexpr hsize_t kPlyChunkRows = 512;         // ~135 KB: a PlyRow is 267 bytes packed (format 3)
constexpr hsize_t kCandidateChunkRows = 2048;  // ~135 KB: a CandidateRow is 68 bytes packed
constexpr hsize_t kColumnChunkRows = 8192;
constexpr hsize_t kPerfChunkRows = 1024;
constexpr hsize_t kPairChunkRows = 1024;  // 24 KB
constexpr hsize_t kFeatureChunkBytes = 64 * 1024;

hsize_t feature_chunk_rows(size_t feature_count) {
  const hsize_t rows = kFeatureChunkBytes / (sizeof(float) * std::max<size_t>(feature_count, 1));
  return std::clamp<hsize_t>(rows, 16, 4096);
}

// The string attributes of the root group, in FileMeta.
constexpr const char* kRootStrings[] = {"game",    "rules",  "config", "git_commit",
                                        "backend", "device", "host",   "start_time"};

template <class Meta>  // FileMeta or const FileMeta
auto& meta_field(Meta& meta, std::string_view attribute) {
  if (attribute == "game") return meta.game;
  if (attribute == "rules") return meta.rules;
  if (attribute == "config") return meta.config_text;
  if (attribute == "git_commit") return meta.git_commit;
  if (attribute == "backend") return meta.backend;
  if (attribute == "device") return meta.device;
  if (attribute == "host") return meta.host;
  return meta.start_time;
}

void write_match_meta(hid_t group, const MatchMeta& m) {
  write_attribute(group, "engine_a", m.engine_a);
  write_attribute(group, "engine_b", m.engine_b);
  write_attribute(group, "pairs", m.pairs);
  write_attribute(group, "sprt_enabled", uint32_t{m.sprt_enabled});
  write_attribute(group, "sprt_elo0", m.sprt_elo0);
  write_attribute(group, "sprt_elo1", m.sprt_elo1);
  write_attribute(group, "sprt_alpha", m.sprt_alpha);
  write_attribute(group, "sprt_beta", m.sprt_beta);
  write_attribute(group, "sprt_lower", m.sprt_lower);
  write_attribute(group, "sprt_upper", m.sprt_upper);
}

MatchMeta read_match_meta(hid_t group) {
  MatchMeta m;
  m.engine_a = read_string_attribute(group, "engine_a");
  m.engine_b = read_string_attribute(group, "engine_b");
  m.pairs = read_uint64_attribute(group, "pairs");
  m.sprt_enabled = read_uint64_attribute(group, "sprt_enabled") != 0;
  m.sprt_elo0 = read_double_attribute(group, "sprt_elo0");
  m.sprt_elo1 = read_double_attribute(group, "sprt_elo1");
  m.sprt_alpha = read_double_attribute(group, "sprt_alpha");
  m.sprt_beta = read_double_attribute(group, "sprt_beta");
  m.sprt_lower = read_double_attribute(group, "sprt_lower");
  m.sprt_upper = read_double_attribute(group, "sprt_upper");
  return m;
}

}  // namespace

RowTypes::RowTypes() {
  init_thread();
  game = new_compound(sizeof(GameRow), "GameRow");
  add_member(game, "game_id", offsetof(GameRow, game_id), H5T_NATIVE_UINT64);
  add_member(game, "seed", offsetof(GameRow, seed), H5T_NATIVE_UINT64);
  add_member(game, "opening", offsetof(GameRow, opening),
             string_type(sizeof GameRow::opening).get());
  add_member(game, "first_player", offsetof(GameRow, first_player), H5T_NATIVE_UINT8);
  add_member(game, "winner", offsetof(GameRow, winner), H5T_NATIVE_INT8);
  add_member(game, "plies", offsetof(GameRow, plies), H5T_NATIVE_UINT16);
  add_member(game, "duration_s", offsetof(GameRow, duration_s), H5T_NATIVE_DOUBLE);
  add_member(game, "record", offsetof(GameRow, record), string_type(sizeof GameRow::record).get());
  add_member(game, "record_truncated", offsetof(GameRow, record_truncated), H5T_NATIVE_UINT8);
  game2_before_termination = Datatype(check_id(H5Tcopy(game.get()), "copy type", "GameRow"));
  add_member(game, "termination", offsetof(GameRow, termination), H5T_NATIVE_UINT8);

  ply = new_compound(sizeof(PlyRow), "PlyRow");
  add_member(ply, "game_id", offsetof(PlyRow, game_id), H5T_NATIVE_UINT64);
  add_member(ply, "ply", offsetof(PlyRow, ply), H5T_NATIVE_UINT16);
  add_member(ply, "player", offsetof(PlyRow, player), H5T_NATIVE_UINT8);
  add_member(ply, "chance", offsetof(PlyRow, chance), H5T_NATIVE_INT8);
  add_member(ply, "move", offsetof(PlyRow, move), string_type(sizeof PlyRow::move).get());
  add_member(ply, "visits", offsetof(PlyRow, visits), H5T_NATIVE_UINT32);
  add_member(ply, "root_value", offsetof(PlyRow, root_value), H5T_NATIVE_FLOAT);
  add_member(ply, "rollouts", offsetof(PlyRow, rollouts), H5T_NATIVE_UINT64);
  add_member(ply, "time_ms", offsetof(PlyRow, time_ms), H5T_NATIVE_FLOAT);
  ply2 = Datatype(check_id(H5Tcopy(ply.get()), "copy type", "PlyRow"));
  add_member(ply, "search", offsetof(PlyRow, search), H5T_NATIVE_UINT8);
  add_member(ply, "depth", offsetof(PlyRow, depth), H5T_NATIVE_INT16);
  add_member(ply, "score", offsetof(PlyRow, score), H5T_NATIVE_FLOAT);
  add_member(ply, "nodes", offsetof(PlyRow, nodes), H5T_NATIVE_UINT64);
  add_member(ply, "played", offsetof(PlyRow, played), H5T_NATIVE_UINT64);
  add_member(ply, "think_ms", offsetof(PlyRow, think_ms), H5T_NATIVE_FLOAT);
  add_member(ply, "pv", offsetof(PlyRow, pv), string_type(sizeof PlyRow::pv).get());

  candidate = new_compound(sizeof(CandidateRow), "CandidateRow");
  add_member(candidate, "game_id", offsetof(CandidateRow, game_id), H5T_NATIVE_UINT64);
  add_member(candidate, "ply", offsetof(CandidateRow, ply), H5T_NATIVE_UINT16);
  add_member(candidate, "rank", offsetof(CandidateRow, rank), H5T_NATIVE_UINT16);
  add_member(candidate, "move", offsetof(CandidateRow, move),
             string_type(sizeof CandidateRow::move).get());
  add_member(candidate, "visits", offsetof(CandidateRow, visits), H5T_NATIVE_UINT32);
  add_member(candidate, "value", offsetof(CandidateRow, value), H5T_NATIVE_FLOAT);

  using G1 = format1::GameRow;
  game1 = new_compound(sizeof(G1), "format 1 GameRow");
  add_member(game1, "game_id", offsetof(G1, game_id), H5T_NATIVE_UINT64);
  add_member(game1, "seed", offsetof(G1, seed), H5T_NATIVE_UINT64);
  add_member(game1, "setup", offsetof(G1, setup), string_type(sizeof G1::setup).get());
  add_member(game1, "first_player", offsetof(G1, first_player), H5T_NATIVE_UINT8);
  add_member(game1, "winner", offsetof(G1, winner), H5T_NATIVE_INT8);
  add_member(game1, "plies", offsetof(G1, plies), H5T_NATIVE_UINT16);
  add_member(game1, "duration_s", offsetof(G1, duration_s), H5T_NATIVE_DOUBLE);
  add_member(game1, "record", offsetof(G1, record), string_type(sizeof G1::record).get());
  add_member(game1, "record_truncated", offsetof(G1, record_truncated), H5T_NATIVE_UINT8);

  using P1 = format1::PlyRow;
  ply1 = new_compound(sizeof(P1), "format 1 PlyRow");
  add_member(ply1, "game_id", offsetof(P1, game_id), H5T_NATIVE_UINT64);
  add_member(ply1, "ply", offsetof(P1, ply), H5T_NATIVE_UINT16);
  add_member(ply1, "player", offsetof(P1, player), H5T_NATIVE_UINT8);
  add_member(ply1, "die", offsetof(P1, die), H5T_NATIVE_UINT8);
  add_member(ply1, "move", offsetof(P1, move), string_type(sizeof P1::move).get());
  add_member(ply1, "visits", offsetof(P1, visits), H5T_NATIVE_UINT32);
  add_member(ply1, "root_value", offsetof(P1, root_value), H5T_NATIVE_FLOAT);
  add_member(ply1, "rollouts", offsetof(P1, rollouts), H5T_NATIVE_UINT64);
  add_member(ply1, "time_ms", offsetof(P1, time_ms), H5T_NATIVE_FLOAT);

  perf = new_compound(sizeof(PerfRow), "PerfRow");
  add_member(perf, "batch", offsetof(PerfRow, batch), H5T_NATIVE_UINT64);
  add_member(perf, "time_s", offsetof(PerfRow, time_s), H5T_NATIVE_DOUBLE);
  add_member(perf, "leaves", offsetof(PerfRow, leaves), H5T_NATIVE_UINT32);
  add_member(perf, "rollouts", offsetof(PerfRow, rollouts), H5T_NATIVE_UINT64);
  add_member(perf, "host_ms", offsetof(PerfRow, host_ms), H5T_NATIVE_FLOAT);
  add_member(perf, "backend_ms", offsetof(PerfRow, backend_ms), H5T_NATIVE_FLOAT);

  pair = new_compound(sizeof(MatchPairRow), "MatchPairRow");
  add_member(pair, "pair_id", offsetof(MatchPairRow, pair_id), H5T_NATIVE_UINT64);
  add_member(pair, "result_1", offsetof(MatchPairRow, result_1), H5T_NATIVE_FLOAT);
  add_member(pair, "result_2", offsetof(MatchPairRow, result_2), H5T_NATIVE_FLOAT);
  add_member(pair, "llr", offsetof(MatchPairRow, llr), H5T_NATIVE_DOUBLE);
}

Tables Tables::create(const std::string& path, const FileMeta& meta, bool exclusive) {
  Tables t;
  t.path = path;
  t.file = create_file(path, exclusive);
  t.writable = true;
  t.feature_count = meta.feature_names.size();
  const hid_t root = t.file.get();
  write_attribute(root, "format_version", kCampaignFormatVersion);
  for (const char* name : kRootStrings) write_attribute(root, name, meta_field(meta, name));
  write_attribute(root, "seed", meta.seed);

  GameRow game_fill;
  game_fill.game_id = kNoGame;
  PlyRow ply_fill;
  ply_fill.game_id = kNoGame;
  CandidateRow candidate_fill;
  candidate_fill.game_id = kNoGame;
  PerfRow perf_fill;
  perf_fill.batch = kNoGame;
  t.games =
      create_table(root, "games", t.types.game.get(), {kGameChunkRows, kGzipLevel}, &game_fill);
  t.plies = create_table(root, "plies", t.types.ply.get(), {kPlyChunkRows, kGzipLevel}, &ply_fill);
  t.candidates = create_table(root, "candidates", t.types.candidate.get(),
                              {kCandidateChunkRows, kGzipLevel}, &candidate_fill);
  t.positions = create_group(root, "positions");
  const hid_t group = t.positions.get();
  const ChunkedLayout column{kColumnChunkRows, kGzipLevel};
  t.position_game_id = create_table(group, "game_id", H5T_NATIVE_UINT64, column, &kNoGame);
  t.position_ply = create_table(group, "ply", H5T_NATIVE_UINT16, column, nullptr);
  t.position_side = create_table(group, "side_to_move", H5T_NATIVE_UINT8, column, nullptr);
  t.position_result = create_table(group, "result", H5T_NATIVE_FLOAT, column, nullptr);
  t.features = create_matrix(group, "features", t.feature_count,
                             {feature_chunk_rows(t.feature_count), kGzipLevel});
  write_attribute(t.features.get(), "feature_names", meta.feature_names);
  t.perf = create_table(root, "perf", t.types.perf.get(), {kPerfChunkRows, kGzipLevel}, &perf_fill);
  if (meta.match) {
    // SWMR cannot add objects later: the group exists from the start, filled or not.
    t.match = create_group(root, "match");
    write_match_meta(t.match.get(), *meta.match);
    MatchPairRow pair_fill;
    pair_fill.pair_id = kNoGame;
    t.match_pairs = create_table(t.match.get(), "pairs", t.types.pair.get(),
                                 {kPairChunkRows, kGzipLevel}, &pair_fill);
  }
  return t;
}

Tables Tables::open(const std::string& path, bool for_append) {
  Tables t;
  t.path = path;
  t.file = for_append ? open_file(path, OpenMode::kWriteSwmr) : open_for_reading(path);
  t.writable = for_append;
  const hid_t root = t.file.get();
  if (!has_attribute(root, "format_version")) {
    throw CampaignError("'" + path + "' is not a selfplay campaign file (no format_version)");
  }
  const uint64_t version = read_uint64_attribute(root, "format_version");
  if (version < format1::kVersion || version > kCampaignFormatVersion) {
    throw CampaignError("'" + path + "' has campaign format_version " + std::to_string(version) +
                        "; this build reads " + std::to_string(format1::kVersion) + " to " +
                        std::to_string(kCampaignFormatVersion));
  }
  t.version = static_cast<uint32_t>(version);
  // Nothing appends to a format-1 file (resume() refuses it): its rows are only read.
  if (for_append && t.version != kCampaignFormatVersion)
    throw CampaignError("'" + path + "' is a format-" + std::to_string(version) +
                        " campaign file: it is read, never extended");
  const bool old = t.version == format1::kVersion;
  // Files written before /games had `termination` are read (never extended) as if every game
  // had ended by the rules.
  if (!old && !for_append && t.has_type(root, "games", t.types.game2_before_termination.get()))
    t.types.game =
        Datatype(check_id(H5Tcopy(t.types.game2_before_termination.get()), "copy type", "GameRow"));
  // Format 2 has no search columns: its plies read into PlyRow with them left as not recorded.
  if (t.version == kFormatWithoutSearch)
    t.types.ply = Datatype(check_id(H5Tcopy(t.types.ply2.get()), "copy type", "PlyRow"));
  t.games = t.open_checked(root, "games", (old ? t.types.game1 : t.types.game).get());
  t.plies = t.open_checked(root, "plies", (old ? t.types.ply1 : t.types.ply).get());
  if (t.version > kFormatWithoutSearch)
    t.candidates = t.open_checked(root, "candidates", t.types.candidate.get());
  t.positions = open_group(root, "positions");
  const hid_t group = t.positions.get();
  t.position_game_id = t.open_checked(group, "game_id", H5T_NATIVE_UINT64);
  t.position_ply = t.open_checked(group, "ply", H5T_NATIVE_UINT16);
  t.position_side = t.open_checked(group, "side_to_move", H5T_NATIVE_UINT8);
  t.position_result = t.open_checked(group, "result", H5T_NATIVE_FLOAT);
  t.features = t.open_checked(group, "features", H5T_NATIVE_FLOAT);
  const auto feature_dims = dims(t.features.get());
  if (feature_dims.size() != 2) {
    throw CampaignError("'" + path + "': /positions/features is not 2-D");
  }
  t.feature_count = feature_dims[1];
  t.perf = t.open_checked(root, "perf", t.types.perf.get());
  if (has_link(root, "match")) {
    t.match = open_group(root, "match");
    t.match_pairs = t.open_checked(t.match.get(), "pairs", t.types.pair.get());
  }
  return t;
}

FileMeta read_meta(hid_t root, const Tables& tables) {
  FileMeta meta;
  for (const char* name : kRootStrings) meta_field(meta, name) = read_string_attribute(root, name);
  meta.seed = read_uint64_attribute(root, "seed");
  meta.feature_names = read_string_list_attribute(tables.features.get(), "feature_names");
  if (tables.match) meta.match = read_match_meta(tables.match.get());
  if (meta.feature_names.size() != tables.feature_count) {
    throw CampaignError("'" + tables.path + "': " + std::to_string(meta.feature_names.size()) +
                        " feature names for " + std::to_string(tables.feature_count) +
                        " feature columns");
  }
  return meta;
}

// Every object of an open file, in name order: its path ("/", "/games", "/positions/ply") and kind.
std::vector<std::pair<std::string, H5O_type_t>> objects_of(const File& file,
                                                           std::string_view path) {
  std::vector<std::pair<std::string, H5O_type_t>> objects;
  const auto collect = [](hid_t, const char* name, const H5O_info_t* info, void* data) -> herr_t {
    const std::string relative = name;
    static_cast<std::vector<std::pair<std::string, H5O_type_t>>*>(data)->emplace_back(
        relative == "." ? "/" : "/" + relative, info->type);
    return 0;
  };
  check(H5Ovisit2(file.get(), H5_INDEX_NAME, H5_ITER_INC, collect, &objects, H5O_INFO_BASIC),
        "visit objects", path);
  return objects;
}

// The names of an object's attributes, in name order.
std::vector<std::string> attribute_names(hid_t object, std::string_view name) {
  std::vector<std::string> names;
  const auto collect = [](hid_t, const char* attribute, const H5A_info_t*, void* data) -> herr_t {
    static_cast<std::vector<std::string>*>(data)->emplace_back(attribute);
    return 0;
  };
  check(H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names),
        "iterate attributes", name);
  return names;
}

}  // namespace sp::io::internal
