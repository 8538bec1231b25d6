// The ticket and slot bookkeeping of the CUDA backend (host/engines/rollout/slot_ring.hpp), driven
// by a fake device whose enqueue, query and synchronize fail on command: the faults a review of
// host/engines/cuda/cuda_backend.cu found (a failed submit spending a ticket and handing out a busy
// slot, a failed wait losing its batch, ready() on a ticket never submitted) each have a test here.
#include "host/engines/rollout/slot_ring.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/philox.hpp"

namespace sp::rollout {
namespace {

class DeviceFault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A device of `slots` streams: work enqueued on a slot is busy until synchronized or until the
// test finishes it. Fails the next enqueue, query or synchronize when told to, after enqueueing
// part of the work (as a failed kernel launch after its copies would).
struct FakeDevice {
  explicit FakeDevice(int slots) : busy(slots, false) {}
  std::vector<bool> busy;
  bool fail_enqueue = false, fail_query = false, fail_sync = false;
  int enqueues_on_busy_slot = 0;

  void enqueue(int slot) {
    if (busy[slot]) ++enqueues_on_busy_slot;
    busy[slot] = true;  // the copies went in before the failure
    if (fail_enqueue) throw DeviceFault("launch failed on slot " + std::to_string(slot));
  }
  bool query(int slot) {
    if (fail_query) throw DeviceFault("query failed");
    return !busy[slot];
  }
  void synchronize(int slot) {
    if (fail_sync) throw DeviceFault("synchronize failed");
    busy[slot] = false;
  }
};

struct Rig {
  FakeDevice device{2};
  SlotRing ring{"fake", 2};
  SlotRing::Ticket submit() {
    return ring.submit([this](int slot) { device.enqueue(slot); });
  }
  bool ready(SlotRing::Ticket t) {
    return ring.ready(t, [this](int slot) { return device.query(slot); });
  }
  int wait(SlotRing::Ticket t) {
    return ring.wait(
        t, [this](int slot) { device.synchronize(slot); }, [](int slot) { return slot; });
  }
};

// The message of what f throws, or "" when it throws nothing.
template <class F>
std::string thrown(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(SlotRing, TicketsAlternateSlotsAndWaitsGoInOrder) {
  Rig r;
  const auto t0 = r.submit(), t1 = r.submit();
  EXPECT_EQ(t0, 0u);
  EXPECT_EQ(t1, 1u);
  EXPECT_THROW(r.submit(), std::logic_error);  // both slots in flight
  EXPECT_FALSE(r.ready(t1));
  EXPECT_THROW(r.wait(t1), std::logic_error);  // not the oldest
  EXPECT_EQ(r.wait(t0), 0);
  EXPECT_EQ(r.submit(), 2u);
  EXPECT_EQ(r.wait(t1), 1);
  EXPECT_EQ(r.wait(2), 0);
  EXPECT_EQ(r.ring.in_flight(), 0u);
  EXPECT_EQ(r.device.enqueues_on_busy_slot, 0);
  EXPECT_FALSE(r.ring.poisoned());
}

// Finding 1: ticket 0 in flight on slot 0, ticket 1's launch fails; the next submit must not
// take slot 0, whose batch is still running. The failed submit spends no ticket, and every later
// call fails with the first error.
TEST(SlotRing, FailedSubmitSpendsNoTicketAndPoisonsTheRing) {
  Rig r;
  const auto t0 = r.submit();
  r.device.fail_enqueue = true;
  const std::string first = thrown([&] { r.submit(); });
  EXPECT_NE(first.find("launch failed on slot 1"), std::string::npos) << first;
  r.device.fail_enqueue = false;
  EXPECT_TRUE(r.ring.poisoned());
  EXPECT_EQ(r.ring.in_flight(), 1u);  // ticket 1 was never in flight
  EXPECT_EQ(thrown([&] { r.submit(); }), first);
  EXPECT_EQ(thrown([&] { r.ready(t0); }), first);
  EXPECT_EQ(thrown([&] { r.wait(t0); }), first);
  EXPECT_EQ(r.device.enqueues_on_busy_slot, 0);
}

// Finding 2: a synchronize that fails leaves the batch in flight (its slot may still be busy)
// and poisons the ring.
TEST(SlotRing, FailedWaitKeepsItsBatchInFlight) {
  Rig r;
  const auto t0 = r.submit();
  r.submit();
  r.device.fail_sync = true;
  const std::string first = thrown([&] { r.wait(t0); });
  EXPECT_EQ(first, "synchronize failed");
  r.device.fail_sync = false;
  EXPECT_EQ(r.ring.in_flight(), 2u);
  EXPECT_EQ(thrown([&] { r.wait(t0); }), first);
  EXPECT_EQ(thrown([&] { r.submit(); }), first);
  EXPECT_EQ(r.device.enqueues_on_busy_slot, 0);
}

// Finding 3: ready() on a ticket never submitted, or already waited for, is a caller's error, not
// a "ready" (an event never recorded reports complete).
TEST(SlotRing, ReadyAcceptsOnlyTicketsInFlight) {
  Rig r;
  EXPECT_THROW(r.ready(0), std::logic_error);
  const auto t0 = r.submit();
  EXPECT_THROW(r.ready(t0 + 1), std::logic_error);
  EXPECT_FALSE(r.ready(t0));
  r.device.busy[0] = false;  // the device finishes
  EXPECT_TRUE(r.ready(t0));
  r.wait(t0);
  EXPECT_THROW(r.ready(t0), std::logic_error);
  EXPECT_FALSE(r.ring.poisoned());  // callers' errors do not poison
  r.device.fail_query = true;
  const auto t1 = r.submit();
  EXPECT_THROW(r.ready(t1), DeviceFault);
  EXPECT_TRUE(r.ring.poisoned());
}

// An error of collect (the caller's, reading results) does not poison: the device is fine.
TEST(SlotRing, CollectErrorsAreTheCallersAndTheTicketIsDone) {
  Rig r;
  const auto t0 = r.submit();
  EXPECT_THROW(r.ring.wait(
                   t0, [&](int slot) { r.device.synchronize(slot); },
                   [](int) -> int { throw std::invalid_argument("output span too small"); }),
               std::invalid_argument);
  EXPECT_FALSE(r.ring.poisoned());
  EXPECT_EQ(r.ring.in_flight(), 0u);
  EXPECT_EQ(r.submit(), 1u);
}

// Random sequences of submits, readies and waits with failures injected: no enqueue ever lands
// on a busy slot, and after the first failure every call fails with it.
TEST(SlotRing, NoSequenceWithFailuresReusesABusySlot) {
  int poisoned_runs = 0;
  for (uint32_t seq = 0; seq < 300; ++seq) {
    Rig r;
    WordStream rng({11, seq, 0, 0, 0});
    std::deque<SlotRing::Ticket> mine;  // the tickets in flight, as the caller knows them
    std::string first;
    for (int step = 0; step < 40; ++step) {
      r.device.fail_enqueue = rng.below(25) == 0;
      r.device.fail_sync = rng.below(25) == 0;
      r.device.fail_query = rng.below(25) == 0;
      const uint32_t op = mine.empty() ? 0 : rng.below(3);
      std::string got;
      if (op == 0) {
        if (mine.size() == 2) continue;
        got = thrown([&] { mine.push_back(r.submit()); });
      } else if (op == 1) {
        got = thrown([&] { r.ready(mine.front()); });
      } else {
        got = thrown([&] { r.wait(mine.front()); });
        if (got.empty()) mine.pop_front();
      }
      if (!first.empty()) {
        ASSERT_EQ(got, first) << "seq " << seq << " step " << step;
      }
      if (first.empty() && !got.empty()) {
        ASSERT_TRUE(r.ring.poisoned()) << got;
        first = got;
      }
    }
    EXPECT_EQ(r.device.enqueues_on_busy_slot, 0) << "seq " << seq;
    poisoned_runs += !first.empty();
  }
  EXPECT_GT(poisoned_runs, 100);  // failures really happened
  EXPECT_LT(poisoned_runs, 300);  // and some runs went through without one
}

}  // namespace
}  // namespace sp::rollout
