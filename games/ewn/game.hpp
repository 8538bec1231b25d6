// The EWN game as the rollout backends and search see it: types and the playout entry point.
// Backends and kernels are templates over such a trait, so a new game plugs in without touching
// them.
#pragma once

#include "games/common/philox.hpp"
#include "games/ewn/ewn.hpp"
#include "games/ewn/playout.hpp"

namespace sp {

struct EwnGame {
  static constexpr const char* kName = "ewn";
  using State = ewn::State;
  using Rules = ewn::Rules;
  using Policy = ewn::PlayoutPolicy;
  using Result = ewn::PlayoutResult;
  static constexpr uint8_t kNoWinner = ewn::kNoWinner;

  SP_HD static SP_FORCEINLINE Result playout(const State& s, const Rules& rules,
                                             const Policy& policy, BlockStream& rng) {
    return ewn::playout(s, rules, policy, rng);
  }
};

}  // namespace sp
