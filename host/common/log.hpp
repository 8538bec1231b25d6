// One-line log messages to stderr with a UTC timestamp; quiet mode for tests and scripted use.
#pragma once

#include <string_view>

namespace sp::log {

void set_quiet(bool quiet);
bool quiet();
void info(std::string_view message);
void warn(std::string_view message);

}  // namespace sp::log
