#include <stdexcept>
#include <string>

#include "core/errors.hpp"
#include "games/games.hpp"
#include "host/common/log.hpp"
#include "host/rollout/backend.hpp"
#include "host/rollout/backend_memory.hpp"
#include "host/rollout/registry_impl.hpp"
#if defined(SELFPLAY_HAVE_CUDA)
#include "cuda/cuda_backend.hpp"
#endif

namespace sp::rollout {

std::vector<std::string> backend_names() { return {"auto", "cpu", "cuda", "check", "null"}; }

bool cuda_available(std::string* reason) {
#if defined(SELFPLAY_HAVE_CUDA)
  return cuda::device_available(reason);
#else
  if (reason)
    *reason = "this build has no CUDA backend (configured with SELFPLAY_CUDA=OFF or without nvcc)";
  return false;
#endif
}

bool cuda_device_memory(int device, uint64_t* free_bytes, uint64_t* total_bytes) {
  *free_bytes = *total_bytes = 0;
#if defined(SELFPLAY_HAVE_CUDA)
  return cuda::device_memory(device, free_bytes, total_bytes);
#else
  (void)device;
  return false;
#endif
}

int cuda_device_count() {
#if defined(SELFPLAY_HAVE_CUDA)
  return cuda::device_count();
#else
  return 0;
#endif
}

template <sp::Game Game>
std::unique_ptr<Backend<Game>> make_backend(const std::string& name,
                                            const BackendOptions& options) {
#if defined(SELFPLAY_HAVE_CUDA)
  return make_backend_with<Game>(name, options, &cuda::make_cuda_backend<Game>);
#else
  return make_backend_with<Game>(name, options, nullptr);
#endif
}

#define SP_INSTANTIATE(G) \
  template std::unique_ptr<Backend<G>> make_backend<G>(const std::string&, const BackendOptions&);
SP_FOR_EACH_GAME(SP_INSTANTIATE)
#undef SP_INSTANTIATE

}  // namespace sp::rollout
