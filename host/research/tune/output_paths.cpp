#include "host/research/tune/output_paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/errors.hpp"

namespace sp::tune {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void cannot_write(const std::string& path, const std::string& where,
                               const std::string& reason) {
  throw InputError(where + ": cannot write " + excerpt(path) + ": " + reason);
}

}  // namespace

void check_writable_file(const std::string& path, const std::string& where) {
  if (path.empty()) cannot_write(path, where, "the path is empty");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) cannot_write(path, where, "it is a directory");
    // A rename over a device or a FIFO would replace it, not write to it.
    if (!S_ISREG(st.st_mode)) cannot_write(path, where, "it is not a regular file");
  }
  // The nearest ancestor that exists must be a folder we may create entries in.
  fs::path folder = fs::path(path).parent_path();
  for (;;) {
    const std::string dir = folder.empty() ? "." : folder.string();
    if (::stat(dir.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) cannot_write(path, where, excerpt(dir) + " is not a directory");
      if (::access(dir.c_str(), W_OK | X_OK) != 0)
        cannot_write(path, where,
                     "cannot create files in " + excerpt(dir) + ": " + std::strerror(errno));
      return;
    }
    if (errno == ENOTDIR) {  // some component further up is a file
      folder = folder.parent_path();
      continue;
    }
    if (errno != ENOENT) cannot_write(path, where, excerpt(dir) + ": " + std::strerror(errno));
    if (folder.empty() || folder == folder.root_path()) return;
    folder = folder.parent_path();
  }
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {};
  struct stat sb {};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  std::error_code ea, eb;
  const fs::path ca = fs::weakly_canonical(fs::absolute(a, ea), ea);
  const fs::path cb = fs::weakly_canonical(fs::absolute(b, eb), eb);
  return !ea && !eb && ca == cb;
}

void check_not_an_input(const std::string& output, const std::string& where,
                        const std::vector<ReadFile>& read) {
  for (const ReadFile& r : read)
    if (same_file(output, r.path))
      throw InputError(where + ": " + excerpt(output) + " is " + r.role +
                       (output == r.path ? "" : " (" + excerpt(r.path) + ")") +
                       "; writing it would destroy that input: choose another output file");
}

}  // namespace sp::tune
