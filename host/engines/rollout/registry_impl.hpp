// The backend registry's per-game part (backend.hpp's make_backend): registry.cpp instantiates it
// for the games of games/games.hpp with their CUDA kernels, tests for their test games without.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "core/errors.hpp"
#include "host/base/system/log.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/engines/rollout/check_backend.hpp"
#include "host/engines/rollout/cpu_backend.hpp"
#include "host/engines/rollout/device_registry.hpp"
#include "host/engines/rollout/null_backend.hpp"

namespace sp::rollout {

template <sp::Game Game>
std::unique_ptr<Backend<Game>> make_backend_with(const std::string& name,
                                                 const BackendOptions& options,
                                                 DeviceFactory<Game> make_cuda) {
  if (name == "cpu") return make_cpu_backend<Game>(options);
  if (name == "null") return make_null_backend<Game>(options);
  std::string reason;
  const bool cuda = cuda_available(&reason) && make_cuda;
  if (cuda_available() && !make_cuda)
    reason = std::string("this build has no CUDA kernels for ") + Game::kName;
  if (name == "cuda") {
    if (!cuda) throw std::runtime_error("backend cuda is not available: " + reason);
    return make_cuda(options);
  }
  if (name == "auto") {
    if (cuda) {
      // A device that is present but cannot run the backend (too old, no kernel image for its
      // architecture, out of memory) is no reason to fail a run that asked for any backend.
      try {
        auto backend = make_cuda(options);
        log::info("backend: auto -> cuda (" + backend->info().device + ")");
        return backend;
      } catch (const std::exception& e) {
        reason = std::string("the cuda backend could not start: ") + e.what();
      }
    }
    auto backend = make_cpu_backend<Game>(options);
    log::info("backend: auto -> cpu (" + backend->info().device + "; no GPU: " + reason + ")");
    return backend;
  }
  if (name == "check") {
    if (cuda) return make_check_backend<Game>(make_cpu_backend<Game>(options), make_cuda(options));
    // Without a GPU, check the CPU backend against itself on one thread with the scalar playouts:
    // independence of the thread count and of the playout path (SIMD lanes against scalar).
    BackendOptions single = options;
    single.threads = 1;
    single.pool = nullptr;  // its own single thread: the caller, while it waits
    single.simd = SimdPath::kScalar;
    log::info("backend: check compares cpu against cpu on 1 thread with scalar playouts (no GPU: " +
              reason + ")");
    return make_check_backend<Game>(make_cpu_backend<Game>(options),
                                    make_cpu_backend<Game>(single));
  }
  std::string known;
  for (const auto& n : backend_names()) known += (known.empty() ? "" : ", ") + n;
  throw InputError("unknown backend '" + excerpt(name) + "' (known: " + known + ")");
}

}  // namespace sp::rollout
