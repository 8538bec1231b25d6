#include <stdexcept>
#include <string>

#include "games/common/errors.hpp"
#include "games/ewn/game.hpp"
#include "host/common/log.hpp"
#include "host/rollout/backend.hpp"
#include "host/rollout/check_backend.hpp"
#include "host/rollout/cpu_backend.hpp"
#include "host/rollout/null_backend.hpp"
#if defined(SELFPLAY_HAVE_CUDA)
#include "cuda/cuda_backend.hpp"
#endif

namespace sp::rollout {

std::vector<std::string> backend_names() { return {"auto", "cpu", "cuda", "check", "null"}; }

bool cuda_available(std::string* reason) {
#if defined(SELFPLAY_HAVE_CUDA)
  return cuda::device_available(reason);
#else
  if (reason) *reason = "this build has no CUDA backend (configured with SELFPLAY_CUDA=OFF or without nvcc)";
  return false;
#endif
}

template <sp::Game Game>
std::unique_ptr<Backend<Game>> make_backend(const std::string& name, const BackendOptions& options) {
  if (name == "cpu") return make_cpu_backend<Game>(options);
  if (name == "null") return make_null_backend<Game>(options);
  if (name == "cuda") {
    std::string reason;
    if (!cuda_available(&reason)) throw std::runtime_error("backend cuda is not available: " + reason);
#if defined(SELFPLAY_HAVE_CUDA)
    return cuda::make_cuda_backend<Game>(options);
#endif
  }
  if (name == "auto") {
    std::string reason;
    if (cuda_available(&reason)) {
#if defined(SELFPLAY_HAVE_CUDA)
      // A device that is present but cannot run the backend (too old, no kernel image for its
      // architecture, out of memory) is no reason to fail a run that asked for any backend.
      try {
        auto backend = cuda::make_cuda_backend<Game>(options);
        log::info("backend: auto -> cuda (" + backend->info().device + ")");
        return backend;
      } catch (const std::exception& e) {
        reason = std::string("the cuda backend could not start: ") + e.what();
      }
#endif
    }
    auto backend = make_cpu_backend<Game>(options);
    log::info("backend: auto -> cpu (" + backend->info().device + "; no GPU: " + reason + ")");
    return backend;
  }
  if (name == "check") {
    std::string reason;
    if (cuda_available(&reason)) {
#if defined(SELFPLAY_HAVE_CUDA)
      return make_check_backend<Game>(make_cpu_backend<Game>(options),
                                      cuda::make_cuda_backend<Game>(options));
#endif
    }
    // Without a GPU, check the CPU backend against itself on one thread: thread-count independence.
    BackendOptions single = options;
    single.threads = 1;
    single.pool = nullptr;  // its own single thread: the caller, while it waits
    log::info("backend: check compares cpu against cpu on 1 thread (no GPU: " + reason + ")");
    return make_check_backend<Game>(make_cpu_backend<Game>(options), make_cpu_backend<Game>(single));
  }
  std::string known;
  for (const auto& n : backend_names()) known += (known.empty() ? "" : ", ") + n;
  throw InputError("unknown backend '" + excerpt(name) + "' (known: " + known + ")");
}

template std::unique_ptr<Backend<EwnGame>> make_backend<EwnGame>(const std::string&,
                                                                 const BackendOptions&);

}  // namespace sp::rollout
