// The ticket and slot bookkeeping of an asynchronous backend (the CUDA backend's two slots of
// buffers and streams), as plain host logic so that tests drive it with a fake device that fails
// on command.
//
// Contract:
//  - A ticket is taken only once everything of its batch is enqueued: a submit that throws spends
//    no ticket and no slot.
//  - Any device failure (an enqueue, a query or a synchronize that throws) poisons the ring: the
//    slot that failed may still have work queued, so no later call may reuse it. Every later call
//    rethrows the first error, whatever it was; the backend is unusable from then on (CUDA's own
//    errors after a failed launch are mostly sticky for the context anyway).
//  - ready() and wait() accept only tickets in flight; wait() takes the oldest, and pops it only
//    after its work has finished, so its slot is never handed out while busy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

namespace sp::rollout {

class SlotRing {
 public:
  using Ticket = uint64_t;

  // name: the backend's, for the messages; slots: batches that can be in flight at once.
  SlotRing(std::string name, int slots) : name_(std::move(name)), slots_(slots) {
    if (slots < 1) throw std::invalid_argument(name_ + " backend: a slot ring needs a slot");
  }

  int slots() const { return slots_; }
  size_t in_flight() const { return in_flight_.size(); }
  bool poisoned() const { return static_cast<bool>(poison_); }

  // The slot the next submit stages its batch in. Throws the first error when poisoned, and
  // std::logic_error when every slot is in flight.
  int next_slot() const {
    check();
    if (in_flight_.size() >= static_cast<size_t>(slots_))
      throw std::logic_error(name_ + " backend: more batches in flight than max_in_flight");
    return slot_of(next_);
  }

  // enqueue(slot) puts the batch staged in next_slot() on the device. Returns its ticket once
  // enqueue has returned; when it throws, the ring is poisoned and the error rethrown.
  template <class Enqueue>
  Ticket submit(Enqueue&& enqueue) {
    const int slot = next_slot();
    guarded([&] { enqueue(slot); });
    in_flight_.push_back(next_);
    return next_++;
  }

  // done(slot): whether the slot's work has finished, without blocking.
  template <class Done>
  bool ready(Ticket ticket, Done&& done) {
    check();
    require_in_flight(ticket, "ready()");
    bool finished = false;
    guarded([&] { finished = done(slot_of(ticket)); });
    return finished;
  }

  // synchronize(slot) blocks until the slot's work has finished; collect(slot) then reads its
  // results (its errors are the caller's, not the device's: they do not poison). The ticket must
  // be the oldest in flight; it leaves the ring only after synchronize returned.
  template <class Synchronize, class Collect>
  auto wait(Ticket ticket, Synchronize&& synchronize, Collect&& collect) {
    check();
    if (in_flight_.empty() || in_flight_.front() != ticket)
      throw std::logic_error(name_ +
                             " backend: wait() on a ticket that is not the oldest in flight");
    const int slot = slot_of(ticket);
    guarded([&] { synchronize(slot); });
    in_flight_.pop_front();
    return collect(slot);
  }

  // Rethrows the first device error, if there was one.
  void check() const {
    if (poison_) std::rethrow_exception(poison_);
  }

 private:
  int slot_of(Ticket t) const { return static_cast<int>(t % static_cast<Ticket>(slots_)); }

  void require_in_flight(Ticket ticket, const char* what) const {
    for (const Ticket t : in_flight_)
      if (t == ticket) return;
    throw std::logic_error(name_ + " backend: " + what + " on ticket " + std::to_string(ticket) +
                           ", which is not in flight");
  }

  template <class F>
  void guarded(F&& f) {
    try {
      f();
    } catch (...) {
      poison_ = std::current_exception();
      throw;
    }
  }

  std::string name_;
  int slots_;
  std::deque<Ticket> in_flight_;
  Ticket next_ = 0;
  std::exception_ptr poison_;
};

}  // namespace sp::rollout
