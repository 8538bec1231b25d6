// The check backend instantiated for the games of the build (definitions in
// check_backend_impl.hpp).
#include "games/ewn/game.hpp"
#include "host/rollout/check_backend_impl.hpp"

namespace sp::rollout {

template std::unique_ptr<Backend<EwnGame>> make_check_backend<EwnGame>(
    std::unique_ptr<Backend<EwnGame>>, std::unique_ptr<Backend<EwnGame>>);

}  // namespace sp::rollout
