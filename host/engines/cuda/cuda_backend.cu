// The CUDA rollout backend: two slots of buffers allocated once (pinned host, device), one stream
// per slot, so the host fills one slot while the other's copies and kernel run.
#include "host/engines/cuda/cuda_backend.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "games/games.hpp"
#include "host/engines/cuda/cuda_check.hpp"
#include "host/engines/cuda/rollout_kernel.cuh"
#include "host/engines/rollout/backend_memory.hpp"
#include "host/engines/rollout/device_batch.hpp"
#include "host/engines/rollout/device_registry.hpp"
#include "host/engines/rollout/leaf_order.hpp"
#include "host/engines/rollout/slot_ring.hpp"

namespace sp::cuda {

bool device_available(std::string* reason) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error so later calls are not poisoned
    if (reason) *reason = std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
    return false;
  }
  if (count == 0) {
    if (reason) *reason = "no CUDA device found";
    return false;
  }
  return true;
}

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error so later calls are not poisoned
    return 0;
  }
  return count;
}

bool device_memory(int device, uint64_t* free_bytes, uint64_t* total_bytes) {
  int current = 0;
  size_t free_now = 0, total = 0;
  if (cudaGetDevice(&current) != cudaSuccess || cudaSetDevice(device) != cudaSuccess ||
      cudaMemGetInfo(&free_now, &total) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error so later calls are not poisoned
    cudaSetDevice(current);
    return false;
  }
  cudaSetDevice(current);
  *free_bytes = free_now;
  *total_bytes = total;
  return true;
}

namespace {

// Owners of CUDA resources: each frees what it holds and ignores errors there (destructors must not
// throw, and a failed device has nothing left to free), so a constructor that throws halfway
// releases everything it had allocated.
struct PinnedFree {
  void operator()(void* p) const noexcept { cudaFreeHost(p); }
};
struct DeviceFree {
  void operator()(void* p) const noexcept { cudaFree(p); }
};
struct StreamDestroy {
  void operator()(cudaStream_t s) const noexcept { cudaStreamDestroy(s); }
};
struct EventDestroy {
  void operator()(cudaEvent_t e) const noexcept { cudaEventDestroy(e); }
};
template <class T>
using PinnedBuffer = std::unique_ptr<T[], PinnedFree>;
template <class T>
using DeviceBuffer = std::unique_ptr<T[], DeviceFree>;
using Stream = std::unique_ptr<std::remove_pointer_t<cudaStream_t>, StreamDestroy>;
using Event = std::unique_ptr<std::remove_pointer_t<cudaEvent_t>, EventDestroy>;

template <class T>
PinnedBuffer<T> pinned_buffer(size_t n) {
  void* p = nullptr;
  SP_CUDA_CHECK(cudaMallocHost(&p, std::max<size_t>(n, 1) * sizeof(T)));
  return PinnedBuffer<T>(static_cast<T*>(p));
}

template <class T>
DeviceBuffer<T> device_buffer(size_t n) {
  void* p = nullptr;
  SP_CUDA_CHECK(cudaMalloc(&p, std::max<size_t>(n, 1) * sizeof(T)));
  return DeviceBuffer<T>(static_cast<T*>(p));
}

Stream new_stream() {
  cudaStream_t s = nullptr;
  SP_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  return Stream(s);
}

Event new_event(unsigned flags) {
  cudaEvent_t e = nullptr;
  SP_CUDA_CHECK(cudaEventCreateWithFlags(&e, flags));
  return Event(e);
}

// The kernel's warp reductions (__reduce_add_sync) need compute capability 8.0.
constexpr int kMinMajor = 8;

template <class Game>
class CudaBackend final : public rollout::Backend<Game> {
  using Leaf = rollout::Leaf<Game>;
  using LeafStats = rollout::LeafStats;

 public:
  explicit CudaBackend(const rollout::BackendOptions& options) : device_(options.device) {
    if (options.max_rollouts == 0 || options.max_rollouts > (size_t{1} << 31))
      throw std::invalid_argument("cuda backend: max_rollouts must be in 1 .. 2^31");
    if (options.max_leaves == 0 || options.max_leaves >= (size_t{1} << 31))
      throw std::invalid_argument("cuda backend: max_leaves must be in 1 .. 2^31 - 1");
    SP_CUDA_CHECK(cudaSetDevice(device_));
    cudaDeviceProp prop{};
    SP_CUDA_CHECK(cudaGetDeviceProperties(&prop, device_));
    const std::string sm = std::to_string(prop.major) + "." + std::to_string(prop.minor);
    if (prop.major < kMinMajor)
      throw CudaError("cuda backend: device " + std::to_string(device_) + " (" + prop.name +
                      ") has compute capability " + sm + "; the rollout kernel needs " +
                      std::to_string(kMinMajor) + ".0 or newer (warp reductions)");
    // Block sizes, per variant: the option's when given (a multiple of 32, within every kernel's
    // limit), else the size CUDA's occupancy calculator finds to hold the most warps per SM for
    // that kernel's registers (blocks of 64, 128 and 256 threads differ by up to a sixth there:
    // docs/gpu.md, "Block sizes"). Results do not depend on it; each variant's grid is 4 waves of
    // its blocks.
    size_t most_resident = 1;  // threads per SM of the most resident kernel
    for (int v = 0; v < kVariants; ++v) {
      cudaFuncAttributes attributes{};
      SP_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kKernels[v]));
      const int max_block = std::min(prop.maxThreadsPerBlock, attributes.maxThreadsPerBlock);
      if (options.block_size > 0) {
        if (options.block_size % 32 != 0 || options.block_size > max_block)
          throw std::invalid_argument(
              "cuda backend: block size must be a multiple of 32 and at most " +
              std::to_string(max_block) + " for " + Game::kName);
        block_[v] = options.block_size;
      } else {
        int min_grid = 0;
        SP_CUDA_CHECK(
            cudaOccupancyMaxPotentialBlockSize(&min_grid, &block_[v], kKernels[v], 0, max_block));
      }
      int blocks_per_sm = 0;
      SP_CUDA_CHECK(
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kKernels[v], block_[v], 0));
      max_grid_[v] = std::max(1, blocks_per_sm) * prop.multiProcessorCount * 4;
      most_resident = std::max(most_resident, size_t(blocks_per_sm) * block_[v]);
    }

    info_.name = "cuda";
    info_.device = std::string(prop.name) + " (sm_" + std::to_string(prop.major) +
                   std::to_string(prop.minor) + ", " + std::to_string(prop.multiProcessorCount) +
                   " SMs)";
    info_.preferred_rollouts = size_t(prop.multiProcessorCount) * most_resident * 8;
    info_.max_leaves = options.max_leaves;
    info_.max_rollouts = options.max_rollouts;
    info_.max_in_flight = kSlots;
    for (Slot& s : slots_) {
      s.h_leaves = pinned_buffer<Leaf>(info_.max_leaves);
      s.h_offsets = pinned_buffer<uint32_t>(rollout::offsets_capacity<Game>(info_.max_leaves));
      s.h_stats = pinned_buffer<LeafStats>(info_.max_leaves);
      s.d_leaves = device_buffer<Leaf>(info_.max_leaves);
      s.d_offsets = device_buffer<uint32_t>(rollout::offsets_capacity<Game>(info_.max_leaves));
      s.d_stats = device_buffer<LeafStats>(info_.max_leaves);
      s.order.resize(info_.max_leaves);
      s.stream = new_stream();
      s.kernel_start = new_event(cudaEventDefault);
      s.kernel_end = new_event(cudaEventDefault);
      s.done = new_event(cudaEventDisableTiming);
    }
  }

  ~CudaBackend() override {
    // Work still queued on a stream may use the buffers: finish it before they are freed (the
    // members' destructors run after this body).
    cudaSetDevice(device_);
    for (Slot& s : slots_)
      if (s.stream) cudaStreamSynchronize(s.stream.get());
  }

  const rollout::BackendInfo& info() const override { return info_; }

  rollout::Ticket submit(std::span<const Leaf> leaves,
                         const rollout::PlayoutParams<Game>& params) override {
    // Everything that can refuse the batch comes before the ring hands out a slot, and the slot
    // is staged on the host only once the ring says it is free (no batch of it in flight).
    rollout::check_batch<Game>(info_, leaves);
    Slot& s = slots_[ring_.next_slot()];
    s.submitted = std::chrono::steady_clock::now();
    const size_t n = leaves.size();
    s.n_leaves = static_cast<uint32_t>(n);

    // Device order, one segment per playout variant; wait() un-permutes the statistics.
    const rollout::Segments<Game> segments = rollout::stage_batch<Game>(
        leaves, params, std::span<uint32_t>(s.order), s.h_leaves.get(), s.h_offsets.get());
    // A CUDA failure from here on poisons the backend (slot_ring.hpp): the slot may hold work.
    return ring_.submit([&](int) { enqueue(s, segments, params); });
  }

  bool ready(rollout::Ticket ticket) override {
    return ring_.ready(ticket, [this](int slot) {
      const cudaError_t status = cudaEventQuery(slots_[slot].done.get());
      if (status == cudaErrorNotReady) return false;
      SP_CUDA_CHECK(status);
      return true;
    });
  }

  rollout::BatchTiming wait(rollout::Ticket ticket, std::span<LeafStats> out) override {
    return ring_.wait(
        ticket,
        [this](int slot) {
          SP_CUDA_CHECK(cudaSetDevice(device_));
          SP_CUDA_CHECK(cudaEventSynchronize(slots_[slot].done.get()));
        },
        [&](int slot) {
          Slot& s = slots_[slot];
          if (out.size() < s.n_leaves)
            throw std::invalid_argument("cuda backend: output span smaller than the batch");
          rollout::to_batch_order(std::span<const uint32_t>(s.order.data(), s.n_leaves),
                                  s.h_stats.get(), out);
          rollout::BatchTiming t;
          float kernel_ms = 0;
          SP_CUDA_CHECK(cudaEventElapsedTime(&kernel_ms, s.kernel_start.get(), s.kernel_end.get()));
          t.compute_ms = kernel_ms;
          t.total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                                 s.submitted)
                           .count();
          return t;
        });
  }

 private:
  static constexpr int kSlots = rollout::kBackendSlots;
  struct Slot {
    PinnedBuffer<Leaf> h_leaves;  // in device order
    PinnedBuffer<uint32_t> h_offsets;
    PinnedBuffer<LeafStats> h_stats;
    DeviceBuffer<Leaf> d_leaves;
    DeviceBuffer<uint32_t> d_offsets;
    DeviceBuffer<LeafStats> d_stats;
    std::vector<uint32_t> order;  // order[k]: batch index of device leaf k
    Stream stream;
    Event kernel_start, kernel_end, done;
    uint32_t n_leaves = 0;
    std::chrono::steady_clock::time_point submitted;
  };

  // The copies, the memset, one kernel per variant present and the event records of the batch
  // staged in s.
  void enqueue(Slot& s, const rollout::Segments<Game>& segments,
               const rollout::PlayoutParams<Game>& params) {
    SP_CUDA_CHECK(cudaSetDevice(device_));
    const size_t n = s.n_leaves;
    const Stream& stream = s.stream;
    bool need_offsets = false;
    for (const rollout::Segment& seg : segments) need_offsets |= seg.leaves && !seg.uniform;
    if (n > 0) {
      SP_CUDA_CHECK(cudaMemcpyAsync(s.d_leaves.get(), s.h_leaves.get(), n * sizeof(Leaf),
                                    cudaMemcpyHostToDevice, stream.get()));
      if (need_offsets)
        SP_CUDA_CHECK(cudaMemcpyAsync(s.d_offsets.get(), s.h_offsets.get(),
                                      (n + kVariants) * sizeof(uint32_t), cudaMemcpyHostToDevice,
                                      stream.get()));
      SP_CUDA_CHECK(cudaMemsetAsync(s.d_stats.get(), 0, n * sizeof(LeafStats), stream.get()));
    }
    SP_CUDA_CHECK(cudaEventRecord(s.kernel_start.get(), stream.get()));
    for (int v = 0; v < kVariants; ++v) {
      const rollout::Segment& seg = segments[v];
      if (seg.total == 0) continue;
      const uint64_t blocks = (seg.total + block_[v] - 1) / block_[v];
      const unsigned grid = static_cast<unsigned>(std::min<uint64_t>(blocks, max_grid_[v]));
      kKernels[v]<<<grid, block_[v], 0, stream.get()>>>(
          s.d_leaves.get() + seg.first, s.d_offsets.get() + seg.offsets_at, seg.leaves, seg.uniform,
          static_cast<uint32_t>(seg.total), params, s.d_stats.get() + seg.first);
      SP_CUDA_CHECK_LAUNCH();
    }
    SP_CUDA_CHECK(cudaEventRecord(s.kernel_end.get(), stream.get()));
    if (n > 0)
      SP_CUDA_CHECK(cudaMemcpyAsync(s.h_stats.get(), s.d_stats.get(), n * sizeof(LeafStats),
                                    cudaMemcpyDeviceToHost, stream.get()));
    SP_CUDA_CHECK(cudaEventRecord(s.done.get(), stream.get()));
  }

  // The kernel of each playout variant.
  static constexpr int kVariants = playout_variants<Game>();
  using Kernel = void (*)(const Leaf*, const uint32_t*, uint32_t, uint32_t, uint32_t,
                          rollout::PlayoutParams<Game>, LeafStats*);
  template <int... V>
  static constexpr std::array<Kernel, kVariants> kernels_of(std::integer_sequence<int, V...>) {
    return {kernel_of<Game, V>()...};
  }
  static constexpr std::array<Kernel, kVariants> kKernels =
      kernels_of(std::make_integer_sequence<int, kVariants>{});

  int device_;
  std::array<int, kVariants> block_{};
  std::array<int, kVariants> max_grid_{};
  rollout::BackendInfo info_;
  Slot slots_[kSlots];
  rollout::SlotRing ring_{"cuda", kSlots};
};

}  // namespace

template <class Game>
std::unique_ptr<rollout::Backend<Game>> make_cuda_backend(const rollout::BackendOptions& options) {
  return std::make_unique<CudaBackend<Game>>(options);
}

#define SP_INSTANTIATE(G)                                             \
  template std::unique_ptr<rollout::Backend<G>> make_cuda_backend<G>( \
      const rollout::BackendOptions&);
SP_FOR_EACH_GAME(SP_INSTANTIATE)
#undef SP_INSTANTIATE

namespace {

// The registration (host/engines/rollout/device_registry.hpp): the queries and, for every game of
// the list, its factory. This library is linked whole, so the initializer runs in every program.
[[maybe_unused]] const bool kRegistered = [] {
#define SP_REGISTER(G) rollout::device_factory<G>() = &make_cuda_backend<G>;
  SP_FOR_EACH_GAME(SP_REGISTER)
#undef SP_REGISTER
  return rollout::register_device_backend({&device_available, &device_count, &device_memory});
}();

}  // namespace

}  // namespace sp::cuda
