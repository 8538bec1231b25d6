// The input of a protocol session (selfplay's engine protocol, Gomocup's pbrain) read on a thread
// of its own, so that the session hears its manager while the engine searches. Lines are handed to
// the session in order; a line that ends a search (END, STOP) and the end of input also raise a
// flag at once, which the engine polls (Engine::set_interrupt) to stop and decide with what it
// has (and the session still answers it). The flag is up while such a line is read but not yet
// handed over, or once the input has ended: a search started before it was read is the one it
// ends.
#pragma once

#include <atomic>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace sp::selfplay {

class InputPump {
 public:
  // interrupts(line): the line ends a running search. last(line): nothing after it is read (END),
  // so the reading thread ends with it. `in` must outlive the reading thread: a pump destroyed
  // while its thread still waits for input (the session ended by an error) leaves the thread
  // waiting, detached, which only std::cin may (the program ends soon after).
  InputPump(std::istream& in, std::function<bool(std::string_view)> interrupts,
            std::function<bool(std::string_view)> last);
  ~InputPump();
  InputPump(const InputPump&) = delete;
  InputPump& operator=(const InputPump&) = delete;

  // The next line, waiting (blocked, not spinning) until one is read; nullopt once the input has
  // ended and every line was handed over.
  std::optional<std::string> next();
  // Raised while a search must stop (see above); for Engine::set_interrupt.
  const std::atomic<bool>* interrupt_flag() const;

  // A protocol session's command loop over `in`: each line to handle(line) until it returns
  // false or the input ends (and every line read was handled). set_interrupt(flag) gets the
  // pump's flag before the first line, and nullptr after the last.
  static void serve(std::istream& in, std::function<bool(std::string_view)> interrupts,
                    std::function<bool(std::string_view)> last,
                    const std::function<bool(std::string_view)>& handle,
                    const std::function<void(const std::atomic<bool>*)>& set_interrupt);

 private:
  struct Shared;
  std::shared_ptr<Shared> shared_;
};

}  // namespace sp::selfplay
