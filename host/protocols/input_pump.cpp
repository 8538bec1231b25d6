// The input pump's reading thread and its hand-over of lines to the session (input_pump.hpp).
#include "host/protocols/input_pump.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#include "host/protocols/pbrain_parse.hpp"

namespace sp::selfplay {

struct InputPump::Shared {
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::pair<std::string, bool>> lines;  // a line, and whether it interrupts
  int interrupting = 0;                            // queued lines that interrupt
  bool ended = false;                              // nothing more will be read
  std::atomic<bool> interrupt{false};
  std::thread reader;

  // Under the mutex.
  void update_flag() { interrupt.store(interrupting > 0 || ended, std::memory_order_relaxed); }
};

InputPump::InputPump(std::istream& in, std::function<bool(std::string_view)> interrupts,
                     std::function<bool(std::string_view)> last)
    : shared_(std::make_shared<Shared>()) {
  // The thread holds the shared state, so a detached one outlives the pump safely.
  shared_->reader = std::thread(
      [&in, interrupts = std::move(interrupts), last = std::move(last), shared = shared_] {
        std::string line;
        bool more = true;
        while (more) {
          more = pbrain_detail::read_line(in, line);
          std::lock_guard<std::mutex> lock(shared->mutex);
          if (more) {
            const bool stops = interrupts(line), final = last(line);
            shared->lines.emplace_back(line, stops);
            shared->interrupting += stops ? 1 : 0;
            if (final) more = false;
          }
          if (!more) shared->ended = true;
          shared->update_flag();
          shared->ready.notify_one();
        }
      });
}

InputPump::~InputPump() {
  bool ended = false;
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    ended = shared_->ended;
  }
  if (ended)
    shared_->reader.join();
  else
    shared_->reader.detach();
}

std::optional<std::string> InputPump::next() {
  std::unique_lock<std::mutex> lock(shared_->mutex);
  shared_->ready.wait(lock, [&] { return !shared_->lines.empty() || shared_->ended; });
  if (shared_->lines.empty()) return std::nullopt;
  auto [line, stops] = std::move(shared_->lines.front());
  shared_->lines.pop_front();
  shared_->interrupting -= stops ? 1 : 0;
  shared_->update_flag();
  return std::move(line);
}

const std::atomic<bool>* InputPump::interrupt_flag() const { return &shared_->interrupt; }

void InputPump::serve(std::istream& in, std::function<bool(std::string_view)> interrupts,
                      std::function<bool(std::string_view)> last,
                      const std::function<bool(std::string_view)>& handle,
                      const std::function<void(const std::atomic<bool>*)>& set_interrupt) {
  InputPump pump(in, std::move(interrupts), std::move(last));
  set_interrupt(pump.interrupt_flag());
  while (const std::optional<std::string> line = pump.next())
    if (!handle(*line)) break;
  set_interrupt(nullptr);
}

}  // namespace sp::selfplay
