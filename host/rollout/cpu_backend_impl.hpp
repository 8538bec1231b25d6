// Definitions of the CPU backend's templates, for the translation units that instantiate them:
// cpu_backend.cpp for the games of the build, tests for the games that live in tests. Everything
// else includes cpu_backend.hpp.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "host/rollout/cpu_backend.hpp"

namespace sp::rollout {
namespace cpu_detail {

// Rollouts of one leaf are cut into chunks so a batch of few leaves with many rollouts still
// spreads over all threads.
constexpr uint32_t kChunkRollouts = 64;

struct Chunk {
  uint32_t leaf, first, last;
};

inline std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  return "unknown CPU";
}

template <sp::Game Game>
void run_chunks(std::span<const Leaf<Game>> leaves, const PlayoutParams<Game>& params,
                std::span<LeafStats> out, int threads, std::vector<Chunk>& chunks) {
  chunks.clear();
  for (uint32_t i = 0; i < leaves.size(); ++i) {
    out[i] = LeafStats{};
    for (uint32_t r = 0; r < leaves[i].rollouts; r += kChunkRollouts)
      chunks.push_back(Chunk{i, r, std::min(leaves[i].rollouts, r + kChunkRollouts)});
  }
  const auto rules = params.rules;
  const int64_t n = static_cast<int64_t>(chunks.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (int64_t c = 0; c < n; ++c) {
    const Chunk ch = chunks[c];
    const Leaf<Game>& leaf = leaves[ch.leaf];
    const PhiloxKey key = stream_key(params.seed, leaf.game);
    const auto policy = params.policies[leaf.policy % kMaxPolicies];
    uint32_t wins0 = 0, wins1 = 0, draws = 0;
    uint64_t plies = 0;
    Game::playout_many(leaf.state, rules, policy, key, leaf.ply, leaf.leaf, ch.first, ch.last,
                       [&](uint32_t, const typename Game::Result& res) {
                         wins0 += res.winner == 0;
                         wins1 += res.winner == 1;
                         draws += res.winner == Game::kNoWinner;
                         plies += res.plies;
                       });
    LeafStats& s = out[ch.leaf];
    std::atomic_ref<uint32_t>(s.wins[0]).fetch_add(wins0, std::memory_order_relaxed);
    std::atomic_ref<uint32_t>(s.wins[1]).fetch_add(wins1, std::memory_order_relaxed);
    std::atomic_ref<uint32_t>(s.draws).fetch_add(draws, std::memory_order_relaxed);
    std::atomic_ref<uint32_t>(s.rollouts).fetch_add(ch.last - ch.first, std::memory_order_relaxed);
    std::atomic_ref<uint64_t>(s.plies).fetch_add(plies, std::memory_order_relaxed);
  }
}

template <sp::Game Game>
class CpuBackend final : public Backend<Game> {
 public:
  explicit CpuBackend(const BackendOptions& options)
      : threads_(options.threads > 0 ? options.threads : omp_get_num_procs()) {
    info_.name = "cpu";
    info_.device = std::to_string(threads_) + " thread" + (threads_ == 1 ? "" : "s") + " on " +
                   cpu_model_name();
    info_.preferred_rollouts = size_t{4096} * threads_;
    info_.max_leaves = options.max_leaves;
    info_.max_rollouts = options.max_rollouts;
    info_.max_in_flight = 2;
    for (auto& slot : slots_) {
      slot.leaves.reserve(std::min<size_t>(options.max_leaves, 1u << 16));
      slot.stats.reserve(std::min<size_t>(options.max_leaves, 1u << 16));
    }
    worker_ = std::thread([this] { work(); });
  }

  ~CpuBackend() override {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    worker_.join();
  }

  const BackendInfo& info() const override { return info_; }

  Ticket submit(std::span<const Leaf<Game>> leaves, const PlayoutParams<Game>& params) override {
    if (leaves.size() > info_.max_leaves)
      throw std::invalid_argument("cpu backend: batch of " + std::to_string(leaves.size()) +
                                  " leaves exceeds max_leaves " + std::to_string(info_.max_leaves));
    std::unique_lock lock(mutex_);
    if (queue_.size() >= static_cast<size_t>(info_.max_in_flight))
      throw std::logic_error("cpu backend: more batches in flight than max_in_flight");
    const Ticket ticket = next_ticket_++;
    Slot& slot = slots_[ticket % kSlots];
    slot.leaves.assign(leaves.begin(), leaves.end());
    slot.stats.resize(leaves.size());
    slot.params = params;
    slot.done = false;
    slot.error = nullptr;
    slot.submitted = std::chrono::steady_clock::now();
    queue_.push_back(ticket);
    lock.unlock();
    cv_.notify_all();
    return ticket;
  }

  bool ready(Ticket ticket) override {
    std::lock_guard lock(mutex_);
    return slots_[ticket % kSlots].done;
  }

  BatchTiming wait(Ticket ticket, std::span<LeafStats> out) override {
    std::unique_lock lock(mutex_);
    if (queue_.empty() || queue_.front() != ticket)
      throw std::logic_error("cpu backend: wait() on a ticket that is not the oldest in flight");
    Slot& slot = slots_[ticket % kSlots];
    cv_.wait(lock, [&] { return slot.done; });
    queue_.pop_front();
    if (slot.error) std::rethrow_exception(slot.error);
    if (out.size() < slot.stats.size())
      throw std::invalid_argument("cpu backend: output span smaller than the batch");
    std::copy(slot.stats.begin(), slot.stats.end(), out.begin());
    BatchTiming t = slot.timing;
    t.total_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - slot.submitted)
            .count();
    return t;
  }

 private:
  static constexpr int kSlots = 2;
  struct Slot {
    std::vector<Leaf<Game>> leaves;
    std::vector<LeafStats> stats;
    PlayoutParams<Game> params;
    bool done = true;
    std::exception_ptr error;
    BatchTiming timing;
    std::chrono::steady_clock::time_point submitted;
  };

  void work() {
    for (;;) {
      Ticket ticket;
      {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return stop_ || processed_ < next_ticket_; });
        if (stop_) return;
        ticket = processed_;
      }
      Slot& slot = slots_[ticket % kSlots];
      const auto start = std::chrono::steady_clock::now();
      try {
        run_chunks<Game>(slot.leaves, slot.params, slot.stats, threads_, chunks_);
      } catch (...) {
        slot.error = std::current_exception();
      }
      slot.timing.compute_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      {
        std::lock_guard lock(mutex_);
        slot.done = true;
        ++processed_;
      }
      cv_.notify_all();
    }
  }

  const int threads_;
  BackendInfo info_;
  Slot slots_[kSlots];
  std::vector<Chunk> chunks_;  // worker-owned scratch, reused across batches
  std::deque<Ticket> queue_;   // tickets submitted and not yet waited for, oldest first
  Ticket next_ticket_ = 0;
  Ticket processed_ = 0;
  bool stop_ = false;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::thread worker_;
};

}  // namespace cpu_detail

template <sp::Game Game>
std::unique_ptr<Backend<Game>> make_cpu_backend(const BackendOptions& options) {
  return std::make_unique<cpu_detail::CpuBackend<Game>>(options);
}

template <sp::Game Game>
void run_rollouts_cpu(std::span<const Leaf<Game>> leaves, const PlayoutParams<Game>& params,
                      std::span<LeafStats> out, int threads) {
  std::vector<cpu_detail::Chunk> chunks;
  cpu_detail::run_chunks<Game>(leaves, params, out, threads > 0 ? threads : omp_get_num_procs(),
                               chunks);
}

}  // namespace sp::rollout
