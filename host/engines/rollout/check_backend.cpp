// The check backend instantiated for the games of the build (definitions in
// check_backend_impl.hpp).
#include "games/games.hpp"
#include "host/engines/rollout/check_backend_impl.hpp"

namespace sp::rollout {

#define SP_INSTANTIATE(G)                                                                 \
  template std::unique_ptr<Backend<G>> make_check_backend<G>(std::unique_ptr<Backend<G>>, \
                                                             std::unique_ptr<Backend<G>>);
SP_FOR_EACH_GAME(SP_INSTANTIATE)
#undef SP_INSTANTIATE

}  // namespace sp::rollout
