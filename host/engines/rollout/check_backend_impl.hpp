// Definitions of the check backend's templates, for the translation units that instantiate them:
// check_backend.cpp for the games of the build, tests for the games that live in tests. Everything
// else includes check_backend.hpp.
#pragma once

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/engines/rollout/check_backend.hpp"

namespace sp::rollout {
namespace check_detail {

inline std::string describe(const LeafStats& s) {
  return "wins " + std::to_string(s.wins[0]) + "/" + std::to_string(s.wins[1]) + ", draws " +
         std::to_string(s.draws) + ", rollouts " + std::to_string(s.rollouts) + ", plies " +
         std::to_string(s.plies);
}

template <sp::Game Game>
class CheckBackend final : public Backend<Game> {
 public:
  CheckBackend(std::unique_ptr<Backend<Game>> a, std::unique_ptr<Backend<Game>> b)
      : a_(std::move(a)), b_(std::move(b)) {
    const BackendInfo &ia = a_->info(), &ib = b_->info();
    info_.name = "check(" + ia.name + "," + ib.name + ")";
    info_.device = ia.device + " | " + ib.device;
    info_.preferred_rollouts = std::max(ia.preferred_rollouts, ib.preferred_rollouts);
    info_.max_leaves = std::min(ia.max_leaves, ib.max_leaves);
    info_.max_rollouts = std::min(ia.max_rollouts, ib.max_rollouts);
    info_.max_in_flight = std::min(ia.max_in_flight, ib.max_in_flight);
  }

  const BackendInfo& info() const override { return info_; }
  std::shared_ptr<WorkPool> work_pool() const override { return a_->work_pool(); }

  Ticket submit(std::span<const Leaf<Game>> leaves, const PlayoutParams<Game>& params) override {
    check_batch<Game>(info_, leaves);
    const Ticket ta = a_->submit(leaves, params);
    const Ticket tb = b_->submit(leaves, params);
    in_flight_.push_back({ta, tb, leaves.size()});
    return next_++;
  }

  bool ready(Ticket ticket) override {
    const auto& f = find(ticket);
    return a_->ready(f.a) && b_->ready(f.b);
  }

  BatchTiming wait(Ticket ticket, std::span<LeafStats> out) override {
    if (in_flight_.empty() || ticket != next_ - in_flight_.size())
      throw std::logic_error("check backend: wait() on a ticket that is not the oldest in flight");
    const InFlight f = in_flight_.front();
    in_flight_.pop_front();
    other_.resize(f.size);
    const BatchTiming t = a_->wait(f.a, out);
    b_->wait(f.b, other_);
    for (size_t i = 0; i < f.size; ++i)
      if (!(out[i] == other_[i]))
        throw BackendMismatch("check backend: leaf " + std::to_string(i) +
                              " of the batch differs: " + a_->info().name + " gave " +
                              describe(out[i]) + "; " + b_->info().name + " gave " +
                              describe(other_[i]));
    return t;
  }

 private:
  struct InFlight {
    Ticket a, b;
    size_t size;
  };
  const InFlight& find(Ticket ticket) const {
    const Ticket oldest = next_ - in_flight_.size();
    if (ticket < oldest || ticket >= next_) throw std::logic_error("check backend: unknown ticket");
    return in_flight_[ticket - oldest];
  }

  std::unique_ptr<Backend<Game>> a_, b_;
  BackendInfo info_;
  std::deque<InFlight> in_flight_;
  std::vector<LeafStats> other_;
  Ticket next_ = 0;
};

}  // namespace check_detail

template <sp::Game Game>
std::unique_ptr<Backend<Game>> make_check_backend(std::unique_ptr<Backend<Game>> first,
                                                  std::unique_ptr<Backend<Game>> second) {
  return std::make_unique<check_detail::CheckBackend<Game>>(std::move(first), std::move(second));
}

}  // namespace sp::rollout
