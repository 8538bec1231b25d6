// The `check` backend: runs every batch on two backends and throws, naming the first differing
// leaf, unless their statistics agree in every bit. It returns the first backend's results.
#pragma once

#include <memory>

#include "host/engines/rollout/backend.hpp"

namespace sp::rollout {

// Thrown when the two backends disagree.
class BackendMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <sp::Game Game>
std::unique_ptr<Backend<Game>> make_check_backend(std::unique_ptr<Backend<Game>> first,
                                                  std::unique_ptr<Backend<Game>> second);

}  // namespace sp::rollout
