// Training positions from campaign HDF5 files (host/base/hdf5/campaign_file.hpp): the /positions
// rows of finished games, their feature columns in the order the weights use, their results and a
// game key. Every problem with an input is an sp::InputError that names the file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/research/tune/texel.hpp"
#include "host/research/tune/tune_config.hpp"

namespace sp::tune {

// The files named by config.data.inputs: a pattern with glob characters (* ? [) expands to its
// matches in name order, any other pattern must name an existing file. A file named twice is read
// once. Throws ConfigError at the pattern's line for a glob that matches nothing or a missing file.
std::vector<std::string> expand_inputs(const TuneConfig& config);

// A file left out because an earlier one holds the same data.
struct DuplicateFile {
  std::string path, same_as;
  bool same_inode = false;  // the same file under another name (a hard link); else a copy
};

struct DistinctFiles {
  std::vector<std::string> files;         // in the order given, each distinct file once
  std::vector<DuplicateFile> duplicates;  // the rest
};

// Drops every file that is the same file as an earlier one (device and inode) or holds the same
// bytes (a copy), so that no position is counted twice. Only files of equal size are compared,
// and a comparison stops at the first difference. A file that cannot be read is kept (reading
// it later says what is wrong).
DistinctFiles distinct_files(const std::vector<std::string>& files);

// The game of the files: the `game` attribute of each (io::FileMeta::game), which must be the same
// in all. Throws InputError naming a file that cannot be read, or "WHERE: the inputs hold
// different games: ..." naming two files of different games (where: "tune.yaml: key
// 'data.inputs'"). Precondition: files is not empty.
struct InputsGame {
  std::string game;
  std::string file;  // the first file, for messages
};
InputsGame inputs_game(const std::vector<std::string>& files, const std::string& where);

// The campaign or match file at path, or an InputError saying why it is none (missing, a folder,
// not a selfplay campaign file).
io::CampaignReader open_campaign(const std::string& path);

// The key of a game in Positions::games: campaigns differ by seed, so (campaign seed, game id)
// names a game across files. Two files of the same campaign seed share keys, which keeps a game
// stored twice on one side of the validation split.
uint64_t game_key(uint64_t campaign_seed, uint64_t game_id);

struct FileSummary {
  std::string path;
  uint64_t positions = 0;        // rows taken
  uint64_t games = 0;            // games they come from
  uint64_t unfinished_rows = 0;  // rows skipped: no /games row (yet) or never written (fill)
  uint64_t skipped_rows = 0;     // rows of finished games left out by skip (nonzero features)
};

struct LoadedPositions {
  Positions positions;
  std::vector<FileSummary> files;
};

// Reads every file's /positions. feature_names gives the columns wanted, in order; a file must have
// exactly these names (in any order), or the InputError lists the names only in the file and only
// in feature_names; but a file written before features were appended may lack those with
// may_lack[j] set (no weight on them, nothing fitted: their column reads 0). Rows of games without
// a /games row are skipped (a live or crashed campaign); the rest must have a result in [0, 1] and
// finite features. Rows where any feature of skip (indices into feature_names) is nonzero are left
// out (data.skip_positions_with); then positions_per_game > 0 keeps that many positions of each
// game, chosen by a hash of (seed, game, ply); 0 keeps all.
LoadedPositions load_positions(const std::vector<std::string>& files,
                               const std::vector<std::string>& feature_names,
                               uint32_t positions_per_game, uint64_t seed,
                               const std::vector<bool>& may_lack = {},
                               const std::vector<size_t>& skip = {});

}  // namespace sp::tune
