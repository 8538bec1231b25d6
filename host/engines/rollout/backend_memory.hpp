// What a rollout backend allocates for its batches, computed from its options before it exists,
// so that a config is refused before anything is allocated. The CUDA backend allocates its slots
// once, at max_leaves (host/engines/cuda/cuda_backend.cu): per slot pinned host buffers and device
// buffers of the leaves, the rollout offsets and the statistics, and the device order on the host.
// The CPU backend's slots grow to the largest batch, at most max_leaves leaves and their
// statistics.
#pragma once

#include <cstdint>
#include <string>

#include "host/engines/rollout/backend.hpp"
#include "host/engines/rollout/device_batch.hpp"

namespace sp::rollout {

// Batches the CPU and CUDA backends hold at once (each its own slot of buffers).
inline constexpr int kBackendSlots = 2;

struct BackendMemory {
  uint64_t host = 0;       // bytes in the host's memory (pinned or not)
  uint64_t device = 0;     // bytes of GPU memory
  bool on_device = false;  // the backend allocates on a GPU (cuda, check with a GPU)
};

// Per slot of the CUDA backend: what it allocates on the device, and the same pinned on the host.
template <sp::Game Game>
uint64_t cuda_slot_bytes(const BackendOptions& o) {
  return uint64_t{o.max_leaves} * (sizeof(Leaf<Game>) + sizeof(LeafStats)) +
         uint64_t{offsets_capacity<Game>(o.max_leaves)} * sizeof(uint32_t);
}

// The backend `name` would allocate with options o; cuda_present: whether a usable device is here
// (auto and check pick their backends by it).
template <sp::Game Game>
BackendMemory backend_memory(const std::string& name, const BackendOptions& o, bool cuda_present) {
  const uint64_t cpu_host =
      kBackendSlots * uint64_t{o.max_leaves} * (sizeof(Leaf<Game>) + sizeof(LeafStats));
  BackendMemory cuda;
  cuda.device = kBackendSlots * cuda_slot_bytes<Game>(o);
  cuda.host = cuda.device + kBackendSlots * uint64_t{o.max_leaves} * sizeof(uint32_t);  // + order
  cuda.on_device = true;
  BackendMemory cpu;
  cpu.host = cpu_host;
  if (name == "cuda" || (name == "auto" && cuda_present)) return cuda;
  if (name == "check") {  // cpu against cuda, or against a second cpu configuration
    BackendMemory both = cuda_present ? cuda : cpu;
    both.host += cpu_host;
    return both;
  }
  return cpu;  // cpu, null (smaller), auto without a device
}

// Free and total memory of CUDA device `device`; false (and 0) without the CUDA backend, a driver
// or that device.
bool cuda_device_memory(int device, uint64_t* free_bytes, uint64_t* total_bytes);

}  // namespace sp::rollout
