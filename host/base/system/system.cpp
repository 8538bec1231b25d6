#include "host/base/system/system.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iterator>
#include <system_error>
#include <utility>

namespace sp {
namespace {

// The number in a cgroup limit file; 0 for "max", a missing file or anything unreadable.
uint64_t cgroup_limit(const char* path) {
  std::ifstream in(path);
  unsigned long long v = 0;
  if (!(in >> v)) return 0;
  return v;
}

}  // namespace

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw std::system_error(errno, std::generic_category(), what + " '" + path + "'");
}

// What the holder wrote into the lock file; "unknown" before it has written it.
std::string read_holder(int fd) {
  char buf[256];
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string text = n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text.empty() ? "unknown" : text;
}

}  // namespace

FileLock FileLock::acquire(const std::string& lock_path, const std::string& what) {
  FileLock lock;
  lock.path_ = lock_path;
  // A holder removes the file when it releases the lock, so the file this process opened may have
  // been unlinked by the time it gets the lock: then the lock guards nothing, and it tries again.
  for (;;) {
    const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) fail("cannot create lock file", lock_path);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      const std::string holder = error == EWOULDBLOCK ? read_holder(fd) : "";
      ::close(fd);
      errno = error;
      if (error != EWOULDBLOCK) fail("cannot lock", lock_path);
      throw FileLocked(
          what + " is being written by another process (" + holder + " holds " + lock_path + ")",
          holder);
    }
    struct stat opened = {}, named = {};
    if (::fstat(fd, &opened) == 0 && ::stat(lock_path.c_str(), &named) == 0 &&
        opened.st_dev == named.st_dev && opened.st_ino == named.st_ino) {
      lock.fd_ = fd;
      break;
    }
    ::close(fd);
  }
  const std::string holder = "pid " + std::to_string(::getpid()) + " on " + host_name() + "\n";
  if (::ftruncate(lock.fd_, 0) != 0 ||
      ::pwrite(lock.fd_, holder.data(), holder.size(), 0) != static_cast<ssize_t>(holder.size()))
    fail("cannot write lock file", lock_path);
  return lock;
}

FileLock::FileLock(FileLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

FileLock::~FileLock() { release(); }

void FileLock::release() noexcept {
  if (fd_ < 0) return;
  // Unlinked while still locked: a process that opened the old file sees the inode change.
  ::unlink(path_.c_str());
  ::close(std::exchange(fd_, -1));
}

uint64_t usable_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  uint64_t bytes = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
  // An unlimited v1 group reads as about 2^63; any limit above the physical memory changes nothing.
  for (const char* path :
       {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"})
    if (const uint64_t limit = cgroup_limit(path); limit > 0 && bytes > 0)
      bytes = std::min(bytes, limit);
  return bytes;
}

std::string format_bytes(uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  while (v >= 1024 && unit + 1 < std::size(kUnits)) v /= 1024, ++unit;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[unit]);
  return buf;
}

}  // namespace sp
