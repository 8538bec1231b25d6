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

// The file a write to `path` lands in: `path`, or the file its symbolic link(s) point to (a chain
// of at most 40; a relative link is read from the link's folder). Every output of selfplay is
// written through its links: the link stays, its target gets the new content.
std::string write_target(const std::string& path);

// Throws FileWriteError (EINVAL: a path that cannot be used, exit code 2) when `target`
// (write_target(path)) exists and is not a regular file: a character or block device such as
// /dev/null, a FIFO, a socket, or a directory (EISDIR). Outputs are made beside their target and
// renamed over it, which would replace such a node by a file; nothing is touched instead.
void check_regular_target(const std::string& path, const std::string& target);

// Writes text to write_target(path) through a temporary file in the same directory, flushed to
// disk and renamed over it, so that it holds either its old content or all of text. Creates
// missing parent directories; keeps the permission bits of a file it replaces. Throws
// FileWriteError when it cannot (and leaves no temporary file), check_regular_target's first.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace sp
