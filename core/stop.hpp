// A stop request that host search hands to a game's own searches (Gomoku's threat searches), so
// that they keep the move's clock: a plain function and its context, asked every kStopEvery nodes.
// Without one (the default) nothing stops, so searches without a clock stay deterministic. Host
// only.
#pragma once

#include <cstdint>

namespace sp {

struct StopCheck {
  // Nodes between two questions: a few microseconds of work in the slowest search.
  static constexpr uint32_t kStopEvery = 64;

  bool (*expired)(void* context) = nullptr;
  void* context = nullptr;

  // True when the search must stop now.
  bool operator()() const { return expired != nullptr && expired(context); }
};

}  // namespace sp
