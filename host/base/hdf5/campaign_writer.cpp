#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <thread>
#include <variant>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/file_install.hpp"
#include "host/base/hdf5/tables.hpp"
#include "host/base/system/log.hpp"

namespace sp::io {

using namespace internal;

namespace {

struct GameItem {
  GameRow game;
  std::vector<PlyRow> plies;
  std::vector<PositionRow> positions;
  std::vector<float> features;
  std::vector<CandidateRow> candidates;
};
struct FlushItem {
  uint64_t ticket;
};
using Item = std::variant<GameItem, PerfRow, MatchPairRow, FlushItem>;

std::atomic<GameQueuedHook> g_game_queued_hook{nullptr};

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
    std::vector<CandidateRow> candidates;
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
        candidates.insert(candidates.end(), g->candidates.begin(), g->candidates.end());
        positions.insert(positions.end(), g->positions.begin(), g->positions.end());
        features.insert(features.end(), g->features.begin(), g->features.end());
      } else if (auto* p = std::get_if<PerfRow>(&item)) {
        perf.push_back(*p);
      } else {
        *ticket = std::get<FlushItem>(item).ticket;
      }
    }
    tables.write_plies(plies);
    tables.write_candidates(candidates);
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

CampaignWriter CampaignWriter::start(FileLock lock, Tables tables, const WriterOptions& options,
                                     ResumeReport report, size_t run_feature_count) {
  auto impl = std::make_unique<Impl>(std::move(tables), options);
  impl->run_feature_count = run_feature_count;
  impl->report = std::move(report);
  return CampaignWriter(std::move(lock), std::move(impl));
}

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
    return start(std::move(lock), std::move(tables), options, {}, 0);
  } catch (const H5FileError&) {
    throw;  // the path was unusable: nothing was created
  } catch (const H5Error& e) {
    // A full disk while creating: the temporary file is gone (build_and_install); one line.
    throw H5Error("cannot create '" + path + "': " + cause_of(e), e.stack(), e.system_error());
  }
}

void CampaignWriter::append_game(const GameRow& game, std::vector<PlyRow> plies,
                                 std::vector<PositionRow> positions, std::vector<float> features,
                                 std::vector<CandidateRow> candidates) {
  if (game.game_id == kNoGame) throw std::invalid_argument("append_game: game_id is kNoGame");
  for (const PlyRow& p : plies) {
    if (p.game_id != game.game_id) throw std::invalid_argument("append_game: ply of another game");
  }
  for (const CandidateRow& c : candidates) {
    if (c.game_id != game.game_id)
      throw std::invalid_argument("append_game: candidate of another game");
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
  impl_->push(GameItem{game, std::move(plies), std::move(positions), std::move(features),
                       std::move(candidates)});
  ++impl_->games_appended;
  if (const GameQueuedHook hook = g_game_queued_hook.load()) hook(*this, impl_->games_appended);
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

void set_game_queued_hook(GameQueuedHook hook) { g_game_queued_hook.store(hook); }

}  // namespace sp::io
