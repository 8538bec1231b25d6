#include "host/play/ranks/ranked_run.hpp"

#include <filesystem>
#include <set>

#include "host/base/mpi/comm.hpp"

namespace sp::selfplay {

dist::BatchReport batch_report(const BatchInfo& b) {
  dist::BatchReport r;
  r.leaves = b.leaves;
  r.rank = static_cast<uint32_t>(dist::rank());
  r.rollouts = b.rollouts;
  r.backend_ms = b.backend_ms;
  r.wait_ms = b.wait_ms;
  r.host_ms = b.host_ms;
  r.host_thread_ms = b.host_thread_ms;
  return r;
}

GameFeed dealer_feed(dist::Dealer& dealer, const std::atomic<bool>& signal_stop,
                     std::atomic<bool>& stop) {
  GameFeed feed;
  feed.take = [&dealer] { return dealer.take(); };
  feed.exhausted = [&dealer] { return dealer.exhausted(); };
  feed.poll = [&dealer, &signal_stop, &stop](bool idle) {
    if (signal_stop.load()) dealer.stop();
    if (idle)
      dealer.idle();
    else
      dealer.poll();
    if (dealer.stopped()) stop.store(true);
  };
  return feed;
}

void pick_rank_device(config::CampaignConfig& cfg) {
  // The cpu and null backends touch no GPU: asking CUDA for its devices would start its runtime.
  if (cfg.backend.name == "cpu" || cfg.backend.name == "null") return;
  cfg.backend.device =
      dist::pick_device(dist::node_rank(), rollout::cuda_device_count(), cfg.backend.device);
}

std::string hand_out_line(double busiest_s, double wall_s) {
  return fmt::format("work hand-out       {:.3f} s at most on a rank ({:.2f}% of {:.1f} s)\n",
                     busiest_s, wall_s > 0 ? 100 * busiest_s / wall_s : 0.0, wall_s);
}

uint32_t dealer_reserve(uint32_t slots) { return std::max<uint32_t>(2, slots / 8); }

std::set<uint64_t> complete_games_in_parts(const std::string& path,
                                           const std::function<void(const std::string&)>& check) {
  std::set<uint64_t> done;
  for (const std::string& part : rank_files(path)) {
    check(part);
    const std::set<uint64_t> ids = complete_games(part);
    done.insert(ids.begin(), ids.end());
  }
  return done;
}

io::CampaignWriter open_rank_file(const std::string& part, const io::FileMeta& meta,
                                  const io::WriterOptions& options) {
  FileLock lock = io::lock_for_writing(part);
  return std::filesystem::exists(part)
             ? io::CampaignWriter::resume(std::move(lock), part, meta, options)
             : io::CampaignWriter::create(std::move(lock), part, meta, options);
}

std::optional<io::CampaignWriter> start_rank_file(const std::string& path, int rank,
                                                  io::FileMeta& meta, double flush_seconds,
                                                  const std::atomic<bool>& signal_stop) {
  const std::optional<std::string> config_text =
      dist::start_together(meta.config_text, signal_stop);
  if (!config_text) return std::nullopt;
  meta.config_text = *config_text;
  io::WriterOptions options;
  options.flush_seconds = flush_seconds;
  return open_rank_file(rank_file(path, rank), meta, options);
}

std::vector<std::string> close_ranked_output(FileLock index_lock, const std::string& path,
                                             const io::FileMeta& meta, int ranks) {
  const std::vector<std::string> parts = rank_files(path);
  std::set<std::string> current;
  for (int k = 0; k < ranks; ++k) current.insert(rank_file(path, k));
  for (const std::string& part : parts) {
    if (current.count(part)) continue;
    io::CampaignWriter stale = open_rank_file(part, meta, {});
    stale.close();
  }
  write_index(std::move(index_lock), path, parts);
  return parts;
}

void end_ranked_output(FileLock index_lock, const std::string& path, const io::FileMeta& meta,
                       const std::vector<int>& missing) {
  if (missing.empty()) {
    close_ranked_output(std::move(index_lock), path, meta, dist::size());
    return;
  }
  log::warn(
      fmt::format("{} did not finish: its games in progress are lost, its finished games "
                  "are in {}; continue with --resume",
                  ranks_text(missing), rank_file(path, missing.front())));
}

}  // namespace sp::selfplay
