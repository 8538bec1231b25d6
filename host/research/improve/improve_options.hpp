// The options of one `selfplay improve` run, from its command line: the loop's directory, resume,
// and the overrides of the config that every step runs with.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace sp::improve {

struct ImproveOptions {
  std::string out;                      // DIR; required
  bool resume = false;                  // continue the loop in DIR
  std::optional<uint32_t> generations;  // overrides stop.generations
  std::optional<std::string> backend;   // overrides selfplay.backend.name (every step)
  std::optional<int> threads;           // overrides selfplay.backend.threads
  std::optional<int> device;            // overrides selfplay.backend.device
  bool live = false;                    // the steps rewrite their status line (a terminal)
};

}  // namespace sp::improve
