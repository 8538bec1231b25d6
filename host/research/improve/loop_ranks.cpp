#include "host/research/improve/loop_ranks.hpp"

#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "host/base/mpi/comm.hpp"

namespace sp::improve {
namespace {

// kReady travels on the loop's channel, which no step's dealer reads. kOrder travels on the run
// channel, behind whatever rank 0's dealer sent the follower in the step before (an answer to a
// request sent just before the step ended, say): the follower drops those until the order, so
// the next step's dealer starts with nothing left over. The tag is above the dealer's
// (host/base/mpi/dealer.cpp).
enum Tag : int {
  kReady = 101,  // k -> 0 (loop channel): the previous step returned; ready for the next order
  kOrder = 102,  // 0 -> k (run channel): uint8 kind, uint8 resume, then the config path
};

// Rank 0 waits for the followers' ready at most this long per poll; a follower waits for an
// order longer (rank 0 may be fitting for minutes), sleeping between polls.
constexpr auto kLeaderSleep = std::chrono::milliseconds(1);
constexpr auto kFollowerSleep = std::chrono::milliseconds(10);

}  // namespace

bool ranked_loop() { return dist::size() > 1; }

void send_order(const StepOrder& order) {
  if (!ranked_loop() || dist::rank() != 0) return;
  const int n = dist::size();
  // Readiness is counted, not flagged: a follower says it once per order it has finished.
  static std::vector<int> ready;
  ready.resize(static_cast<size_t>(n), 0);
  const auto all_ready = [&] {
    for (int r = 1; r < n; ++r)
      if (ready[static_cast<size_t>(r)] == 0) return false;
    return true;
  };
  while (!all_ready()) {
    bool got = false;
    while (std::optional<dist::Message> m = dist::receive(dist::Channel::kLoop)) {
      got = true;
      if (m->tag != kReady)
        throw std::runtime_error("rank 0: unknown loop message " + std::to_string(m->tag) +
                                 " from rank " + std::to_string(m->source));
      ++ready[static_cast<size_t>(m->source)];
    }
    if (!got) std::this_thread::sleep_for(kLeaderSleep);
  }
  std::vector<std::byte> data;
  dist::put<uint8_t>(data, static_cast<uint8_t>(order.kind));
  dist::put<uint8_t>(data, order.resume ? 1 : 0);
  const auto* p = reinterpret_cast<const std::byte*>(order.config.data());
  data.insert(data.end(), p, p + order.config.size());
  for (int r = 1; r < n; ++r) {
    --ready[static_cast<size_t>(r)];
    dist::send(r, kOrder, data);
  }
  if (order.kind == OrderKind::kEnd) {
    // Delivered before MPI ends; bounded, so that a follower that died cannot hold rank 0.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (dist::sends_pending() && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(kLeaderSleep);
  }
}

StepOrder wait_order() {
  dist::send(0, kReady, {}, dist::Channel::kLoop);
  for (;;) {
    std::optional<dist::Message> m = dist::receive();
    if (!m) {
      std::this_thread::sleep_for(kFollowerSleep);
      continue;
    }
    if (m->tag != kOrder) continue;  // what rank 0's dealer sent before the step ended
    size_t at = 0;
    StepOrder order;
    const auto kind = dist::get<uint8_t>(m->data, at);
    if (kind < 1 || kind > 3)
      throw std::runtime_error("rank " + std::to_string(dist::rank()) +
                               ": an improve order of unknown kind " + std::to_string(kind));
    order.kind = static_cast<OrderKind>(kind);
    order.resume = dist::get<uint8_t>(m->data, at) != 0;
    order.config.assign(reinterpret_cast<const char*>(m->data.data()) + at, m->data.size() - at);
    return order;
  }
}

}  // namespace sp::improve
