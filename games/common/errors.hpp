// Typed errors raised at the edges (notation, configs, files, protocols). Inside the engine,
// contracts are asserts; bad input from a user becomes one of these, never a crash.
#pragma once

#include <stdexcept>
#include <string>

namespace sp {

// Malformed or illegal input. The message names what is wrong and where.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace sp
