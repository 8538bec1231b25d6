// Definitions of the null backend (null_backend.hpp), for its per-game instantiations:
// null_backend.cpp for the games of games/games.hpp, tests for their test games.
#pragma once

#include <chrono>
#include <deque>
#include <stdexcept>
#include <vector>

#include "core/hd.hpp"
#include "host/engines/rollout/null_backend.hpp"

namespace sp::rollout {
namespace null_detail {

inline uint64_t mix64(uint64_t x) {  // SplitMix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

template <sp::Game Game>
class NullBackend final : public Backend<Game> {
 public:
  explicit NullBackend(const BackendOptions& options) {
    info_.name = "null";
    info_.device = "host only: leaves answered from their ids, no playouts";
    info_.preferred_rollouts = size_t{1} << 20;  // GPU-sized, so runs are sized as for a GPU
    info_.max_leaves = options.max_leaves;
    info_.max_rollouts = options.max_rollouts;
    info_.max_in_flight = kSlots;
  }

  const BackendInfo& info() const override { return info_; }

  Ticket submit(std::span<const Leaf<Game>> leaves, const PlayoutParams<Game>& params) override {
    if (in_flight_.size() >= kSlots)
      throw std::logic_error("null backend: more batches in flight than max_in_flight");
    check_batch<Game>(info_, leaves);
    const Ticket ticket = next_++;
    std::vector<LeafStats>& stats = slots_[ticket % kSlots];
    stats.resize(leaves.size());
    for (size_t i = 0; i < leaves.size(); ++i) stats[i] = null_stats(leaves[i], params.seed);
    in_flight_.push_back(ticket);
    return ticket;
  }

  bool ready(Ticket) override { return true; }

  BatchTiming wait(Ticket ticket, std::span<LeafStats> out) override {
    if (in_flight_.empty() || in_flight_.front() != ticket)
      throw std::logic_error("null backend: wait() on a ticket that is not the oldest in flight");
    const std::vector<LeafStats>& stats = slots_[ticket % kSlots];
    if (out.size() < stats.size())
      throw std::invalid_argument("null backend: output span smaller than the batch");
    in_flight_.pop_front();
    std::copy(stats.begin(), stats.end(), out.begin());
    return BatchTiming{};
  }

 private:
  static constexpr int kSlots = 2;
  BackendInfo info_;
  std::vector<LeafStats> slots_[kSlots];
  std::deque<Ticket> in_flight_;
  Ticket next_ = 0;
};

}  // namespace null_detail

template <sp::Game Game>
LeafStats null_stats(const Leaf<Game>& leaf, uint64_t seed) {
  using null_detail::mix64;
  const uint64_t h = mix64(mix64(mix64(seed ^ leaf.game) ^ (uint64_t{leaf.ply} << 32 | leaf.leaf)));
  LeafStats s;
  const uint32_t n = leaf.rollouts;
  s.rollouts = n;
  s.wins[0] = bounded(static_cast<uint32_t>(h), n + 1);
  s.wins[1] = bounded(static_cast<uint32_t>(h >> 32), n - s.wins[0] + 1);
  s.draws = n - s.wins[0] - s.wins[1];
  s.plies = uint64_t{20} * n;
  return s;
}

template <sp::Game Game>
std::unique_ptr<Backend<Game>> make_null_backend(const BackendOptions& options) {
  return std::make_unique<null_detail::NullBackend<Game>>(options);
}

}  // namespace sp::rollout
