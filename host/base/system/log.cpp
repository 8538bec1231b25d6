#include "host/base/system/log.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace sp::log {
namespace {
std::atomic<bool> g_quiet{false};

void emit(const char* level, std::string_view message) {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
  std::fprintf(stderr, "%s %s %.*s\n", stamp, level, static_cast<int>(message.size()),
               message.data());
}
}  // namespace

void set_quiet(bool q) { g_quiet = q; }
bool quiet() { return g_quiet; }
void info(std::string_view message) {
  if (!g_quiet) emit("info", message);
}
void warn(std::string_view message) { emit("warn", message); }
bool debug_enabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("SELFPLAY_LOG");
    return v && std::strcmp(v, "debug") == 0;
  }();
  return enabled;
}
void debug(std::string_view message) {
  if (debug_enabled()) emit("debug", message);
}

}  // namespace sp::log
