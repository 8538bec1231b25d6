// Whole-file writes of small text outputs (weights, exports, lineage sidecars): a reader sees the
// old content or the new, never a part.
#pragma once

#include <stdexcept>
#include <string>

namespace sp {

// A file could not be written. error() is the errno of the failed call: the system failing (a full
// disk, an I/O error: exit code 1) or the path being unusable (a directory, no permission, a name
// too long: exit code 2); host/app's main tells them apart with io::is_system_failure.
class FileWriteError : public std::runtime_error {
 public:
  FileWriteError(const std::string& message, int error)
      : std::runtime_error(message), error_(error) {}
  int error() const { return error_; }

 private:
  int error_;
};

// Writes text to path through a temporary file in the same directory, flushed to disk and renamed
// over path, so that path holds either its old content or all of text. Creates missing parent
// directories; keeps the permission bits of a file it replaces. Throws FileWriteError when it
// cannot (and leaves no temporary file).
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace sp
