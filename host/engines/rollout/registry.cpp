// The backend registry: the built-in backends (registry_impl.hpp) for every game of the list, and
// the device backend when one registered itself (device_registry.hpp).
#include <stdexcept>
#include <string>

#include "core/errors.hpp"
#include "games/games.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/engines/rollout/backend_memory.hpp"
#include "host/engines/rollout/device_registry.hpp"
#include "host/engines/rollout/registry_impl.hpp"

namespace sp::rollout {
std::vector<std::string> backend_names() { return {"auto", "cpu", "cuda", "check", "null"}; }

bool cuda_available(std::string* reason) {
  if (const DeviceBackend* device = device_backend()) return device->available(reason);
  if (reason)
    *reason = "this build has no CUDA backend (configured with SELFPLAY_CUDA=OFF or without nvcc)";
  return false;
}

bool cuda_device_memory(int device, uint64_t* free_bytes, uint64_t* total_bytes) {
  *free_bytes = *total_bytes = 0;
  const DeviceBackend* backend = device_backend();
  return backend && backend->memory(device, free_bytes, total_bytes);
}

int cuda_device_count() {
  const DeviceBackend* device = device_backend();
  return device ? device->count() : 0;
}

template <sp::Game Game>
std::unique_ptr<Backend<Game>> make_backend(const std::string& name,
                                            const BackendOptions& options) {
  return make_backend_with<Game>(name, options, device_factory<Game>());
}

#define SP_INSTANTIATE(G) \
  template std::unique_ptr<Backend<G>> make_backend<G>(const std::string&, const BackendOptions&);
SP_FOR_EACH_GAME(SP_INSTANTIATE)
#undef SP_INSTANTIATE

}  // namespace sp::rollout
