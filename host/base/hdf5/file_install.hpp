// How whole campaign files come to be: built under a temporary name beside their target and
// renamed over it while the writer's lock is held (install_file, write_target and
// lock_for_writing, in campaign_file.hpp, are defined beside these). Internal to host/base/hdf5.
#pragma once

#include <functional>
#include <string>

#include "host/base/hdf5/tables.hpp"

namespace sp::io::internal {

// Throws std::invalid_argument unless `lock` is the one lock_for_writing(path) takes.
void check_lock(const FileLock& lock, const std::string& path);

// Builds the campaign file for `path` as `temp` (fill writes its rows), starts SWMR writing on it,
// which flushes it whole, and renames it to `target` (write_target(path)) while this writer holds
// it: `target` is never a partial file, and no reader can open it, and so hold HDF5's own file
// lock, before the writer has it. The permission bits of a file it replaces are kept. On failure
// `temp` is removed.
Tables build_and_install(const std::string& path, const std::string& temp, const FileMeta& meta,
                         const std::function<void(Tables&)>& fill);

}  // namespace sp::io::internal
