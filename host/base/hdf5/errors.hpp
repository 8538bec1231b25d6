// The errors of the HDF5 layer, free of HDF5's headers so that code which only reports them need
// not include <hdf5.h>.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace sp::io {

// An HDF5 operation failed. what() is one line, "HDF5 <operation> failed for '<object>': <cause>",
// the cause being the system's message when a system call failed inside HDF5 (errno, e.g. "No
// space left on device") and HDF5's innermost message otherwise.
class H5Error : public std::runtime_error {
 public:
  explicit H5Error(const std::string& message, std::string stack = {}, int system_error = 0)
      : std::runtime_error(message), stack_(std::move(stack)), system_error_(system_error) {}
  // HDF5's error stack, one frame per line (empty when the error did not come from HDF5).
  const std::string& stack() const { return stack_; }
  // The errno of the failed system call, 0 when none was reported.
  int system_error() const { return system_error_; }

 private:
  std::string stack_;
  int system_error_ = 0;
};

// A path that cannot be used as an HDF5 file: missing, a directory or device, not HDF5 or damaged,
// permission denied, a name too long, an existing file where a new one was asked for. Bad input
// (exit code 2), unlike a plain H5Error, which is a failure while working (a full disk: exit 1).
class H5FileError : public H5Error {
 public:
  using H5Error::H5Error;
};

// Whether errno `error` means the system failed (a full disk, a file size limit, an I/O error, no
// memory) rather than the path or file being unusable.
bool is_system_failure(int error);

}  // namespace sp::io
