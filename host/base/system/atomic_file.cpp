#include "host/base/system/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace sp {

std::string write_target(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p = path;
  std::error_code error;
  // A loop of links stops here; opening the file then reports it.
  for (int hops = 0; hops < 40 && fs::is_symlink(p, error); ++hops) {
    const fs::path next = fs::read_symlink(p, error);
    if (error) break;
    p = next.is_absolute() ? next : p.parent_path() / next;
  }
  return p.string();
}

void check_regular_target(const std::string& path, const std::string& target) {
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return;
  const std::string shown = target == path ? path : path + " (a link to " + target + ")";
  if (S_ISDIR(st.st_mode))
    throw FileWriteError("cannot write " + shown + ": it is a directory", EISDIR);
  const char* kind = S_ISCHR(st.st_mode)    ? "a character device"
                     : S_ISBLK(st.st_mode)  ? "a block device"
                     : S_ISFIFO(st.st_mode) ? "a FIFO"
                     : S_ISSOCK(st.st_mode) ? "a socket"
                                            : "not a regular file";
  throw FileWriteError("cannot write " + shown + ": it is " + std::string(kind) +
                           ", not a regular file (selfplay writes only regular files: replacing "
                           "it would destroy it)",
                       EINVAL);
}

void write_file_atomically(const std::string& requested, const std::string& text) {
  namespace fs = std::filesystem;
  const std::string path = write_target(requested);
  check_regular_target(requested, path);
  const fs::path parent = fs::path(path).parent_path();
  std::error_code made;
  if (!parent.empty()) fs::create_directories(parent, made);
  if (made)
    throw FileWriteError("cannot write " + path + ": cannot make its folder " + parent.string() +
                             ": " + made.message(),
                         made.value());
  struct stat target {};
  std::string temp = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) {
    const int error = errno;
    throw FileWriteError(
        "cannot write " + path + ": cannot create a file next to it: " + std::strerror(error),
        error);
  }
  const auto fail = [&](const std::string& what) {
    const int error = errno;
    ::close(fd);
    ::unlink(temp.c_str());
    throw FileWriteError("cannot write " + path + ": " + what + ": " + std::strerror(error), error);
  };
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("write");
    done += static_cast<size_t>(n);
  }
  // mkstemp creates 0600: keep the mode of the file replaced, else make it readable by all.
  const mode_t mode = ::stat(path.c_str(), &target) == 0 ? (target.st_mode & 07777) : 0644;
  if (::fchmod(fd, mode) != 0) fail("chmod");
  if (::fsync(fd) != 0) fail("fsync");
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    throw FileWriteError("cannot write " + path + ": close: " + std::strerror(error), error);
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    throw FileWriteError("cannot replace " + path + ": " + std::strerror(error), error);
  }
}

}  // namespace sp
