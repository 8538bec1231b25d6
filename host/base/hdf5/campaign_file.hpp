// The HDF5 file of a self-play campaign: a writer that appends games from a background thread
// while readers follow along (SWMR), crash recovery by resume(), a reader, conversion of older
// formats, and a schema dump. This header is the API; each job has its own source file:
// campaign_writer.cpp (the writer thread and create), campaign_resume.cpp, campaign_reader.cpp,
// campaign_convert.cpp (format 1 and copies), schema_dump.cpp, file_install.cpp (temporary files,
// rename, locks), over tables.hpp (the open datasets and row types they share).
//
// Layout (format_version 3; every dataset 1-D unless noted, chunked, shuffle + gzip, unlimited):
//   /            attributes format_version, game (its name: "ewn"), rules (the game's rules as
//                text, "capture_own=true substitution=nearest" for EWN), config, seed,
//                git_commit, backend, device, host, start_time, identity (optional); an
//                index over the files of one campaign (campaign_index.hpp) adds parts, and its
//                datasets are virtual
//   /games       GameRow compound (records.hpp): opening (the start, in the game's notation),
//                first_player, winner, plies, duration_s, seed, game_id, and record, a summary
//                of the moves that record_truncated says was shortened; a game's row is written
//                only after its plies and positions are on disk, so a /games row always means a
//                complete game
//   /plies       PlyRow compound: one row per move, chance (-1 in games without chance) and move
//                in the game's notation. The full game is always here: every reader that needs
//                every move (export, verify, the notebooks) rebuilds the record from /plies,
//                never from the summary in /games. Format 3 adds what the search thought: search
//                (its kind), depth, score, nodes, played, think_ms and pv (records.hpp)
//   /candidates  CandidateRow compound (format 3): the root moves a search weighed at a ply,
//                rank 0 its best, written with the game's plies
//   /positions/  game_id, ply, side_to_move, result, features (N x F float32, attribute
//                feature_names)
//   /perf        PerfRow compound
//   /match       match files only (FileMeta::match): attributes engine_a, engine_b, pairs,
//                sprt_enabled, sprt_elo0, sprt_elo1, sprt_alpha, sprt_beta, sprt_lower,
//                sprt_upper; /match/pairs MatchPairRow compound, in pair order, each row written
//                together with or after the /games rows of its two games
// Format 1 (every file before format 2; EWN only) differs in /games and /plies alone (format1.hpp):
// /games had setup (string[16]) where format 2 has opening, /plies had die (uint8, 1..6) where
// format 2 has chance, and move was string[8]. CampaignReader reads every format and presents
// current rows; the writer writes the current format only, so resume() refuses an older file and
// convert_to_current() makes a current copy of it (`selfplay convert`). Format 2 (December 2026
// and before) lacks /candidates and the search columns of /plies, which read as not recorded
// (search 0, depth -1, the rest 0 and ""); it is read and converted the same way.
//
// What readers see. HDF5 appends by growing a dataset's extent (object header metadata) and then
// writing its chunks (raw data); on a full disk the grown extent, rewritten in place, can reach the
// file while the chunks, which need new space, do not, and readers would see fill-value rows
// (game_id == kNoGame) as real ones. The writer therefore never lets an extent reach the file
// before its rows:
//   - every dataset is put on disk by its own H5Dflush, which writes the raw data first and the
//     dataset's metadata (index, then extent) only when that succeeded; H5Fflush, which would
//     write all metadata even after a failed raw write, runs only once every dataset is flushed;
//   - plies and positions are flushed before the /games rows that refer to them are written;
//   - after any failed write, abandon_writes() (h5.hpp) sends everything HDF5 writes later,
//     including what it flushes while closing, to memory: the file keeps exactly what the
//     successful flushes put there, like after a crash. No extent is shrunk back: shrinking would
//     itself need a flush, which fails on a full disk for the same reason.
// A /games row on disk is thus a complete game, and every extent covers written rows. SWMR keeps
// this safe: under SWMR writing HDF5 never frees or reuses the space of a chunk it rewrites, so a
// failed rewrite cannot damage rows already on disk. The one window left is HDF5's metadata cache
// evicting a grown extent between flushes, which it does only under memory pressure far beyond
// the few entries one flush interval dirties; a crash (kill -9) in that window, or a file written
// by older versions, can leave fill-value rows: game_id (or batch) == kNoGame, features NaN.
// Readers should ignore such rows (resume() drops them), read the /positions columns up to the
// shortest one, and when following a live file refresh /games before /plies and /positions.
//
// Reading a file that a writer holds, or that a writer left behind when it crashed, needs SWMR
// read mode (h5py: File(path, "r", swmr=True)). A plain read-only open of a crashed file fails
// with "file is already open for write"; `h5clear -s path` clears the superblock's status flags
// and makes a plain open work again. Neither step repairs anything: resume() does that.
//
// One writer per file: create() and resume() hold a lock file, `<file>.lock` beside the file
// (beside the target of a symbolic link), from before the file exists until the writer is
// closed, and refuse while another writer holds it. resume() writes a new file and renames it
// over the old one, so a reader that keeps the old file open across a resume sees no later game:
// it has to reopen the path.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/base/hdf5/errors.hpp"
#include "host/base/hdf5/records.hpp"
#include "host/base/system/atomic_file.hpp"
#include "host/base/system/system.hpp"

namespace sp::io {

namespace internal {
struct Tables;  // tables.hpp
}  // namespace internal

// The format this build writes; CampaignReader also reads formats 1 (format1.hpp) and 2.
inline constexpr uint32_t kCampaignFormatVersion = 3;
inline constexpr uint32_t kFormatWithoutSearch = 2;  // before /candidates and the search columns

// A file that is valid HDF5 but not a campaign this code can read or continue. Bad input (exit
// code 2), like H5FileError (h5.hpp) for paths that are not usable HDF5 files at all.
class CampaignError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writing a campaign file failed (a full disk, a file size limit, an I/O error); raised by the
// writer's calls after the failure. what(): "cannot write '<path>': <cause>; the file keeps <n>
// complete games". The file holds exactly those games, readable (SWMR) and resumable.
class CampaignWriteError : public H5Error {
 public:
  CampaignWriteError(const std::string& message, std::string stack, int system_error,
                     uint64_t games_kept)
      : H5Error(message, std::move(stack), system_error), games_kept_(games_kept) {}
  uint64_t games_kept() const { return games_kept_; }

 private:
  uint64_t games_kept_ = 0;
};

// Throws H5FileError when `path` cannot hold a campaign file: a directory, a device such as
// /dev/null, a name the system rejects (too long). A missing path is fine.
void check_campaign_path(const std::string& path);

// The attributes of /match in a match file: engine A (engines.player0) against engine B.
struct MatchMeta {
  std::string engine_a, engine_b;  // the engines' descriptions
  uint64_t pairs = 0;              // pairs planned
  bool sprt_enabled = false;
  double sprt_elo0 = 0, sprt_elo1 = 0, sprt_alpha = 0, sprt_beta = 0;
  double sprt_lower = 0, sprt_upper = 0;  // LLR bounds: accept H0 at or below, H1 at or above

  friend bool operator==(const MatchMeta&, const MatchMeta&) = default;
};

struct FileMeta {
  std::string game, rules, config_text, backend, device, host, start_time, git_commit;
  // What a resume must match (the caller's text, e.g. YAML with the weights' values): the root
  // attribute `identity`, written when not empty; empty when reading a file without it.
  std::string identity;
  // The program that wrote the file, as `selfplay --version` prints it (version, commit, build
  // options): the root attribute `program`, written when not empty; empty when reading a file
  // written before it existed.
  std::string program;
  uint64_t seed = 0;
  std::vector<std::string> feature_names;  // F, the width of /positions/features
  std::optional<MatchMeta> match;          // set: a match file, with the /match group
};

struct WriterOptions {
  double flush_seconds = 10;    // the longest a written row waits for H5Fflush; 0: every batch
  size_t queue_capacity = 256;  // queued items (games, perf rows) before append_* blocks
  bool overwrite = false;       // create(): replace an existing file instead of failing
};

// What resume() kept and dropped.
struct ResumeReport {
  std::set<uint64_t> completed_games;
  uint64_t dropped_plies = 0;  // rows of games without a /games row
  uint64_t dropped_candidates = 0;
  uint64_t dropped_positions = 0;
  uint64_t dropped_rows = 0;  // unwritten (fill) or duplicate /games and /perf rows
  uint64_t match_pairs = 0;   // /match/pairs rows kept: pairs 0..n-1 with both games complete
};

// The file a write to `path` lands in: `path`, or the file its symbolic link(s) point to.
using sp::write_target;

// Takes the lock of one writer on the campaign file at `path` (see the top of this file). Throws
// FileLocked (an InputError) naming the holder while another writer has it, H5Error when the lock
// file cannot be created.
FileLock lock_for_writing(const std::string& path);

// Appends to one campaign file. All HDF5 work happens on one writer thread fed by a bounded
// queue; the append_* calls only copy and enqueue (and block while the queue is full). Plies,
// positions and perf rows are written as they arrive; /games rows are held back and written at
// each file flush, right after the plies and positions they refer to are flushed (H5Dflush), so
// SWMR readers see a game at most flush_seconds after it was appended. An error on the writer
// thread is rethrown by every later append_* and flush, and by close() unless an append already
// reported it. Move-only; not for concurrent use from several threads. A file being written is
// read from another process (SWMR), not through a second handle in this one.
class CampaignWriter {
 public:
  // Creates `path` (fails if it exists unless options.overwrite) and starts SWMR writing. The
  // empty file is made as `<target>.create.tmp` (target: write_target(path)) and renamed to the
  // target when complete, so a crash leaves either no file or a whole one; a leftover temporary
  // file is overwritten. The overwritten file's permission bits are kept.
  static CampaignWriter create(const std::string& path, const FileMeta& meta,
                               const WriterOptions& options = {});
  // The same under a lock the caller took with lock_for_writing(path) (std::invalid_argument for
  // another lock), for callers that inspect the file before writing it.
  static CampaignWriter create(FileLock lock, const std::string& path, const FileMeta& meta,
                               const WriterOptions& options = {});

  // Continues the campaign in `path`, which a writer closed or left behind when it crashed. Every
  // complete game (its /games row, and the plies and positions of that game id) and every /perf
  // row are copied to `<target>.resume.tmp`, which then replaces the target by rename() (through a
  // symbolic link, the link stays and its target is replaced; the permission bits are kept); rows
  // of unfinished games are dropped, so those games can be played again under the same ids. meta
  // becomes the new root attributes; its game, seed and feature_names must match the file's
  // (CampaignError otherwise), and so must the presence of /match. Of /match/pairs, the rows of
  // pairs 0, 1, ... are kept as long as both games of each are complete. A file that is not a
  // readable campaign (empty, cut short, damaged) is refused (H5FileError) and left as it is,
  // whatever its size. A format-1 file is refused (CampaignError naming `selfplay convert`) and
  // left alone, and so is an index (campaign_index.hpp): its parts are resumed instead.
  static CampaignWriter resume(const std::string& path, const FileMeta& meta,
                               const WriterOptions& options = {});
  static CampaignWriter resume(FileLock lock, const std::string& path, const FileMeta& meta,
                               const WriterOptions& options = {});

  CampaignWriter(CampaignWriter&&) noexcept;
  CampaignWriter& operator=(CampaignWriter&&) noexcept;
  ~CampaignWriter();  // close(), reporting an error to the log instead of throwing

  // Queues a finished game. Preconditions (std::invalid_argument otherwise): game.game_id !=
  // kNoGame, every ply and position carries game.game_id, features.size() == positions.size() * F.
  // Then calls the hook of set_game_queued_hook, when one is set.
  void append_game(const GameRow& game, std::vector<PlyRow> plies,
                   std::vector<PositionRow> positions, std::vector<float> features,
                   std::vector<CandidateRow> candidates = {});
  void append_perf(const PerfRow& row);
  // Queues a /match/pairs row; it is written at the next file flush, after the /games rows queued
  // before it. std::logic_error for a file without /match.
  void append_match_pair(const MatchPairRow& row);
  // Blocks until everything queued so far is written and flushed (H5Fflush): visible to SWMR
  // readers and safe from a crash of this process.
  void flush();
  // Drains the queue, flushes and closes the file, then releases the lock. Idempotent.
  void close();

  const std::string& path() const;
  size_t feature_count() const;
  // Empty for a created file.
  const ResumeReport& resume_report() const;

  struct Impl;

 private:
  CampaignWriter(FileLock lock, std::unique_ptr<Impl> impl);
  // The writer thread on the installed tables (create and resume).
  static CampaignWriter start(FileLock lock, internal::Tables tables, const WriterOptions& options,
                              ResumeReport report, size_t run_feature_count);
  FileLock lock_;  // declared first: released after impl_ has closed the file
  std::unique_ptr<Impl> impl_;
};

// An observer of every writer of this process: after append_game queues a game it is called with
// the writer and the number of games that writer has queued. A seam for tests that stop the CLI
// at a known point (host/app/test_hooks.cpp); none by default.
using GameQueuedHook = void (*)(CampaignWriter& writer, uint64_t games_queued);
void set_game_queued_hook(GameQueuedHook hook);

// The root attribute of an index (campaign_index.hpp) that lists its part files.
inline constexpr const char* kIndexPartsAttribute = "parts";

// Reads a campaign file, opened read-only in SWMR read mode so that it works on a file being
// written and on one left by a crashed writer (it falls back to a plain open for files without
// SWMR support). A snapshot: rows appended after opening are not seen. Reads format 1 and 2 and
// presents current rows whatever the file's format (format 1's setup as opening, its die as
// chance; the search columns of older formats as not recorded).
class CampaignReader {
 public:
  static constexpr uint64_t kAll = std::numeric_limits<uint64_t>::max();

  explicit CampaignReader(const std::string& path);
  CampaignReader(CampaignReader&&) noexcept;
  CampaignReader& operator=(CampaignReader&&) noexcept;
  ~CampaignReader();

  uint32_t format_version() const;  // the file's, 1, 2 or 3
  const FileMeta& meta() const;
  // An index (campaign_index.hpp): its part files where they were found, in its order. The
  // constructor throws CampaignError when a part is missing or holds fewer rows than the index
  // reads from it (it changed since the index was written). Empty for a plain campaign file.
  const std::vector<std::string>& index_parts() const;

  // Row counts. positions_count() is the length of the shortest /positions column: a crash can
  // leave the columns at different lengths.
  uint64_t games_count() const;
  uint64_t plies_count() const;
  uint64_t positions_count() const;
  uint64_t perf_count() const;
  uint64_t candidates_count() const;  // 0 for files before format 3

  // Rows [first, first + count), count clipped to the end; by default all of them.
  std::vector<GameRow> games(uint64_t first = 0, uint64_t count = kAll) const;
  std::vector<PlyRow> plies(uint64_t first = 0, uint64_t count = kAll) const;
  std::vector<PositionRow> positions(uint64_t first = 0, uint64_t count = kAll) const;
  // Feature rows of the same positions, row-major: count * F values.
  std::vector<float> features(uint64_t first = 0, uint64_t count = kAll) const;
  std::vector<PerfRow> perf(uint64_t first = 0, uint64_t count = kAll) const;
  std::vector<CandidateRow> candidates(uint64_t first = 0, uint64_t count = kAll) const;
  // /match/pairs of a match file (meta().match is set); empty for a campaign file.
  uint64_t match_pairs_count() const;
  std::vector<MatchPairRow> match_pairs(uint64_t first = 0, uint64_t count = kAll) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// What convert_to_current() copied: row counts of the new file.
struct ConvertReport {
  uint32_t from_version = 0;
  uint64_t games = 0, plies = 0, positions = 0, perf = 0, match_pairs = 0, candidates = 0;
};

// Writes a current-format copy of the older campaign or match file `from` to the new file `to`:
// the root, /positions/features and /match attributes, and every row of /games, /plies,
// /candidates, /perf and /match/pairs as it is (rows of unfinished games and fill rows included: a
// resume of `to` drops them as it would have from `from`), and the /positions rows up to the
// shortest column. `from` is only read. `to` is built as `<target>.convert.tmp` under the lock of a
// writer on `to` and renamed when complete, so a crash leaves no partial `to`. Throws CampaignError
// for a `from` already in the current format or one that holds objects or attributes its format
// does not define (which the copy would lose), H5FileError (bad input) for an unreadable `from` or
// a `to` that exists or cannot be created, H5Error when writing fails (a full disk; nothing is left
// behind).
ConvertReport convert_to_current(const std::string& from, const std::string& to);

// Writes a current-format copy of what `from` reads (a campaign or match file of any format, or an
// index) to the new file `to`: its meta as root attributes, every row of /games, /plies,
// /candidates, /perf and /match/pairs as it is (fill rows and rows of unfinished games included)
// and the /positions rows up to the shortest column. Built as `<target>.<suffix>.tmp` under the
// lock of a writer on `to` and renamed when complete, so a crash leaves no partial `to`. Throws
// H5FileError (bad input) for a `to` that exists or cannot be created, H5Error when writing fails
// (a full disk; nothing is left behind). convert_to_current and merge_campaign (campaign_index.hpp)
// are this.
ConvertReport copy_campaign(const CampaignReader& from, const std::string& to,
                            const std::string& suffix);

// Makes the complete file `temp` the file `target` by rename(), keeping the permission bits of a
// file it replaces, with `temp` synced before and the folder after: a crash leaves the old file or
// the new one, never a part. Every writer of a whole file installs it this way.
void install_file(const std::string& temp, const std::string& target);

// A stable text listing of every object in the file, one per line in name order: path, kind,
// datatype (compound members with their types), dims and max dims, chunking and filters for
// datasets, attribute names with types (string lengths left out: they follow the values). Row
// counts are part of it, so a golden file pins them too.
std::string schema_dump(const std::string& path);

}  // namespace sp::io
