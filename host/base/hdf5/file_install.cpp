#include "host/base/hdf5/file_install.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "host/base/system/atomic_file.hpp"

namespace sp::io {
namespace {

void sync_path(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

void check_campaign_path(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) throw H5FileError("'" + path + "' is a directory, not a file");
    if (!S_ISREG(info.st_mode)) throw H5FileError("'" + path + "' is not a regular file");
    return;
  }
  if (errno != ENOENT) throw H5FileError("cannot use '" + path + "': " + std::strerror(errno));
}

void install_file(const std::string& temp, const std::string& target) {
  try {
    check_regular_target(target, target);
  } catch (const FileWriteError& e) {
    throw H5FileError(e.what(), {}, e.error());
  }
  struct stat old = {};
  if (::stat(target.c_str(), &old) == 0) ::chmod(temp.c_str(), old.st_mode & 07777);
  sync_path(temp);
  std::filesystem::rename(temp, target);
  sync_path(std::filesystem::absolute(target).parent_path().string());
}

FileLock lock_for_writing(const std::string& path) {
  const std::string target = write_target(path);
  try {
    check_regular_target(path, target);
  } catch (const FileWriteError& e) {
    throw H5FileError(e.what(), {}, e.error());
  }
  const std::string lock_path = target + ".lock";
  try {
    return FileLock::acquire(lock_path, "'" + path + "'");
  } catch (const std::system_error& e) {
    // A folder that cannot take the lock file (read-only, missing, a name too long) is a path
    // that cannot be used: bad input; a full disk or an I/O error is a failure while working.
    const int error = e.code().value();
    const std::string message = "cannot write '" + path + "': " + e.what();
    if (is_system_failure(error)) throw H5Error(message, {}, error);
    throw H5FileError(message, {}, error);
  }
}

namespace internal {

void check_lock(const FileLock& lock, const std::string& path) {
  if (!lock.held() || lock.path() != write_target(path) + ".lock")
    throw std::invalid_argument("campaign writer for '" + path + "': not locked for writing");
}

Tables build_and_install(const std::string& path, const std::string& temp, const FileMeta& meta,
                         const std::function<void(Tables&)>& fill) {
  const std::string target = write_target(path);
  Tables tables;
  try {
    tables = Tables::create(temp, meta, false);
    if (!meta.identity.empty()) write_attribute(tables.file.get(), "identity", meta.identity);
    if (!meta.program.empty()) write_attribute(tables.file.get(), "program", meta.program);
    fill(tables);
    start_swmr_write(tables.file, temp);
    install_file(temp, target);
  } catch (...) {
    try {
      tables.close();
    } catch (...) {
    }
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    throw;
  }
  tables.path = path;
  return tables;
}

}  // namespace internal
}  // namespace sp::io
