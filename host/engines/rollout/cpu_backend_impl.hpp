// Definitions of the CPU backend's templates, for the translation units that instantiate them:
// cpu_backend.cpp for the games of the build, tests for the games that live in tests. Everything
// else includes cpu_backend.hpp.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <fstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "host/base/system/log.hpp"
#include "host/engines/rollout/backend_memory.hpp"
#include "host/engines/rollout/cpu_backend.hpp"
#include "host/engines/rollout/lane_playouts.hpp"

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

// Rollouts a lane-parallel item aims at: enough that lanes rarely idle at the item's end, few
// enough that a batch still spreads over the threads.
constexpr uint32_t kLaneItemMin = 256, kLaneItemMax = 2048;

// The code path a game's playouts take on this backend: scalar for a game without lanes.
template <sp::Game Game>
SimdPath playout_path_for(SimdPath requested) {
  if constexpr (LanePlayouts<Game>::kAvailable)
    return resolve_simd_path(requested);
  else
    return SimdPath::kScalar;
}

// A batch cut into chunks, ready to run as the items of a pool job. On the scalar path an item
// is one chunk; on a lane-parallel path consecutive chunks the lanes handle form one item, their
// rollouts played side by side in one thread's lanes.
template <sp::Game Game>
struct ChunkedBatch {
  using Lanes = LanePlayouts<Game>;
  struct Item {
    uint32_t first, last;  // chunks
    bool lanes;
  };

  std::span<const Leaf<Game>> leaves;
  PlayoutParams<Game> params;
  std::span<LeafStats> out;
  SimdPath path = SimdPath::kScalar;
  int threads = 1;
  std::vector<Chunk> chunks;
  std::vector<Item> items;
  std::vector<LaneTask<Game>> tasks;  // per chunk, on a lane path
  mutable std::vector<LaneCounts> counts;
  uint32_t scalar_chunks = 0;  // on a lane path: chunks the lanes do not take

  void prepare() {
    chunks.clear();
    items.clear();
    scalar_chunks = 0;
    uint64_t total = 0;
    for (uint32_t i = 0; i < leaves.size(); ++i) {
      out[i] = LeafStats{};
      total += leaves[i].rollouts;
      for (uint32_t r = 0; r < leaves[i].rollouts; r += kChunkRollouts)
        chunks.push_back(Chunk{i, r, std::min(leaves[i].rollouts, r + kChunkRollouts)});
    }
    if constexpr (Lanes::kAvailable) {
      if (path != SimdPath::kScalar) {
        prepare_lanes(total);
        return;
      }
    }
    for (uint32_t c = 0; c < chunks.size(); ++c) items.push_back(Item{c, c + 1, false});
  }

  void prepare_lanes(uint64_t total) {
    if constexpr (Lanes::kAvailable) {
      const uint64_t per_item = std::clamp<uint64_t>(total / (4 * uint64_t(std::max(threads, 1))),
                                                     kLaneItemMin, kLaneItemMax);
      tasks.resize(chunks.size());
      counts.resize(chunks.size());
      uint64_t in_item = 0;
      for (uint32_t c = 0; c < chunks.size(); ++c) {
        const Chunk ch = chunks[c];
        const Leaf<Game>& leaf = leaves[ch.leaf];
        const auto& policy = params.policies[leaf.policy % kMaxPolicies];
        const bool lanes = Lanes::handles(leaf.state, policy);
        tasks[c] = LaneTask<Game>{
            leaf.state, stream_key(params.seed, leaf.game), leaf.ply, leaf.leaf, ch.first, ch.last,
            policy};
        if (!lanes) {
          ++scalar_chunks;
          items.push_back(Item{c, c + 1, false});
          in_item = 0;
          continue;
        }
        if (in_item == 0 || items.empty() || !items.back().lanes)
          items.push_back(Item{c, c + 1, true});
        else
          items.back().last = c + 1;
        in_item += ch.last - ch.first;
        if (in_item >= per_item) in_item = 0;
      }
    }
  }

  static void add(LeafStats& s, uint32_t wins0, uint32_t wins1, uint32_t draws, uint32_t rollouts,
                  uint64_t plies) {
    std::atomic_ref<uint32_t>(s.wins[0]).fetch_add(wins0, std::memory_order_relaxed);
    std::atomic_ref<uint32_t>(s.wins[1]).fetch_add(wins1, std::memory_order_relaxed);
    std::atomic_ref<uint32_t>(s.draws).fetch_add(draws, std::memory_order_relaxed);
    std::atomic_ref<uint32_t>(s.rollouts).fetch_add(rollouts, std::memory_order_relaxed);
    std::atomic_ref<uint64_t>(s.plies).fetch_add(plies, std::memory_order_relaxed);
  }

  void run_item(size_t i) const {
    const Item item = items[i];
    if constexpr (Lanes::kAvailable) {
      if (item.lanes) {
        Lanes::run(path, tasks.data() + item.first, item.last - item.first, params.rules,
                   counts.data() + item.first);
        for (uint32_t c = item.first; c < item.last; ++c) {
          const auto& n = counts[c];
          add(out[chunks[c].leaf], n.wins[0], n.wins[1], n.draws, chunks[c].last - chunks[c].first,
              n.plies);
        }
        return;
      }
    }
    for (uint32_t c = item.first; c < item.last; ++c) run_chunk(c);
  }

  void run_chunk(size_t c) const {
    const Chunk ch = chunks[c];
    const Leaf<Game>& leaf = leaves[ch.leaf];
    const PhiloxKey key = stream_key(params.seed, leaf.game);
    const auto policy = params.policies[leaf.policy % kMaxPolicies];
    uint32_t wins0 = 0, wins1 = 0, draws = 0;
    uint64_t plies = 0;
    Game::playout_many(leaf.state, params.rules, policy, key, leaf.ply, leaf.leaf, ch.first,
                       ch.last, [&](uint32_t, const typename Game::Result& res) {
                         wins0 += res.winner == 0;
                         wins1 += res.winner == 1;
                         draws += res.winner == Game::kNoWinner;
                         plies += res.plies;
                       });
    add(out[ch.leaf], wins0, wins1, draws, ch.last - ch.first, plies);
  }
};

template <sp::Game Game>
class CpuBackend final : public Backend<Game> {
 public:
  explicit CpuBackend(const BackendOptions& options)
      : pool_(options.pool ? options.pool : std::make_shared<WorkPool>(options.threads)),
        path_(playout_path_for<Game>(options.simd)) {
    const int threads = pool_->threads();
    info_.name = "cpu";
    info_.playout_path = simd_path_name(path_);
    info_.device = std::to_string(threads) + " thread" + (threads == 1 ? "" : "s") + " on " +
                   cpu_model_name() + ", bit select " + bit_select_name() + ", " +
                   info_.playout_path + " playouts";
    info_.preferred_rollouts = size_t{4096} * threads;
    info_.max_leaves = options.max_leaves;
    info_.max_rollouts = options.max_rollouts;
    info_.max_in_flight = kSlots;
  }

  ~CpuBackend() override {
    // Items of a batch never waited for still point into the slots.
    for (Slot& slot : slots_)
      if (slot.job) {
        try {
          pool_->wait(slot.job);
        } catch (...) {
        }
      }
  }

  const BackendInfo& info() const override { return info_; }
  std::shared_ptr<WorkPool> work_pool() const override { return pool_; }

  Ticket submit(std::span<const Leaf<Game>> leaves, const PlayoutParams<Game>& params) override {
    if (in_flight_.size() >= kSlots)
      throw std::logic_error("cpu backend: more batches in flight than max_in_flight");
    check_batch<Game>(info_, leaves);
    const Ticket ticket = next_ticket_++;
    Slot& slot = slots_[ticket % kSlots];
    slot.leaves.assign(leaves.begin(), leaves.end());
    slot.stats.resize(leaves.size());
    slot.batch.leaves = slot.leaves;
    slot.batch.params = params;
    slot.batch.out = slot.stats;
    slot.batch.path = path_;
    slot.batch.threads = pool_->threads();
    slot.batch.prepare();
    if constexpr (LanePlayouts<Game>::kAvailable) {
      // The log names the SIMD path; say once that some leaves do not take it.
      if (slot.batch.scalar_chunks > 0 && !told_scalar_) {
        told_scalar_ = true;
        log::info("cpu backend: " + std::to_string(slot.batch.scalar_chunks) + " of the " +
                  std::to_string(slot.batch.chunks.size()) +
                  " rollout chunks of a batch play the scalar path, not " + info_.playout_path +
                  " (" + LanePlayouts<Game>::kScalarCases + " have no lane-parallel playouts)");
      }
    }
    slot.submitted = std::chrono::steady_clock::now();
    const ChunkedBatch<Game>* batch = &slot.batch;
    slot.job = pool_->submit(batch->items.size(), [batch](size_t i) { batch->run_item(i); });
    in_flight_.push_back(ticket);
    return ticket;
  }

  bool ready(Ticket ticket) override { return WorkPool::done(slots_[ticket % kSlots].job); }

  BatchTiming wait(Ticket ticket, std::span<LeafStats> out) override {
    if (in_flight_.empty() || in_flight_.front() != ticket)
      throw std::logic_error("cpu backend: wait() on a ticket that is not the oldest in flight");
    Slot& slot = slots_[ticket % kSlots];
    if (out.size() < slot.stats.size())
      throw std::invalid_argument("cpu backend: output span smaller than the batch");
    in_flight_.pop_front();
    const WorkPool::JobRef job = std::move(slot.job);
    pool_->wait(job);
    std::copy(slot.stats.begin(), slot.stats.end(), out.begin());
    BatchTiming t;
    t.compute_ms = WorkPool::busy_ms(job);
    t.total_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - slot.submitted)
            .count();
    return t;
  }

 private:
  static constexpr int kSlots = kBackendSlots;
  struct Slot {
    std::vector<Leaf<Game>> leaves;
    std::vector<LeafStats> stats;
    ChunkedBatch<Game> batch;
    WorkPool::JobRef job;
    std::chrono::steady_clock::time_point submitted;
  };

  std::shared_ptr<WorkPool> pool_;
  SimdPath path_;
  BackendInfo info_;
  bool told_scalar_ = false;  // logged that some leaves play the scalar path
  Slot slots_[kSlots];
  std::deque<Ticket> in_flight_;  // tickets submitted and not yet waited for, oldest first
  Ticket next_ticket_ = 0;
};

}  // namespace cpu_detail

template <sp::Game Game>
std::unique_ptr<Backend<Game>> make_cpu_backend(const BackendOptions& options) {
  return std::make_unique<cpu_detail::CpuBackend<Game>>(options);
}

template <sp::Game Game>
void run_rollouts_cpu(std::span<const Leaf<Game>> leaves, const PlayoutParams<Game>& params,
                      std::span<LeafStats> out, WorkPool& pool) {
  cpu_detail::ChunkedBatch<Game> batch{leaves, params, out, SimdPath::kScalar, 1, {}, {}, {}, {}};
  batch.path = cpu_detail::playout_path_for<Game>(SimdPath::kAuto);
  batch.threads = pool.threads();
  batch.prepare();
  pool.run(batch.items.size(), [&batch](size_t i) { batch.run_item(i); });
}
}  // namespace sp::rollout
