// Every CUDA runtime call goes through SP_CUDA_CHECK, which throws with file, line, the failing
// expression and CUDA's own message. Kernel launches are followed by SP_CUDA_CHECK_LAUNCH().
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace sp::cuda {

class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void throw_cuda_error(cudaError_t status, const char* expr, const char* file,
                                          int line) {
  throw CudaError(std::string("CUDA error at ") + file + ":" + std::to_string(line) + ": " + expr +
                  ": " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

}  // namespace sp::cuda

#define SP_CUDA_CHECK(expr)                                                \
  do {                                                                     \
    const cudaError_t sp_status_ = (expr);                                 \
    if (sp_status_ != cudaSuccess)                                         \
      ::sp::cuda::throw_cuda_error(sp_status_, #expr, __FILE__, __LINE__); \
  } while (0)

#define SP_CUDA_CHECK_LAUNCH() SP_CUDA_CHECK(cudaGetLastError())
