// The CUDA rollout backend: two slots of buffers allocated once (pinned host, device), one stream
// per slot, so the host fills one slot while the other's copies and kernel run.
#include "cuda/cuda_backend.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda/cuda_check.hpp"
#include "cuda/rollout_kernel.cuh"
#include "games/games.hpp"
#include "host/rollout/leaf_order.hpp"

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
    block_size_ = options.block_size > 0 ? options.block_size : 128;
    if (block_size_ % 32 != 0 || block_size_ > prop.maxThreadsPerBlock)
      throw std::invalid_argument("cuda backend: block size must be a multiple of 32 and at most " +
                                  std::to_string(prop.maxThreadsPerBlock));
    int blocks_per_sm = 0;
    SP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks_per_sm, rollout_kernel<Game>, block_size_, 0));
    max_grid_ = std::max(1, blocks_per_sm) * prop.multiProcessorCount * 4;

    info_.name = "cuda";
    info_.device = std::string(prop.name) + " (sm_" + std::to_string(prop.major) +
                   std::to_string(prop.minor) + ", " + std::to_string(prop.multiProcessorCount) +
                   " SMs)";
    info_.preferred_rollouts = size_t(prop.multiProcessorCount) * blocks_per_sm * block_size_ * 8;
    info_.max_leaves = options.max_leaves;
    info_.max_rollouts = options.max_rollouts;
    info_.max_in_flight = kSlots;
    for (Slot& s : slots_) {
      s.h_leaves = pinned_buffer<Leaf>(info_.max_leaves);
      s.h_offsets = pinned_buffer<uint32_t>(info_.max_leaves + 1);
      s.h_stats = pinned_buffer<LeafStats>(info_.max_leaves);
      s.d_leaves = device_buffer<Leaf>(info_.max_leaves);
      s.d_offsets = device_buffer<uint32_t>(info_.max_leaves + 1);
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
    // Everything that can refuse the batch comes before the ticket is taken: a refused batch must
    // not advance to the slot of the batch still in flight.
    if (in_flight_.size() >= kSlots)
      throw std::logic_error("cuda backend: more batches in flight than max_in_flight");
    const uint64_t total = rollout::check_batch<Game>(info_, leaves);
    SP_CUDA_CHECK(cudaSetDevice(device_));
    const rollout::Ticket ticket = next_++;
    Slot& s = slots_[ticket % kSlots];
    s.submitted = std::chrono::steady_clock::now();
    const size_t n = leaves.size();
    s.n_leaves = static_cast<uint32_t>(n);

    // Device order: leaves grouped by (policy, side to move); wait() un-permutes the statistics.
    rollout::device_order<Game>(leaves, std::span<uint32_t>(s.order.data(), n));
    uint32_t offset = 0;
    uint32_t uniform = n ? leaves[0].rollouts : 0;
    for (size_t k = 0; k < n; ++k) {
      const Leaf& leaf = leaves[s.order[k]];
      s.h_leaves[k] = leaf;
      s.h_offsets[k] = offset;
      offset += leaf.rollouts;
      if (leaf.rollouts != uniform) uniform = 0;
    }
    s.h_offsets[n] = offset;

    const Stream& stream = s.stream;
    if (n > 0) {
      SP_CUDA_CHECK(cudaMemcpyAsync(s.d_leaves.get(), s.h_leaves.get(), n * sizeof(Leaf),
                                    cudaMemcpyHostToDevice, stream.get()));
      if (!uniform)
        SP_CUDA_CHECK(cudaMemcpyAsync(s.d_offsets.get(), s.h_offsets.get(),
                                      (n + 1) * sizeof(uint32_t), cudaMemcpyHostToDevice,
                                      stream.get()));
      SP_CUDA_CHECK(cudaMemsetAsync(s.d_stats.get(), 0, n * sizeof(LeafStats), stream.get()));
    }
    SP_CUDA_CHECK(cudaEventRecord(s.kernel_start.get(), stream.get()));
    if (total > 0) {
      const uint64_t blocks = (total + block_size_ - 1) / block_size_;
      const unsigned grid = static_cast<unsigned>(std::min<uint64_t>(blocks, max_grid_));
      rollout_kernel<Game><<<grid, block_size_, 0, stream.get()>>>(
          s.d_leaves.get(), s.d_offsets.get(), s.n_leaves, uniform, static_cast<uint32_t>(total),
          params, s.d_stats.get());
      SP_CUDA_CHECK_LAUNCH();
    }
    SP_CUDA_CHECK(cudaEventRecord(s.kernel_end.get(), stream.get()));
    if (n > 0)
      SP_CUDA_CHECK(cudaMemcpyAsync(s.h_stats.get(), s.d_stats.get(), n * sizeof(LeafStats),
                                    cudaMemcpyDeviceToHost, stream.get()));
    SP_CUDA_CHECK(cudaEventRecord(s.done.get(), stream.get()));
    in_flight_.push_back(ticket);
    return ticket;
  }

  bool ready(rollout::Ticket ticket) override {
    const cudaError_t status = cudaEventQuery(slots_[ticket % kSlots].done.get());
    if (status == cudaErrorNotReady) return false;
    SP_CUDA_CHECK(status);
    return true;
  }

  rollout::BatchTiming wait(rollout::Ticket ticket, std::span<LeafStats> out) override {
    if (in_flight_.empty() || in_flight_.front() != ticket)
      throw std::logic_error("cuda backend: wait() on a ticket that is not the oldest in flight");
    Slot& s = slots_[ticket % kSlots];
    if (out.size() < s.n_leaves)
      throw std::invalid_argument("cuda backend: output span smaller than the batch");
    in_flight_.pop_front();
    SP_CUDA_CHECK(cudaEventSynchronize(s.done.get()));
    rollout::to_batch_order(std::span<const uint32_t>(s.order.data(), s.n_leaves), s.h_stats.get(),
                            out);
    rollout::BatchTiming t;
    float kernel_ms = 0;
    SP_CUDA_CHECK(cudaEventElapsedTime(&kernel_ms, s.kernel_start.get(), s.kernel_end.get()));
    t.compute_ms = kernel_ms;
    t.total_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s.submitted)
            .count();
    return t;
  }

 private:
  static constexpr int kSlots = 2;
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

  int device_;
  int block_size_ = 128;
  int max_grid_ = 1;
  rollout::BackendInfo info_;
  Slot slots_[kSlots];
  std::deque<rollout::Ticket> in_flight_;
  rollout::Ticket next_ = 0;
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

}  // namespace sp::cuda
