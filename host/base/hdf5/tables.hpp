// The open objects of one campaign file (its datasets, groups and row types) and the helpers that
// read and write its rows and attributes: what the reader, the writer thread, resume, conversion
// and the schema dump share. Internal to host/base/hdf5; the API is campaign_file.hpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/h5.hpp"

namespace sp::io::internal {

// In-memory compound types of the row structs (host layout, padding included); the files store
// their packed copies. game1 and ply1 are format 1's rows (format1.hpp), for reading old files.
struct RowTypes {
  // game2_before_termination: /games of format-2 files written before the termination column
  // (read into GameRow, whose termination stays 0); ply2: format 2's /plies (no search columns).
  Datatype game, ply, candidate, perf, pair, game1, ply1, game2_before_termination, ply2;

  RowTypes();
};

// The open objects of one campaign file, for the writer thread, resume and the reader.
struct Tables {
  std::string path;
  File file;
  Group positions, match;  // match: match files only
  Dataset games, plies, candidates, position_game_id, position_ply, position_side, position_result,
      features, perf, match_pairs;
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

  // A new file at path with every table empty (exclusive: fail if it exists).
  static Tables create(const std::string& path, const FileMeta& meta, bool exclusive);
  // An existing campaign file, checked against the layout of its format; for_append opens it for
  // SWMR writing (format 2 only).
  static Tables open(const std::string& path, bool for_append);

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
  void write_candidates(const std::vector<CandidateRow>& rows) {
    guarded(
        [&] { append_rows(candidates.get(), types.candidate.get(), rows.data(), rows.size()); });
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
    commit({&plies, &candidates, &features, &position_ply, &position_side, &position_result,
            &position_game_id});
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
    for (Dataset* d : {&games, &plies, &candidates, &position_game_id, &position_ply,
                       &position_side, &position_result, &features, &perf, &match_pairs}) {
      d->reset();
    }
    positions.reset();
    match.reset();
    file.close(path);
  }
};

// The root attributes, /positions/features' names and /match of an open file as FileMeta.
FileMeta read_meta(hid_t root, const Tables& tables);

// Every object of an open file, in name order: its path ("/", "/games", "/positions/ply") and kind.
std::vector<std::pair<std::string, H5O_type_t>> objects_of(const File& file, std::string_view path);

// The names of an object's attributes, in name order.
std::vector<std::string> attribute_names(hid_t object, std::string_view name);

// The cause in an H5Error: the system's message, else the whole (one-line) message.
inline std::string cause_of(const H5Error& e) {
  return e.system_error() ? std::strerror(e.system_error()) : e.what();
}

// [first, first + count) clipped to `total` rows.
inline std::pair<uint64_t, uint64_t> clip(uint64_t total, uint64_t first, uint64_t count) {
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

}  // namespace sp::io::internal
