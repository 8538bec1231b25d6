#include "host/io/campaign_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>
#include <variant>

#include "host/common/log.hpp"
#include "host/io/format1.hpp"
#include "host/io/h5.hpp"

namespace sp::io {
namespace {

void add_member(const Datatype& type, const char* name, size_t offset, hid_t member) {
  check(H5Tinsert(type.get(), name, offset, member), "insert compound member", name);
}

Datatype new_compound(size_t size, const char* what) {
  return Datatype(check_id(H5Tcreate(H5T_COMPOUND, size), "create compound type", what));
}

// In-memory compound types of the row structs (host layout, padding included); the files store
// their packed copies. game1 and ply1 are format 1's rows (format1.hpp), for reading old files.
struct RowTypes {
  // game2_before_termination: /games of format-2 files written before the termination column
  // (read into GameRow, whose termination stays 0).
  Datatype game, ply, perf, pair, game1, ply1, game2_before_termination;

  RowTypes() {
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
    add_member(game, "record", offsetof(GameRow, record),
               string_type(sizeof GameRow::record).get());
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
};

constexpr unsigned kGzipLevel = 4;
constexpr hsize_t kGameChunkRows = 64;   // ~71 KB: a GameRow is ~1.1 KB packed
constexpr hsize_t kPlyChunkRows = 1024;  // ~80 KB: a PlyRow is 80 bytes packed
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

// The cause in an H5Error: the system's message, else the whole (one-line) message.
std::string cause_of(const H5Error& e) {
  return e.system_error() ? std::strerror(e.system_error()) : e.what();
}

// The open objects of one campaign file, for the writer thread, resume and the reader.
struct Tables {
  std::string path;
  File file;
  Group positions, match;  // match: match files only
  Dataset games, plies, position_game_id, position_ply, position_side, position_result, features,
      perf, match_pairs;
  RowTypes types;
  size_t feature_count = 0;
  uint32_t version = kCampaignFormatVersion;  // of the file; /games and /plies differ by version
  bool writable = false;
  bool abandoned = false;

  Tables() = default;
  Tables(Tables&&) noexcept = default;
  Tables& operator=(Tables&&) noexcept = default;
  // Writable tables are closed by close(); reaching here with the file open means an exception
  // interrupted writing it, so nothing more reaches the file (see abandon()).
  ~Tables() {
    if (file && writable) abandon();
  }

  static Tables create(const std::string& path, const FileMeta& meta, bool exclusive) {
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
    PerfRow perf_fill;
    perf_fill.batch = kNoGame;
    t.games =
        create_table(root, "games", t.types.game.get(), {kGameChunkRows, kGzipLevel}, &game_fill);
    t.plies =
        create_table(root, "plies", t.types.ply.get(), {kPlyChunkRows, kGzipLevel}, &ply_fill);
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
    t.perf =
        create_table(root, "perf", t.types.perf.get(), {kPerfChunkRows, kGzipLevel}, &perf_fill);
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

  static Tables open(const std::string& path, bool for_append) {
    Tables t;
    t.path = path;
    t.file = for_append ? open_file(path, OpenMode::kWriteSwmr) : open_for_reading(path);
    t.writable = for_append;
    const hid_t root = t.file.get();
    if (!has_attribute(root, "format_version")) {
      throw CampaignError("'" + path + "' is not a selfplay campaign file (no format_version)");
    }
    const uint64_t version = read_uint64_attribute(root, "format_version");
    if (version != kCampaignFormatVersion && version != format1::kVersion) {
      throw CampaignError("'" + path + "' has campaign format_version " + std::to_string(version) +
                          "; this build reads " + std::to_string(format1::kVersion) + " and " +
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
      t.types.game = Datatype(
          check_id(H5Tcopy(t.types.game2_before_termination.get()), "copy type", "GameRow"));
    t.games = t.open_checked(root, "games", (old ? t.types.game1 : t.types.game).get());
    t.plies = t.open_checked(root, "plies", (old ? t.types.ply1 : t.types.ply).get());
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

  // Whether dataset `name` exists with the packed copy of memory_type (no error otherwise).
  bool has_type(hid_t location, const std::string& name, hid_t memory_type) const {
    if (!has_link(location, name)) return false;
    const Dataset dataset = open_dataset(location, name);
    const Datatype stored(check_id(H5Dget_type(dataset.get()), "get type", name));
    const Datatype expected = packed_copy(memory_type);
    return check(H5Tequal(stored.get(), expected.get()), "compare types", name) > 0;
  }

  Dataset open_checked(hid_t location, const std::string& name, hid_t memory_type) const {
    Dataset dataset = open_dataset(location, name);
    const Datatype stored(check_id(H5Dget_type(dataset.get()), "get type", name));
    const Datatype expected = packed_copy(memory_type);
    if (check(H5Tequal(stored.get(), expected.get()), "compare types", name) <= 0) {
      throw CampaignError("'" + path + "': dataset " + object_name(dataset.get()) + " has type " +
                          describe_type(stored.get()) + ", expected " +
                          describe_type(expected.get()));
    }
    return dataset;
  }

  uint64_t positions_count() const {
    const hsize_t n = std::min({rows(position_game_id.get()), rows(position_ply.get()),
                                rows(position_side.get()), rows(position_result.get())});
    return std::min<hsize_t>(n, rows(features.get()));
  }

  // After a failed write the file must stay as the last successful flush left it: HDF5 still
  // holds the grown extents and would write them, without their rows, when it next flushes or
  // closes (see "What readers see" in the header).
  void abandon() {
    if (abandoned) return;
    abandoned = true;
    abandon_writes(file);
  }

  // Runs `write`; when it throws, abandons the file first.
  template <class Write>
  void guarded(Write&& write) {
    try {
      write();
    } catch (...) {
      abandon();
      throw;
    }
  }

  void write_games(const std::vector<GameRow>& rows) {
    guarded([&] { append_rows(games.get(), types.game.get(), rows.data(), rows.size()); });
  }
  void write_plies(const std::vector<PlyRow>& rows) {
    guarded([&] { append_rows(plies.get(), types.ply.get(), rows.data(), rows.size()); });
  }
  void write_perf(const std::vector<PerfRow>& rows) {
    guarded([&] { append_rows(perf.get(), types.perf.get(), rows.data(), rows.size()); });
  }
  void write_match_pairs(const std::vector<MatchPairRow>& rows) {
    guarded([&] { append_rows(match_pairs.get(), types.pair.get(), rows.data(), rows.size()); });
  }
  void write_positions(const std::vector<PositionRow>& rows, const std::vector<float>& values) {
    const size_t n = rows.size();
    std::vector<uint64_t> game_id(n);
    std::vector<uint16_t> ply(n);
    std::vector<uint8_t> side(n);
    std::vector<float> result(n);
    for (size_t i = 0; i < n; ++i) {
      game_id[i] = rows[i].game_id;
      ply[i] = rows[i].ply;
      side[i] = rows[i].side_to_move;
      result[i] = rows[i].result;
    }
    guarded([&] {
      append_rows(features.get(), H5T_NATIVE_FLOAT, values.data(), n);
      append_rows(position_ply.get(), H5T_NATIVE_UINT16, ply.data(), n);
      append_rows(position_side.get(), H5T_NATIVE_UINT8, side.data(), n);
      append_rows(position_result.get(), H5T_NATIVE_FLOAT, result.data(), n);
      append_rows(position_game_id.get(), H5T_NATIVE_UINT64, game_id.data(), n);
    });
  }

  // Puts plies and positions on disk before any /games row that refers to them is written, so
  // that no flush order of the metadata cache (or crash) can expose a /games row without them.
  void flush_game_contents() {
    commit({&plies, &features, &position_ply, &position_side, &position_result, &position_game_id});
  }

  // Puts each dataset's rows on disk, then its extent (H5Dflush: raw data first, metadata only
  // when that succeeded). Datasets not opened (no /match) are skipped.
  void commit(std::initializer_list<const Dataset*> datasets) {
    guarded([&] {
      for (const Dataset* d : datasets) {
        if (*d) flush_dataset(d->get());
      }
    });
  }

  // Flushes the file's remaining metadata. Call it only after commit() of every dataset written
  // to: H5Fflush writes all metadata even when writing some raw data failed.
  void flush() {
    guarded([&] { flush_file(file, path); });
  }

  // Closes every object, the file last; reports a failure to close the file.
  void close() {
    init_thread();
    for (Dataset* d : {&games, &plies, &position_game_id, &position_ply, &position_side,
                       &position_result, &features, &perf, &match_pairs}) {
      d->reset();
    }
    positions.reset();
    match.reset();
    file.close(path);
  }
};

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

// [first, first + count) clipped to `total` rows.
std::pair<uint64_t, uint64_t> clip(uint64_t total, uint64_t first, uint64_t count) {
  if (first >= total) return {total, 0};
  return {first, std::min(count, total - first)};
}

template <class Row>
std::vector<Row> read_table(const Dataset& dataset, const Datatype& type, uint64_t first,
                            uint64_t count) {
  const auto [start, n] = clip(rows(dataset.get()), first, count);
  std::vector<Row> out(n);
  read_rows(dataset.get(), type.get(), start, n, out.data());
  return out;
}

void sync_path(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// Runs `read` on the campaign file `path`. An HDF5 failure other than the system's (an I/O error)
// means the file is damaged or not a campaign: H5FileError, bad input.
template <class Read>
auto reading(const std::string& path, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const H5FileError&) {
    throw;
  } catch (const H5Error& e) {
    if (is_system_failure(e.system_error())) throw;
    throw H5FileError("'" + path + "' is damaged or not a selfplay campaign file: " + e.what(),
                      e.stack(), e.system_error());
  }
}

}  // namespace

void check_campaign_path(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) throw H5FileError("'" + path + "' is a directory, not a file");
    if (!S_ISREG(info.st_mode)) throw H5FileError("'" + path + "' is not a regular file");
    return;
  }
  if (errno != ENOENT) throw H5FileError("cannot use '" + path + "': " + std::strerror(errno));
}

void install_file(const std::string& temp, const std::string& target) {
  struct stat old = {};
  if (::stat(target.c_str(), &old) == 0) ::chmod(temp.c_str(), old.st_mode & 07777);
  sync_path(temp);
  std::filesystem::rename(temp, target);
  sync_path(std::filesystem::absolute(target).parent_path().string());
}

// ---- CampaignReader

struct CampaignReader::Impl {
  Tables tables;
  FileMeta meta;
  uint32_t version = 0;
  std::vector<std::string> index_parts;
};

namespace {

// The parts of the index `path` where HDF5 finds them (see campaign_index.hpp): a relative name
// in the index's folder, an absolute one as it is or, missing there, by its file name in the
// index's folder. CampaignError naming the first part found nowhere: HDF5 would read its rows as
// fill values (or, for a relative name, look in the working directory, where a file of that name
// may be another campaign's).
std::vector<std::string> find_index_parts(const std::string& path,
                                          const std::vector<std::string>& names) {
  namespace fs = std::filesystem;
  const fs::path folder = fs::absolute(path).parent_path();
  std::vector<std::string> found;
  for (const std::string& name : names) {
    const fs::path stored = name;
    std::vector<fs::path> candidates;
    if (stored.is_absolute()) candidates.push_back(stored);
    candidates.push_back(folder / (stored.is_absolute() ? stored.filename() : stored));
    std::error_code error;
    const auto at = std::find_if(candidates.begin(), candidates.end(),
                                 [&](const fs::path& p) { return fs::is_regular_file(p, error); });
    if (at == candidates.end())
      throw CampaignError("'" + path + "' is an index over " + std::to_string(names.size()) +
                          " part files, and its part '" + name + "' is not at " +
                          candidates.back().string() +
                          ": keep the parts beside the index (move the folder as a whole)");
    found.push_back(at->string());
  }
  return found;
}

// The text HDF5 returns through get(buffer, size): a name of the mapping `i` of a virtual dataset.
template <class Get>
std::string mapping_text(Get&& get, std::string_view what) {
  const ssize_t length = get(nullptr, 0);
  if (length < 0) fail("get virtual mapping", what);
  std::string text(static_cast<size_t>(length) + 1, '\0');
  if (get(text.data(), text.size()) < 0) fail("get virtual mapping", what);
  text.resize(static_cast<size_t>(length));
  return text;
}

// Throws CampaignError when a part of the index `t` (its parts `names`, found at `files`) holds
// fewer rows of a dataset than the index maps from it: the part changed after the index was
// written (a resume drops unfinished games), and HDF5 would fail reading those rows.
void check_index_rows(const Tables& t, const std::vector<std::string>& names,
                      const std::vector<std::string>& files) {
  std::map<std::string, File> opened;
  for (const Dataset* d :
       {&t.games, &t.plies, &t.position_game_id, &t.position_ply, &t.position_side,
        &t.position_result, &t.features, &t.perf, &t.match_pairs}) {
    if (!*d) continue;
    const std::string name = object_name(d->get());
    const PropList dcpl(check_id(H5Dget_create_plist(d->get()), "get creation list", name));
    if (H5Pget_layout(dcpl.get()) != H5D_VIRTUAL) continue;
    size_t count = 0;
    check(H5Pget_virtual_count(dcpl.get(), &count), "count virtual mappings", name);
    for (size_t i = 0; i < count; ++i) {
      const std::string file = mapping_text(
          [&](char* text, size_t size) {
            return H5Pget_virtual_filename(dcpl.get(), i, text, size);
          },
          name);
      const std::string source = mapping_text(
          [&](char* text, size_t size) {
            return H5Pget_virtual_dsetname(dcpl.get(), i, text, size);
          },
          name);
      const auto part = std::find(names.begin(), names.end(), file);
      if (part == names.end())
        throw CampaignError("'" + t.path + "': " + name + " maps rows of '" + file +
                            "', which its parts attribute does not list");
      const std::string& at = files[static_cast<size_t>(part - names.begin())];
      const Dataspace space(
          check_id(H5Pget_virtual_srcspace(dcpl.get(), i), "get source selection", name));
      hsize_t start[H5S_MAX_RANK] = {}, end[H5S_MAX_RANK] = {};
      check(H5Sget_select_bounds(space.get(), start, end), "get selection bounds", name);
      auto [it, added] = opened.try_emplace(at);
      if (added) it->second = open_for_reading(at);
      const hsize_t held = rows(open_dataset(it->second.get(), source).get());
      if (held <= end[0])
        throw CampaignError("'" + t.path + "' is an index that reads " +
                            std::to_string(end[0] + 1) + " rows of " + source + " from its part '" +
                            file + "', which holds " + std::to_string(held) +
                            " now: the part changed after the index was written (a resume?); "
                            "write the index again");
    }
  }
}

}  // namespace

CampaignReader::CampaignReader(const std::string& path) : impl_(std::make_unique<Impl>()) {
  init_thread();
  reading(path, [&] {
    impl_->tables = Tables::open(path, false);
    const hid_t root = impl_->tables.file.get();
    impl_->version = static_cast<uint32_t>(read_uint64_attribute(root, "format_version"));
    impl_->meta = read_meta(root, impl_->tables);
    if (has_attribute(root, "identity"))
      impl_->meta.identity = read_string_attribute(root, "identity");
    if (has_attribute(root, kIndexPartsAttribute)) {
      const std::vector<std::string> names = read_string_list_attribute(root, kIndexPartsAttribute);
      impl_->index_parts = find_index_parts(path, names);
      check_index_rows(impl_->tables, names, impl_->index_parts);
    }
  });
}

CampaignReader::CampaignReader(CampaignReader&&) noexcept = default;
CampaignReader& CampaignReader::operator=(CampaignReader&&) noexcept = default;
CampaignReader::~CampaignReader() = default;

uint32_t CampaignReader::format_version() const { return impl_->version; }
const FileMeta& CampaignReader::meta() const { return impl_->meta; }
const std::vector<std::string>& CampaignReader::index_parts() const { return impl_->index_parts; }
uint64_t CampaignReader::games_count() const {
  return reading(impl_->tables.path, [&] { return rows(impl_->tables.games.get()); });
}
uint64_t CampaignReader::plies_count() const {
  return reading(impl_->tables.path, [&] { return rows(impl_->tables.plies.get()); });
}
uint64_t CampaignReader::positions_count() const {
  return reading(impl_->tables.path, [&] { return impl_->tables.positions_count(); });
}
uint64_t CampaignReader::perf_count() const {
  return reading(impl_->tables.path, [&] { return rows(impl_->tables.perf.get()); });
}

namespace {

// Rows of a table whose format-1 rows (Old) are read and upgraded to format-2 rows (Row).
template <class Row, class Old>
std::vector<Row> read_upgraded(const Tables& t, const Dataset& dataset, const Datatype& type,
                               const Datatype& old_type, uint64_t first, uint64_t count) {
  if (t.version != format1::kVersion) return read_table<Row>(dataset, type, first, count);
  const std::vector<Old> rows = read_table<Old>(dataset, old_type, first, count);
  std::vector<Row> out;
  out.reserve(rows.size());
  for (const Old& row : rows) out.push_back(format1::upgrade(row));
  return out;
}

}  // namespace

std::vector<GameRow> CampaignReader::games(uint64_t first, uint64_t count) const {
  init_thread();
  return reading(impl_->tables.path, [&] {
    const Tables& t = impl_->tables;
    return read_upgraded<GameRow, format1::GameRow>(t, t.games, t.types.game, t.types.game1, first,
                                                    count);
  });
}

std::vector<PlyRow> CampaignReader::plies(uint64_t first, uint64_t count) const {
  init_thread();
  return reading(impl_->tables.path, [&] {
    const Tables& t = impl_->tables;
    return read_upgraded<PlyRow, format1::PlyRow>(t, t.plies, t.types.ply, t.types.ply1, first,
                                                  count);
  });
}

std::vector<PerfRow> CampaignReader::perf(uint64_t first, uint64_t count) const {
  init_thread();
  return reading(impl_->tables.path, [&] {
    return read_table<PerfRow>(impl_->tables.perf, impl_->tables.types.perf, first, count);
  });
}

uint64_t CampaignReader::match_pairs_count() const {
  if (!impl_->tables.match_pairs) return 0;
  return reading(impl_->tables.path, [&] { return rows(impl_->tables.match_pairs.get()); });
}

std::vector<MatchPairRow> CampaignReader::match_pairs(uint64_t first, uint64_t count) const {
  init_thread();
  if (!impl_->tables.match_pairs) return {};
  return reading(impl_->tables.path, [&] {
    return read_table<MatchPairRow>(impl_->tables.match_pairs, impl_->tables.types.pair, first,
                                    count);
  });
}

std::vector<PositionRow> CampaignReader::positions(uint64_t first, uint64_t count) const {
  init_thread();
  return reading(impl_->tables.path, [&] {
    const Tables& t = impl_->tables;
    const auto [start, n] = clip(t.positions_count(), first, count);
    std::vector<uint64_t> game_id(n);
    std::vector<uint16_t> ply(n);
    std::vector<uint8_t> side(n);
    std::vector<float> result(n);
    read_rows(t.position_game_id.get(), H5T_NATIVE_UINT64, start, n, game_id.data());
    read_rows(t.position_ply.get(), H5T_NATIVE_UINT16, start, n, ply.data());
    read_rows(t.position_side.get(), H5T_NATIVE_UINT8, start, n, side.data());
    read_rows(t.position_result.get(), H5T_NATIVE_FLOAT, start, n, result.data());
    std::vector<PositionRow> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = {game_id[i], ply[i], side[i], result[i]};
    return out;
  });
}

std::vector<float> CampaignReader::features(uint64_t first, uint64_t count) const {
  init_thread();
  return reading(impl_->tables.path, [&] {
    const Tables& t = impl_->tables;
    const auto [start, n] = clip(t.positions_count(), first, count);
    std::vector<float> out(n * t.feature_count);
    read_rows(t.features.get(), H5T_NATIVE_FLOAT, start, n, out.data());
    return out;
  });
}

// ---- CampaignWriter

namespace {

struct GameItem {
  GameRow game;
  std::vector<PlyRow> plies;
  std::vector<PositionRow> positions;
  std::vector<float> features;
};
struct FlushItem {
  uint64_t ticket;
};
using Item = std::variant<GameItem, PerfRow, MatchPairRow, FlushItem>;

}  // namespace

struct CampaignWriter::Impl {
  Tables tables;
  WriterOptions options;
  ResumeReport report;

  std::mutex mutex;
  std::condition_variable items_ready, space_ready, flushed;
  std::deque<Item> queue;
  bool stopping = false;
  bool closed = false;
  uint64_t flush_requested = 0;
  uint64_t flush_done = 0;
  std::exception_ptr error;
  bool error_reported = false;
  std::thread thread;
  std::vector<GameRow> pending;             // writer thread only
  std::vector<MatchPairRow> pending_pairs;  // writer thread only; written after `pending`
  uint64_t games_appended = 0;
  // Test hook (see append_game): stop the process after this many games; 0 = never.
  const uint64_t stop_after_games = [] {
    const char* n = std::getenv("SELFPLAY_TEST_STOP_AFTER_GAMES");
    return n ? std::strtoull(n, nullptr, 10) : 0;
  }();
  uint64_t games_on_disk = 0;  // writer thread only: /games rows committed
  // The width of the rows append_game is given, when a resumed file keeps fewer features (the
  // first tables.feature_count of each row are written); 0: the file's width.
  size_t run_feature_count = 0;

  Impl(Tables t, const WriterOptions& o) : tables(std::move(t)), options(o) {
    games_on_disk = rows(tables.games.get());
    if (options.queue_capacity == 0) options.queue_capacity = 1;
    thread = std::thread([this] { run(); });
  }

  ~Impl() {
    try {
      close();
    } catch (const std::exception& e) {
      log::warn("campaign writer for '" + tables.path + "' failed while closing: " + e.what());
    } catch (...) {
      log::warn("campaign writer for '" + tables.path + "' failed while closing");
    }
  }

  // Caller side. Requires the mutex.
  void rethrow_error() {
    if (!error) return;
    error_reported = true;
    std::rethrow_exception(error);
  }

  void push(Item item) {
    std::unique_lock lock(mutex);
    if (closed) {
      throw std::logic_error("CampaignWriter: append after close of '" + tables.path + "'");
    }
    space_ready.wait(lock, [&] { return queue.size() < options.queue_capacity || error; });
    rethrow_error();
    queue.push_back(std::move(item));
    lock.unlock();
    items_ready.notify_one();
  }

  void flush() {
    uint64_t ticket = 0;
    {
      std::lock_guard lock(mutex);
      ticket = ++flush_requested;
    }
    push(FlushItem{ticket});
    std::unique_lock lock(mutex);
    flushed.wait(lock, [&] { return flush_done >= ticket || error; });
    rethrow_error();
  }

  void close() {
    {
      std::lock_guard lock(mutex);
      if (closed) return;
      closed = true;
      stopping = true;
    }
    items_ready.notify_all();
    if (thread.joinable()) thread.join();
    std::exception_ptr close_error;
    try {
      tables.close();
    } catch (...) {
      // After a failed write the file is abandoned: closing writes to memory only, and when that
      // fails too (a file size limit applies to memory files as well) the file on disk is still
      // the one the error already described.
      if (!tables.abandoned) close_error = std::current_exception();
    }
    std::lock_guard lock(mutex);
    if (error && !error_reported) {
      error_reported = true;
      std::rethrow_exception(error);
    }
    if (close_error) std::rethrow_exception(close_error);
  }

  // Writer thread.
  void run() {
    init_thread();
    try {
      using Clock = std::chrono::steady_clock;
      const auto period = std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(std::max(options.flush_seconds, 0.0)));
      auto last_flush = Clock::now();
      bool dirty = false;
      std::vector<Item> batch;
      for (;;) {
        bool stop = false;
        batch.clear();
        {
          std::unique_lock lock(mutex);
          const auto ready = [&] { return !queue.empty() || stopping; };
          if (dirty) {
            items_ready.wait_until(lock, last_flush + period, ready);
          } else {
            items_ready.wait(lock, ready);
          }
          while (!queue.empty()) {
            batch.push_back(std::move(queue.front()));
            queue.pop_front();
          }
          stop = stopping;
        }
        space_ready.notify_all();
        uint64_t ticket = 0;
        dirty |= write(batch, &ticket);
        const auto now = Clock::now();
        if (dirty && (ticket || stop || now - last_flush >= period)) {
          publish_games();
          dirty = false;
          last_flush = now;
        }
        if (ticket) {
          std::lock_guard lock(mutex);
          flush_done = ticket;
        }
        if (ticket) flushed.notify_all();
        if (stop) break;
      }
    } catch (const H5Error& e) {
      // Writes abandon the file when they fail (a failed read of a row count did not yet): from
      // here on it holds games_on_disk games, whatever HDF5 does while closing it.
      tables.abandon();
      fail_with(std::make_exception_ptr(CampaignWriteError(
          "cannot write '" + tables.path + "': " + cause_of(e) + "; the file keeps " +
              std::to_string(games_on_disk) + " complete games",
          e.stack(), e.system_error(), games_on_disk)));
    } catch (...) {
      fail_with(std::current_exception());
    }
  }

  // Writer thread: makes `failure` the error every later call rethrows.
  void fail_with(std::exception_ptr failure) {
    {
      std::lock_guard lock(mutex);
      error = std::move(failure);
    }
    space_ready.notify_all();
    flushed.notify_all();
  }

  // Writes one batch, except its /games rows, which wait in `pending` for publish_games().
  // Returns whether anything changed; sets *ticket to the batch's last flush request.
  bool write(std::vector<Item>& batch, uint64_t* ticket) {
    std::vector<PlyRow> plies;
    std::vector<PositionRow> positions;
    std::vector<float> features;
    std::vector<PerfRow> perf;
    const size_t pending_before = pending.size() + pending_pairs.size();
    for (auto& item : batch) {
      if (auto* pair = std::get_if<MatchPairRow>(&item)) {
        pending_pairs.push_back(*pair);
      } else if (auto* g = std::get_if<GameItem>(&item)) {
        pending.push_back(g->game);
        plies.insert(plies.end(), g->plies.begin(), g->plies.end());
        positions.insert(positions.end(), g->positions.begin(), g->positions.end());
        features.insert(features.end(), g->features.begin(), g->features.end());
      } else if (auto* p = std::get_if<PerfRow>(&item)) {
        perf.push_back(*p);
      } else {
        *ticket = std::get<FlushItem>(item).ticket;
      }
    }
    tables.write_plies(plies);
    tables.write_positions(positions, features);
    tables.write_perf(perf);
    return pending.size() + pending_pairs.size() > pending_before || !perf.empty();
  }

  // Writes the /games rows of the games whose plies and positions were written, after putting
  // those on disk, then puts every dataset and the file's metadata on disk (see "What readers
  // see" in the header). Done once per file flush rather than per batch: every H5Dflush rewrites
  // the partly filled compressed chunks, and the file keeps the space of each old copy.
  // Match pair rows follow the /games rows they were queued after.
  void publish_games() {
    tables.flush_game_contents();
    if (!pending.empty()) {
      tables.write_games(pending);
      pending.clear();
    }
    if (!pending_pairs.empty()) {
      tables.write_match_pairs(pending_pairs);
      pending_pairs.clear();
    }
    // games_on_disk follows each successful flush of /games at once: a failure in a later
    // dataset's flush leaves those games on disk, and the error must count them.
    tables.commit({&tables.games});
    games_on_disk = rows(tables.games.get());
    tables.commit({&tables.match_pairs, &tables.perf});
    tables.flush();
  }
};

CampaignWriter::CampaignWriter(FileLock lock, std::unique_ptr<Impl> impl)
    : lock_(std::move(lock)), impl_(std::move(impl)) {}
CampaignWriter::CampaignWriter(CampaignWriter&&) noexcept = default;
// The file is closed before its lock is dropped.
CampaignWriter& CampaignWriter::operator=(CampaignWriter&& other) noexcept {
  impl_ = std::move(other.impl_);
  lock_ = std::move(other.lock_);
  return *this;
}
CampaignWriter::~CampaignWriter() = default;

std::string write_target(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p = path;
  std::error_code error;
  // A loop of links stops here; opening the file then reports it.
  for (int hops = 0; hops < 40 && fs::is_symlink(p, error); ++hops) {
    const fs::path next = fs::read_symlink(p, error);
    if (error) break;
    p = next.is_absolute() ? next : p.parent_path() / next;
  }
  return p.string();
}

FileLock lock_for_writing(const std::string& path) {
  const std::string lock_path = write_target(path) + ".lock";
  try {
    return FileLock::acquire(lock_path, "'" + path + "'");
  } catch (const std::system_error& e) {
    // A folder that cannot take the lock file (read-only, missing, a name too long) is a path
    // that cannot be used: bad input; a full disk or an I/O error is a failure while working.
    const int error = e.code().value();
    const std::string message = "cannot write '" + path + "': " + e.what();
    if (is_system_failure(error)) throw H5Error(message, {}, error);
    throw H5FileError(message, {}, error);
  }
}

namespace {

// Throws unless `lock` is the one lock_for_writing(path) takes.
void check_lock(const FileLock& lock, const std::string& path) {
  if (!lock.held() || lock.path() != write_target(path) + ".lock")
    throw std::invalid_argument("campaign writer for '" + path + "': not locked for writing");
}

// Builds the campaign file for `path` as `temp` (fill writes its rows), starts SWMR writing on it,
// which flushes it whole, and renames it to `target` (write_target(path)) while this writer holds
// it: `target` is never a partial file, and no reader can open it, and so hold HDF5's own file
// lock, before the writer has it. The permission bits of a file it replaces are kept. On failure
// `temp` is removed.
Tables build_and_install(const std::string& path, const std::string& temp, const FileMeta& meta,
                         const std::function<void(Tables&)>& fill) {
  const std::string target = write_target(path);
  Tables tables;
  try {
    tables = Tables::create(temp, meta, false);
    if (!meta.identity.empty()) write_attribute(tables.file.get(), "identity", meta.identity);
    fill(tables);
    start_swmr_write(tables.file, temp);
    install_file(temp, target);
  } catch (...) {
    try {
      tables.close();
    } catch (...) {
    }
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    throw;
  }
  tables.path = path;
  return tables;
}

}  // namespace

CampaignWriter CampaignWriter::create(const std::string& path, const FileMeta& meta,
                                      const WriterOptions& options) {
  return create(lock_for_writing(path), path, meta, options);
}

CampaignWriter CampaignWriter::create(FileLock lock, const std::string& path, const FileMeta& meta,
                                      const WriterOptions& options) {
  init_thread();
  check_lock(lock, path);
  const std::string target = write_target(path);
  std::error_code error;
  if (!options.overwrite && std::filesystem::exists(std::filesystem::symlink_status(target, error)))
    throw H5Error("cannot create '" + path + "': it exists");
  try {
    Tables tables = build_and_install(path, target + ".create.tmp", meta, [](Tables&) {});
    return CampaignWriter(std::move(lock), std::make_unique<Impl>(std::move(tables), options));
  } catch (const H5FileError&) {
    throw;  // the path was unusable: nothing was created
  } catch (const H5Error& e) {
    // A full disk while creating: the temporary file is gone (build_and_install); one line.
    throw H5Error("cannot create '" + path + "': " + cause_of(e), e.stack(), e.system_error());
  }
}

namespace {

void check_compatible(const std::string& path, const FileMeta& stored, const FileMeta& meta) {
  const auto mismatch = [&](const std::string& what) {
    throw CampaignError("cannot resume '" + path + "': its " + what + " differs from this run's");
  };
  if (stored.game != meta.game) mismatch("game ('" + stored.game + "')");
  if (stored.seed != meta.seed) mismatch("seed (" + std::to_string(stored.seed) + ")");
  // A file written before features were appended to the game's list (names are only ever
  // appended) resumes with its own, shorter list: the rows keep its width (resume()).
  const bool prefix = stored.feature_names.size() <= meta.feature_names.size() &&
                      std::equal(stored.feature_names.begin(), stored.feature_names.end(),
                                 meta.feature_names.begin());
  if (!prefix) mismatch("feature_names");
  if (stored.match.has_value() != meta.match.has_value())
    throw CampaignError("cannot resume '" + path + "': it is " +
                        (stored.match ? "a match file" : "not a match file") + ", this run " +
                        (meta.match ? "plays a match" : "plays a campaign"));
}

// "'a', 'b' and 'c'".
std::string join_names(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) text += i + 1 == names.size() ? " and " : ", ";
    text += "'" + names[i] + "'";
  }
  return text;
}

// Copies the complete games of `from` into `to`, block by block (files can outgrow memory).
void copy_complete(const CampaignReader& from, Tables& to, ResumeReport& report) {
  constexpr uint64_t kBlock = 16384;
  for (uint64_t first = 0; first < from.games_count(); first += kBlock) {
    std::vector<GameRow> kept;
    for (const GameRow& row : from.games(first, kBlock)) {
      if (row.game_id != kNoGame && report.completed_games.insert(row.game_id).second) {
        kept.push_back(row);
      } else {
        ++report.dropped_rows;
      }
    }
    to.write_games(kept);
  }
  for (uint64_t first = 0; first < from.plies_count(); first += kBlock) {
    std::vector<PlyRow> kept;
    for (const PlyRow& row : from.plies(first, kBlock)) {
      if (report.completed_games.contains(row.game_id)) {
        kept.push_back(row);
      } else {
        ++report.dropped_plies;
      }
    }
    to.write_plies(kept);
  }
  const size_t width = to.feature_count;
  for (uint64_t first = 0; first < from.positions_count(); first += kBlock) {
    const std::vector<PositionRow> rows = from.positions(first, kBlock);
    const std::vector<float> values = from.features(first, kBlock);
    std::vector<PositionRow> kept;
    std::vector<float> kept_values;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (report.completed_games.contains(rows[i].game_id)) {
        kept.push_back(rows[i]);
        kept_values.insert(kept_values.end(), values.begin() + i * width,
                           values.begin() + (i + 1) * width);
      } else {
        ++report.dropped_positions;
      }
    }
    to.write_positions(kept, kept_values);
  }
  for (uint64_t first = 0; first < from.perf_count(); first += kBlock) {
    std::vector<PerfRow> kept;
    for (const PerfRow& row : from.perf(first, kBlock)) {
      if (row.batch != kNoGame) {
        kept.push_back(row);
      } else {
        ++report.dropped_rows;
      }
    }
    to.write_perf(kept);
  }
  // The pairs in order, as long as both games of each are complete.
  std::vector<MatchPairRow> pairs;
  for (const MatchPairRow& row : from.match_pairs()) {
    if (row.pair_id != pairs.size() || !report.completed_games.contains(2 * row.pair_id) ||
        !report.completed_games.contains(2 * row.pair_id + 1))
      break;
    pairs.push_back(row);
  }
  if (to.match_pairs) to.write_match_pairs(pairs);
  report.match_pairs = pairs.size();
}

}  // namespace

CampaignWriter CampaignWriter::resume(const std::string& path, const FileMeta& meta,
                                      const WriterOptions& options) {
  return resume(lock_for_writing(path), path, meta, options);
}

CampaignWriter CampaignWriter::resume(FileLock lock, const std::string& path, const FileMeta& meta,
                                      const WriterOptions& options) {
  init_thread();
  check_lock(lock, path);
  ResumeReport report;
  const CampaignReader old(path);
  // Appending format-2 rows to a format-1 file would mix two layouts in one file, and rewriting
  // it here would change the format of a file under its owner's tools without asking.
  if (old.format_version() != kCampaignFormatVersion)
    throw CampaignError("cannot resume '" + path + "': it is a format-" +
                        std::to_string(old.format_version()) +
                        " campaign file, which this build reads but does not extend; run "
                        "`selfplay convert " +
                        path + " NEW` and resume NEW");
  // Resuming an index would replace it by a standalone file of the games it shows, and the
  // parts, still there, would go on without it.
  if (!old.index_parts().empty())
    throw CampaignError("cannot resume '" + path + "': it is an index over the part files " +
                        join_names(old.index_parts()) +
                        "; resume each part, then write the index again");
  check_compatible(path, old.meta(), meta);
  FileMeta kept = meta;
  kept.feature_names = old.meta().feature_names;  // a prefix of meta's (check_compatible)
  Tables tables = build_and_install(path, write_target(path) + ".resume.tmp", kept,
                                    [&](Tables& copy) { copy_complete(old, copy, report); });
  auto impl = std::make_unique<Impl>(std::move(tables), options);
  impl->run_feature_count = meta.feature_names.size();
  impl->report = std::move(report);
  return CampaignWriter(std::move(lock), std::move(impl));
}

// ---- convert_to_current

namespace {

// The objects of a format-1 file and the attributes of each (identity is optional): all that
// convert_to_current copies.
const std::map<std::string, std::set<std::string>>& format1_layout() {
  static const std::map<std::string, std::set<std::string>> layout = {
      {"/",
       {"format_version", "game", "rules", "config", "seed", "git_commit", "backend", "device",
        "host", "start_time", "identity"}},
      {"/games", {}},
      {"/plies", {}},
      {"/perf", {}},
      {"/positions", {}},
      {"/positions/game_id", {}},
      {"/positions/ply", {}},
      {"/positions/side_to_move", {}},
      {"/positions/result", {}},
      {"/positions/features", {"feature_names"}},
      {"/match",
       {"engine_a", "engine_b", "pairs", "sprt_enabled", "sprt_elo0", "sprt_elo1", "sprt_alpha",
        "sprt_beta", "sprt_lower", "sprt_upper"}},
      {"/match/pairs", {}},
  };
  return layout;
}

// Throws CampaignError when the file holds an object or attribute that format 1 does not define
// (a note a user added with h5py, say): the copy would silently lose it.
void check_format1_layout(const std::string& path) {
  const File file = open_for_reading(path);
  const auto& layout = format1_layout();
  const std::string advice =
      ", which format 1 does not define and convert would not copy: remove it, convert, and add "
      "it to the new file by hand";
  for (const auto& [name, type] : objects_of(file, path)) {
    const auto known = layout.find(name);
    if (known == layout.end())
      throw CampaignError("cannot convert '" + path + "': it holds " + name + advice);
    const Object object(
        check_id(H5Oopen(file.get(), name.c_str(), H5P_DEFAULT), "open object", name));
    for (const std::string& attribute : attribute_names(object.get(), name))
      if (!known->second.contains(attribute))
        throw CampaignError("cannot convert '" + path + "': " + name + " has the attribute " +
                            attribute + advice);
  }
}

// Copies every row of `from` into `to` as it is, block by block.
void copy_all(const CampaignReader& from, Tables& to, ConvertReport& report) {
  constexpr uint64_t kBlock = 16384;
  for (uint64_t first = 0; first < from.games_count(); first += kBlock) {
    const std::vector<GameRow> rows = from.games(first, kBlock);
    to.write_games(rows);
    report.games += rows.size();
  }
  for (uint64_t first = 0; first < from.plies_count(); first += kBlock) {
    const std::vector<PlyRow> rows = from.plies(first, kBlock);
    to.write_plies(rows);
    report.plies += rows.size();
  }
  for (uint64_t first = 0; first < from.positions_count(); first += kBlock) {
    const std::vector<PositionRow> rows = from.positions(first, kBlock);
    to.write_positions(rows, from.features(first, kBlock));
    report.positions += rows.size();
  }
  for (uint64_t first = 0; first < from.perf_count(); first += kBlock) {
    const std::vector<PerfRow> rows = from.perf(first, kBlock);
    to.write_perf(rows);
    report.perf += rows.size();
  }
  if (to.match_pairs) {
    const std::vector<MatchPairRow> rows = from.match_pairs();
    to.write_match_pairs(rows);
    report.match_pairs = rows.size();
  }
}

}  // namespace

ConvertReport convert_to_current(const std::string& from, const std::string& to) {
  init_thread();
  const CampaignReader old(from);
  if (old.format_version() == kCampaignFormatVersion)
    throw CampaignError("'" + from + "' is already campaign format " +
                        std::to_string(kCampaignFormatVersion) + ": nothing to convert");
  reading(from, [&] { check_format1_layout(from); });
  return copy_campaign(old, to, "convert");
}

ConvertReport copy_campaign(const CampaignReader& from, const std::string& to,
                            const std::string& suffix) {
  init_thread();
  check_campaign_path(to);
  FileLock lock = lock_for_writing(to);
  const std::string target = write_target(to);
  std::error_code error;
  if (std::filesystem::exists(std::filesystem::symlink_status(target, error)))
    throw H5FileError("cannot write '" + to + "': it exists (" + suffix + " writes a new file)");
  ConvertReport report;
  report.from_version = from.format_version();
  try {
    Tables tables = build_and_install(to, target + "." + suffix + ".tmp", from.meta(),
                                      [&](Tables& copy) { copy_all(from, copy, report); });
    tables.close();
  } catch (const H5FileError&) {
    throw;  // a damaged input, or an unusable output path: nothing was written
  } catch (const H5Error& e) {
    // A full disk: the temporary file is gone (build_and_install); one line.
    throw H5Error("cannot write '" + to + "': " + cause_of(e) + "; nothing was written", e.stack(),
                  e.system_error());
  }
  return report;
}

void CampaignWriter::append_game(const GameRow& game, std::vector<PlyRow> plies,
                                 std::vector<PositionRow> positions, std::vector<float> features) {
  if (game.game_id == kNoGame) throw std::invalid_argument("append_game: game_id is kNoGame");
  for (const PlyRow& p : plies) {
    if (p.game_id != game.game_id) throw std::invalid_argument("append_game: ply of another game");
  }
  for (const PositionRow& p : positions) {
    if (p.game_id != game.game_id) {
      throw std::invalid_argument("append_game: position of another game");
    }
  }
  const size_t width = impl_->tables.feature_count;
  if (impl_->run_feature_count > width &&
      features.size() == positions.size() * impl_->run_feature_count) {
    std::vector<float> kept(positions.size() * width);
    for (size_t i = 0; i < positions.size(); ++i)
      std::copy_n(features.begin() + static_cast<std::ptrdiff_t>(i * impl_->run_feature_count),
                  width, kept.begin() + static_cast<std::ptrdiff_t>(i * width));
    features = std::move(kept);
  }
  if (features.size() != positions.size() * impl_->tables.feature_count) {
    throw std::invalid_argument("append_game: " + std::to_string(features.size()) +
                                " feature values for " + std::to_string(positions.size()) +
                                " positions of " + std::to_string(impl_->tables.feature_count) +
                                " features");
  }
  impl_->push(GameItem{game, std::move(plies), std::move(positions), std::move(features)});
  if (++impl_->games_appended == impl_->stop_after_games) {
    flush();
    std::raise(SIGSTOP);
  }
}

void CampaignWriter::append_perf(const PerfRow& row) { impl_->push(row); }
void CampaignWriter::append_match_pair(const MatchPairRow& row) {
  if (!impl_->tables.match_pairs)
    throw std::logic_error("append_match_pair: '" + impl_->tables.path + "' is not a match file");
  impl_->push(row);
}
void CampaignWriter::flush() { impl_->flush(); }
void CampaignWriter::close() {
  impl_->close();
  lock_.release();
}
const std::string& CampaignWriter::path() const { return impl_->tables.path; }
size_t CampaignWriter::feature_count() const { return impl_->tables.feature_count; }
const ResumeReport& CampaignWriter::resume_report() const { return impl_->report; }

// ---- schema_dump

namespace {

std::string list(const std::vector<hsize_t>& values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) text += ", ";
    text += values[i] == H5S_UNLIMITED ? std::string("unlimited") : std::to_string(values[i]);
  }
  return text + "]";
}

std::string describe_space(hid_t space, bool with_max, std::string_view name) {
  if (H5Sget_simple_extent_type(space) == H5S_SCALAR) return "scalar";
  if (H5Sget_simple_extent_type(space) == H5S_NULL) return "null";
  const int rank = H5Sget_simple_extent_ndims(space);
  if (rank < 0) fail("get rank", name);
  std::vector<hsize_t> current(static_cast<size_t>(rank)), maximum(static_cast<size_t>(rank));
  check(H5Sget_simple_extent_dims(space, current.data(), maximum.data()), "get dims", name);
  return "dims=" + list(current) + (with_max ? " max=" + list(maximum) : "");
}

std::string describe_attributes(hid_t object, std::string_view name) {
  std::string text;
  for (const auto& attribute_name : attribute_names(object, name)) {
    const Attribute attribute(check_id(H5Aopen(object, attribute_name.c_str(), H5P_DEFAULT),
                                       "open attribute", attribute_name));
    const Datatype type(check_id(H5Aget_type(attribute.get()), "get type", attribute_name));
    const Dataspace space(check_id(H5Aget_space(attribute.get()), "get space", attribute_name));
    text += "  @" + attribute_name + ": " + describe_type(type.get(), false) + " " +
            describe_space(space.get(), false, attribute_name) + "\n";
  }
  return text;
}

std::string describe_dataset(hid_t dataset, std::string_view name) {
  const Datatype type(check_id(H5Dget_type(dataset), "get type", name));
  const Dataspace space(check_id(H5Dget_space(dataset), "get space", name));
  const PropList dcpl(check_id(H5Dget_create_plist(dataset), "get creation list", name));
  std::string text = " ";
  text += describe_space(space.get(), true, name);
  if (H5Pget_layout(dcpl.get()) == H5D_CHUNKED) {
    std::vector<hsize_t> chunk(32);
    const int rank = H5Pget_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data());
    if (rank < 0) fail("get chunk", name);
    chunk.resize(static_cast<size_t>(rank));
    text += " chunk=" + list(chunk);
  }
  const int filters = H5Pget_nfilters(dcpl.get());
  if (filters > 0) {
    text += " filters=[";
    for (int i = 0; i < filters; ++i) {
      unsigned flags = 0;
      size_t values = 8;
      unsigned value[8] = {};
      unsigned config = 0;
      char filter_name[64] = "";
      const H5Z_filter_t id = H5Pget_filter2(dcpl.get(), static_cast<unsigned>(i), &flags, &values,
                                             value, sizeof filter_name, filter_name, &config);
      if (id < 0) fail("get filter", name);
      text += i ? ", " : "";
      if (id == H5Z_FILTER_DEFLATE) {
        text += "deflate(";
        text += std::to_string(values > 0 ? value[0] : 0);
        text += ')';
      } else if (id == H5Z_FILTER_SHUFFLE) {
        text += "shuffle";
      } else {
        text += "filter ";
        text += std::to_string(id);
      }
    }
    text += "]";
  }
  return text + "\n  type " + describe_type(type.get()) + "\n";
}

}  // namespace

std::string schema_dump(const std::string& path) {
  init_thread();
  const File file = open_for_reading(path);
  std::string text;
  for (const auto& [name, type] : objects_of(file, path)) {
    const Object object(
        check_id(H5Oopen(file.get(), name.c_str(), H5P_DEFAULT), "open object", name));
    const hid_t id = object.get();
    switch (type) {
      case H5O_TYPE_GROUP:
        text += name + " group\n";
        break;
      case H5O_TYPE_DATASET:
        text += name + " dataset";
        text += describe_dataset(id, name);
        break;
      case H5O_TYPE_NAMED_DATATYPE:
        text += name + " datatype\n";
        break;
      default:
        text += name + " unknown\n";
        break;
    }
    text += describe_attributes(id, name);
  }
  return text;
}

}  // namespace sp::io
