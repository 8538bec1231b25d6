// Where a device backend registers itself at its definition (host/engines/cuda/cuda_backend.cu
// does, in a static initializer), so that the registry (registry.cpp) names no backend it does not
// define. The device backend's library is linked whole (host/engines/CMakeLists.txt), which keeps
// its registration; a build without it registers nothing and every query below says so.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/game.hpp"
#include "host/engines/rollout/backend.hpp"

namespace sp::rollout {

// What the device backend answers about the machine.
struct DeviceBackend {
  bool (*available)(std::string* reason) = nullptr;  // a driver and a usable device; reason if not
  int (*count)() = nullptr;                          // devices this process sees
  bool (*memory)(int device, uint64_t* free_bytes, uint64_t* total_bytes) = nullptr;
};

// The registered device backend, or nullptr in a build without one.
const DeviceBackend* device_backend();
// Called once by the device backend's static initializer; returns true for that initializer.
bool register_device_backend(const DeviceBackend& backend);

// The device backend's factory for one game: nullptr until it registers one (a build without it,
// or a game it has no kernels for, such as the tests' tic-tac-toe).
template <sp::Game Game>
using DeviceFactory = std::unique_ptr<Backend<Game>> (*)(const BackendOptions&);
template <sp::Game Game>
DeviceFactory<Game>& device_factory() {
  static DeviceFactory<Game> factory = nullptr;
  return factory;
}

}  // namespace sp::rollout
