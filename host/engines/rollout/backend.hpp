// The batch interface between search and the rollout engines. Search submits leaf states with
// their stream ids and rollout counts and later collects per-leaf statistics; it knows nothing
// else about where the playouts run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/game.hpp"
#include "core/leaf.hpp"
#include "core/philox.hpp"
#include "core/simd/simd_path.hpp"
#include "host/base/system/work_pool.hpp"

namespace sp::rollout {

// Rollout policies one batch can mix (engines of different strength share a batch).
inline constexpr int kMaxPolicies = 4;

template <sp::Game Game>
struct PlayoutParams {
  uint64_t seed = 0;
  typename Game::Rules rules{};
  typename Game::Policy policies[kMaxPolicies]{};
};

struct BackendInfo {
  std::string name;               // registry name: "cpu", "cuda", "check(cpu,cuda)"
  std::string device;             // "2 threads on Intel(R) Xeon(R)..." or the GPU's name
  size_t preferred_rollouts = 0;  // a batch of at least this many rollouts keeps it busy
  size_t max_leaves = 0;          // per batch
  size_t max_rollouts = 0;        // per batch, summed over leaves
  int max_in_flight = 2;          // batches submitted and not yet waited for
  std::string playout_path;       // cpu: the playouts' code path ("scalar", "avx2", "avx512")
};

// Wall-clock split of one batch: compute (kernel, or first to last rollout chunk on the CPU) and
// host-to-host total.
struct BatchTiming {
  double compute_ms = 0;
  double total_ms = 0;
};

using Ticket = uint64_t;

// The one batch rule of every backend: at most info.max_leaves leaves and at most
// info.max_rollouts rollouts summed over them. Returns that sum; throws std::invalid_argument
// naming the backend and both numbers. Backends call it before they touch any buffer, so a
// refused batch leaves the batches in flight untouched; the driver sizes its batches by the same
// two limits and never meets the error.
template <sp::Game Game>
uint64_t check_batch(const BackendInfo& info, std::span<const Leaf<Game>> leaves) {
  if (leaves.size() > info.max_leaves)
    throw std::invalid_argument(info.name + " backend: batch of " + std::to_string(leaves.size()) +
                                " leaves exceeds max_leaves " + std::to_string(info.max_leaves));
  uint64_t total = 0;
  for (const Leaf<Game>& leaf : leaves) total += leaf.rollouts;
  if (total > info.max_rollouts)
    throw std::invalid_argument(info.name + " backend: batch of " + std::to_string(total) +
                                " rollouts exceeds max_rollouts " +
                                std::to_string(info.max_rollouts));
  return total;
}

// Asynchronous batch backend. submit() copies the leaves and returns at once; wait() blocks until
// that batch is done and fills one LeafStats per leaf in submission order. Tickets are waited for
// in submission order. Errors (device failures) surface as exceptions from submit or wait.
template <sp::Game Game>
class Backend {
 public:
  virtual ~Backend() = default;
  virtual const BackendInfo& info() const = 0;
  virtual Ticket submit(std::span<const Leaf<Game>> leaves, const PlayoutParams<Game>& params) = 0;
  virtual bool ready(Ticket ticket) = 0;
  virtual BatchTiming wait(Ticket ticket, std::span<LeafStats> out) = 0;

  // The pool a backend computes on, when it computes on the host (the cpu backend): callers run
  // their own host work on the same pool, so that search and rollouts share one thread budget.
  virtual std::shared_ptr<WorkPool> work_pool() const { return nullptr; }

  // Convenience: submit and wait.
  BatchTiming run(std::span<const Leaf<Game>> leaves, const PlayoutParams<Game>& params,
                  std::span<LeafStats> out) {
    return wait(submit(leaves, params), out);
  }
};

// Options every backend understands; a backend ignores those that do not apply to it.
struct BackendOptions {
  int threads = 0;  // cpu: threads of its pool, 0 = all cores (ignored when pool is set)
  std::shared_ptr<WorkPool> pool;   // cpu: run on this pool instead of a pool of its own
  SimdPath simd = SimdPath::kAuto;  // cpu: playouts' path; auto = SELFPLAY_SIMD or the fastest
  int device = 0;                   // cuda: device ordinal
  int block_size = 0;               // cuda: threads per block, 0 = tuned default
  size_t max_rollouts = size_t{1} << 22;  // per batch: sizes the buffers allocated once
  size_t max_leaves = size_t{1} << 20;
};

// Registry: "cpu", "cuda", "check" (cpu against cuda, or against a second cpu configuration when
// no GPU is present), "auto" (cuda if built and a device is present and starts, else cpu), "null"
// (no playouts: statistics from a hash of the leaf ids, to measure the host side alone). Unknown
// names and unavailable backends throw sp::InputError / std::runtime_error with a clear message.
template <sp::Game Game>
std::unique_ptr<Backend<Game>> make_backend(const std::string& name, const BackendOptions& options);

std::vector<std::string> backend_names();

// True when the CUDA backend was compiled in and a device is usable; reason says why not.
bool cuda_available(std::string* reason = nullptr);
// The CUDA devices this process sees: 0 without the CUDA backend, a driver or a device.
int cuda_device_count();

}  // namespace sp::rollout
