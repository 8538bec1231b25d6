// The rollout backends of the tests-only tic-tac-toe, instantiated here once for every test that
// runs it through the generic campaign and match code (library sp_test_games).
#include "host/engines/rollout/check_backend_impl.hpp"
#include "host/engines/rollout/cpu_backend_impl.hpp"
#include "host/engines/rollout/null_backend_impl.hpp"
#include "host/engines/rollout/registry_impl.hpp"
#include "tests/games/tictactoe/host.hpp"

namespace sp::rollout {

template <>
std::unique_ptr<Backend<TicTacToe>> make_backend<TicTacToe>(const std::string& name,
                                                            const BackendOptions& options) {
  return make_backend_with<TicTacToe>(name, options, nullptr);
}

}  // namespace sp::rollout
