// Which playout a Gomoku leaf runs: the CPU's entry point (playout) and the code paths the GPU
// runs as one kernel each (core/game.hpp, VariantGame): uniform and weighted playouts on 15x15
// and 20x20 (playout.hpp, compact_playout.hpp), and pattern playouts (pattern_playout.hpp).
#pragma once

#include "core/hd.hpp"
#include "core/philox.hpp"
#include "games/gomoku/compact_playout.hpp"
#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/pattern_playout.hpp"
#include "games/gomoku/playout.hpp"

namespace sp::gomoku {

// The variants: 2 * (board is 20x20) + (policy is weighted) for uniform and weighted playouts,
// 4 + (board is 20x20) for pattern playouts.
inline constexpr int kPlayoutVariants = 6;
SP_HD SP_FORCEINLINE int playout_variant(const State& s, const Policy& policy) {
  const int large = static_cast<int>(s.size == 20);
  if (policy.kind == PolicyKind::kPattern) return 4 + large;
  return 2 * large + static_cast<int>(policy.kind == PolicyKind::kWeighted);
}

// Plays s to the end with the policy. A state that is already over returns its winner and 0 plies.
SP_HD inline PlayoutResult playout(const State& s, const Policy& policy, BlockStream& rng) {
  if (is_over(s)) return PlayoutResult{s.winner, 0};
  if (policy.kind == PolicyKind::kPattern)
    return s.size == 20 ? pattern_playout<20>(s, policy, rng) : pattern_playout<15>(s, policy, rng);
  const bool weighted = policy.kind == PolicyKind::kWeighted;
  if (s.size == 20)
    return weighted ? weighted_playout<20>(s, policy, rng) : uniform_playout<20>(s, rng);
  return weighted ? weighted_playout<15>(s, policy, rng) : uniform_playout<15>(s, rng);
}

// The playout of variant V as its GPU kernel runs it: uniform on BitRep, weighted on
// CompactBoards, pattern on BitRep. The CPU runs the same code when asked (tests compare it with
// playout()). Precondition: playout_variant(s, policy) == V.
template <int V>
SP_HD SP_FORCEINLINE PlayoutResult kernel_playout(const State& s, const Policy& policy,
                                                  BlockStream& rng) {
  static_assert(V >= 0 && V < kPlayoutVariants);
  constexpr int kN = V == 2 || V == 3 || V == 5 ? 20 : 15;
  if (is_over(s)) return PlayoutResult{s.winner, 0};
  if constexpr (V >= 4)
    return pattern_playout<kN, playout_detail::BitRep<kN>>(s, policy, rng);
  else if constexpr (V % 2 == 1)
    return compact_weighted_playout<kN>(s, policy, rng);
  else
    return uniform_playout<kN, playout_detail::BitRep<kN>>(s, rng);
}

}  // namespace sp::gomoku
