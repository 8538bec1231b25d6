// Entry points of the CUDA backend, in plain C++ so that host code never includes CUDA headers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "host/engines/rollout/backend.hpp"

namespace sp::cuda {

// True when a CUDA driver and at least one device are usable; otherwise reason says why.
bool device_available(std::string* reason);
// The CUDA devices this process sees (0 without a driver or device).
int device_count();
// Free and total memory of `device`; false when it cannot be asked (no driver, no such device).
bool device_memory(int device, uint64_t* free_bytes, uint64_t* total_bytes);

template <class Game>
std::unique_ptr<rollout::Backend<Game>> make_cuda_backend(const rollout::BackendOptions& options);

}  // namespace sp::cuda
