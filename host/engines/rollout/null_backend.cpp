#include "games/games.hpp"
#include "host/engines/rollout/null_backend_impl.hpp"

namespace sp::rollout {

#define SP_INSTANTIATE(G)                                                           \
  template std::unique_ptr<Backend<G>> make_null_backend<G>(const BackendOptions&); \
  template LeafStats null_stats<G>(const Leaf<G>&, uint64_t);
SP_FOR_EACH_GAME(SP_INSTANTIATE)
#undef SP_INSTANTIATE

}  // namespace sp::rollout
