// The CPU backend instantiated for the games of the build (definitions in cpu_backend_impl.hpp).
#include "games/ewn/game.hpp"
#include "host/rollout/cpu_backend_impl.hpp"

namespace sp::rollout {

template std::unique_ptr<Backend<EwnGame>> make_cpu_backend<EwnGame>(const BackendOptions&);
template void run_rollouts_cpu<EwnGame>(std::span<const Leaf<EwnGame>>,
                                        const PlayoutParams<EwnGame>&, std::span<LeafStats>, WorkPool&);

}  // namespace sp::rollout
