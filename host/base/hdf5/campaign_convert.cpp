#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <system_error>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/file_install.hpp"
#include "host/base/hdf5/tables.hpp"

namespace sp::io {

using namespace internal;

namespace {

// The objects of a format-1 or format-2 file and the attributes of each (identity and program are
// optional; format 1 has no program): all that convert_to_current copies.
const std::map<std::string, std::set<std::string>>& old_layout() {
  static const std::map<std::string, std::set<std::string>> layout = {
      {"/",
       {"format_version", "game", "rules", "config", "seed", "git_commit", "backend", "device",
        "host", "start_time", "identity", "program"}},
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

// Throws CampaignError when the format-`version` file holds an object or attribute that its
// format does not define (a note a user added with h5py, say): the copy would silently lose it.
void check_old_layout(const std::string& path, uint32_t version) {
  const File file = open_for_reading(path);
  const auto& layout = old_layout();
  const std::string advice = ", which format " + std::to_string(version) +
                             " does not define and convert would not copy: remove it, convert, "
                             "and add it to the new file by hand";
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
  for (uint64_t first = 0; first < from.candidates_count(); first += kBlock) {
    const std::vector<CandidateRow> rows = from.candidates(first, kBlock);
    to.write_candidates(rows);
    report.candidates += rows.size();
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
  reading(from, [&] { check_old_layout(from, old.format_version()); });
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

}  // namespace sp::io
