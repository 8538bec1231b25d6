// One-line log messages to stderr with a UTC timestamp; quiet mode for tests and scripted use.
#pragma once

#include <string_view>

namespace sp::log {

void set_quiet(bool quiet);
bool quiet();
void info(std::string_view message);
void warn(std::string_view message);
// Lines for debugging (what an external engine printed): written only when the environment has
// SELFPLAY_LOG=debug, read once.
bool debug_enabled();
void debug(std::string_view message);

}  // namespace sp::log
