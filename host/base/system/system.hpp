// Facts about the run for file metadata and provenance (the time in UTC, the host name), about
// the machine it runs on (its memory), and the advisory lock that keeps a second process from
// writing a file this one writes.
#pragma once

#include <cstdint>
#include <string>

#include "core/errors.hpp"

namespace sp {

std::string utc_now();    // "2026-11-29T14:22:06Z"
std::string host_name();  // "unknown" when the system will not say

// Another process holds the lock: a usage error (exit code 2), the message names the holder.
class FileLocked : public InputError {
 public:
  FileLocked(const std::string& message, std::string holder)
      : InputError(message), holder_(std::move(holder)) {}
  const std::string& holder() const { return holder_; }  // "pid 1234 on host-a", or "unknown"

 private:
  std::string holder_;
};

// An exclusive flock() on a lock file, held until release() or destruction, which remove the file.
// The file records the holder ("pid 1234 on host-a") for the message of a refused process. The
// kernel drops the lock when its process dies (even by SIGKILL), so a lock file a killed process
// left behind is simply taken over. Locks are per open file description: a second acquire of the
// same file in this process is refused like another process's. Move-only.
class FileLock {
 public:
  FileLock() = default;
  // Takes the lock on lock_path, creating the file. Throws FileLocked "<what> is being written by
  // another process (pid P on H holds <lock_path>)" while another holder has it, and
  // std::system_error when the file cannot be created or locked.
  static FileLock acquire(const std::string& lock_path, const std::string& what);

  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

  // Removes the lock file, then drops the lock. Idempotent.
  void release() noexcept;
  bool held() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};
// The memory this process may use, in bytes: the machine's physical memory, or the memory limit
// of its control group (cgroup v2 memory.max or v1 memory.limit_in_bytes) when that is lower.
// 0 when the system will not say how much memory the machine has.
uint64_t usable_memory_bytes();

// A byte count for messages: "512 B", "4.0 MiB", "1.5 GiB", "4.0 TiB" (binary units).
std::string format_bytes(uint64_t bytes);

}  // namespace sp
