// The CPU backend instantiated for the games of the build (definitions in cpu_backend_impl.hpp).
#include "games/games.hpp"
#include "host/engines/rollout/cpu_backend_impl.hpp"

namespace sp::rollout {

#define SP_INSTANTIATE(G)                                                              \
  template std::unique_ptr<Backend<G>> make_cpu_backend<G>(const BackendOptions&);     \
  template void run_rollouts_cpu<G>(std::span<const Leaf<G>>, const PlayoutParams<G>&, \
                                    std::span<LeafStats>, WorkPool&);
SP_FOR_EACH_GAME(SP_INSTANTIATE)
#undef SP_INSTANTIATE

}  // namespace sp::rollout
