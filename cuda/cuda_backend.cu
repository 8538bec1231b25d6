// The CUDA rollout backend: two slots of buffers allocated once (pinned host, device), one stream
// per slot, so the host fills one slot while the other's copies and kernel run.
#include "cuda/cuda_backend.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <string>

#include "cuda/cuda_check.hpp"
#include "cuda/rollout_kernel.cuh"
#include "games/ewn/game.hpp"

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

namespace {

template <class T>
T* host_alloc(size_t n) {
  void* p = nullptr;
  SP_CUDA_CHECK(cudaMallocHost(&p, n * sizeof(T)));
  return static_cast<T*>(p);
}

template <class T>
T* device_alloc(size_t n) {
  void* p = nullptr;
  SP_CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
  return static_cast<T*>(p);
}

template <class Game>
class CudaBackend final : public rollout::Backend<Game> {
  using Leaf = rollout::Leaf<Game>;
  using LeafStats = rollout::LeafStats;

 public:
  explicit CudaBackend(const rollout::BackendOptions& options) : device_(options.device) {
    if (options.max_rollouts == 0 || options.max_rollouts > (size_t{1} << 31))
      throw std::invalid_argument("cuda backend: max_rollouts must be in 1 .. 2^31");
    SP_CUDA_CHECK(cudaSetDevice(device_));
    cudaDeviceProp prop{};
    SP_CUDA_CHECK(cudaGetDeviceProperties(&prop, device_));
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
      s.h_leaves = host_alloc<Leaf>(info_.max_leaves);
      s.h_offsets = host_alloc<uint32_t>(info_.max_leaves + 1);
      s.h_stats = host_alloc<LeafStats>(info_.max_leaves);
      s.d_leaves = device_alloc<Leaf>(info_.max_leaves);
      s.d_offsets = device_alloc<uint32_t>(info_.max_leaves + 1);
      s.d_stats = device_alloc<LeafStats>(info_.max_leaves);
      SP_CUDA_CHECK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
      SP_CUDA_CHECK(cudaEventCreate(&s.kernel_start));
      SP_CUDA_CHECK(cudaEventCreate(&s.kernel_end));
      SP_CUDA_CHECK(cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming));
    }
  }

  ~CudaBackend() override {
    // Destructors must not throw: release what was allocated and ignore further errors.
    cudaSetDevice(device_);
    for (Slot& s : slots_) {
      if (s.stream) cudaStreamSynchronize(s.stream);
      cudaFreeHost(s.h_leaves);
      cudaFreeHost(s.h_offsets);
      cudaFreeHost(s.h_stats);
      cudaFree(s.d_leaves);
      cudaFree(s.d_offsets);
      cudaFree(s.d_stats);
      if (s.stream) cudaStreamDestroy(s.stream);
      if (s.kernel_start) cudaEventDestroy(s.kernel_start);
      if (s.kernel_end) cudaEventDestroy(s.kernel_end);
      if (s.done) cudaEventDestroy(s.done);
    }
  }

  const rollout::BackendInfo& info() const override { return info_; }

  rollout::Ticket submit(std::span<const Leaf> leaves,
                         const rollout::PlayoutParams<Game>& params) override {
    if (in_flight_.size() >= kSlots)
      throw std::logic_error("cuda backend: more batches in flight than max_in_flight");
    if (leaves.size() > info_.max_leaves)
      throw std::invalid_argument("cuda backend: batch of " + std::to_string(leaves.size()) +
                                  " leaves exceeds max_leaves " + std::to_string(info_.max_leaves));
    SP_CUDA_CHECK(cudaSetDevice(device_));
    const rollout::Ticket ticket = next_++;
    Slot& s = slots_[ticket % kSlots];
    s.submitted = std::chrono::steady_clock::now();
    s.n_leaves = static_cast<uint32_t>(leaves.size());

    uint64_t total = 0;
    uint32_t uniform = leaves.empty() ? 0 : leaves[0].rollouts;
    for (size_t i = 0; i < leaves.size(); ++i) {
      s.h_offsets[i] = static_cast<uint32_t>(total);
      total += leaves[i].rollouts;
      if (leaves[i].rollouts != uniform) uniform = 0;
    }
    if (total > info_.max_rollouts)
      throw std::invalid_argument("cuda backend: batch of " + std::to_string(total) +
                                  " rollouts exceeds max_rollouts " + std::to_string(info_.max_rollouts));
    s.h_offsets[leaves.size()] = static_cast<uint32_t>(total);
    if (!leaves.empty()) std::memcpy(s.h_leaves, leaves.data(), leaves.size_bytes());

    const size_t n = leaves.size();
    if (n > 0) {
      SP_CUDA_CHECK(cudaMemcpyAsync(s.d_leaves, s.h_leaves, n * sizeof(Leaf), cudaMemcpyHostToDevice, s.stream));
      if (!uniform)
        SP_CUDA_CHECK(cudaMemcpyAsync(s.d_offsets, s.h_offsets, (n + 1) * sizeof(uint32_t),
                                      cudaMemcpyHostToDevice, s.stream));
      SP_CUDA_CHECK(cudaMemsetAsync(s.d_stats, 0, n * sizeof(LeafStats), s.stream));
    }
    SP_CUDA_CHECK(cudaEventRecord(s.kernel_start, s.stream));
    if (total > 0) {
      const uint64_t blocks = (total + block_size_ - 1) / block_size_;
      const unsigned grid = static_cast<unsigned>(std::min<uint64_t>(blocks, max_grid_));
      rollout_kernel<Game><<<grid, block_size_, 0, s.stream>>>(
          s.d_leaves, s.d_offsets, s.n_leaves, uniform, static_cast<uint32_t>(total), params, s.d_stats);
      SP_CUDA_CHECK_LAUNCH();
    }
    SP_CUDA_CHECK(cudaEventRecord(s.kernel_end, s.stream));
    if (n > 0)
      SP_CUDA_CHECK(cudaMemcpyAsync(s.h_stats, s.d_stats, n * sizeof(LeafStats), cudaMemcpyDeviceToHost, s.stream));
    SP_CUDA_CHECK(cudaEventRecord(s.done, s.stream));
    in_flight_.push_back(ticket);
    return ticket;
  }

  bool ready(rollout::Ticket ticket) override {
    const cudaError_t status = cudaEventQuery(slots_[ticket % kSlots].done);
    if (status == cudaErrorNotReady) return false;
    SP_CUDA_CHECK(status);
    return true;
  }

  rollout::BatchTiming wait(rollout::Ticket ticket, std::span<LeafStats> out) override {
    if (in_flight_.empty() || in_flight_.front() != ticket)
      throw std::logic_error("cuda backend: wait() on a ticket that is not the oldest in flight");
    in_flight_.pop_front();
    Slot& s = slots_[ticket % kSlots];
    SP_CUDA_CHECK(cudaEventSynchronize(s.done));
    if (out.size() < s.n_leaves)
      throw std::invalid_argument("cuda backend: output span smaller than the batch");
    std::copy(s.h_stats, s.h_stats + s.n_leaves, out.begin());
    rollout::BatchTiming t;
    float kernel_ms = 0;
    SP_CUDA_CHECK(cudaEventElapsedTime(&kernel_ms, s.kernel_start, s.kernel_end));
    t.compute_ms = kernel_ms;
    t.total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s.submitted).count();
    return t;
  }

 private:
  static constexpr int kSlots = 2;
  struct Slot {
    Leaf* h_leaves = nullptr;
    uint32_t* h_offsets = nullptr;
    LeafStats* h_stats = nullptr;
    Leaf* d_leaves = nullptr;
    uint32_t* d_offsets = nullptr;
    LeafStats* d_stats = nullptr;
    cudaStream_t stream = nullptr;
    cudaEvent_t kernel_start = nullptr, kernel_end = nullptr, done = nullptr;
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

template std::unique_ptr<rollout::Backend<EwnGame>> make_cuda_backend<EwnGame>(
    const rollout::BackendOptions&);

}  // namespace sp::cuda
