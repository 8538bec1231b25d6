// A small RAII layer over the HDF5 C API. Every call is checked; a failure throws H5Error: one line
// naming the operation, the object or file and the cause, with HDF5's own error stack kept aside.
// HDF5's automatic printing of errors to stderr is switched off on every thread that goes through
// this layer (the setting is per thread in thread-safe builds), so errors surface only as
// exceptions. HDF5's exit-time cleanup is switched off as well (see abandon_writes()).
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "host/base/hdf5/errors.hpp"

namespace sp::io {

// Switches off HDF5's automatic error printing for the calling thread. Idempotent and cheap; every
// helper below calls it, code that calls the C API directly calls it once per thread first.
void init_thread();

// Throws H5Error "HDF5 <operation> failed for '<object>': <cause>". Call it right after the failing
// HDF5 call: the next call clears the stack.
[[noreturn]] void fail(std::string_view operation, std::string_view object);
inline hid_t check_id(hid_t id, std::string_view operation, std::string_view object) {
  if (id < 0) fail(operation, object);
  return id;
}
inline herr_t check(herr_t status, std::string_view operation, std::string_view object) {
  if (status < 0) fail(operation, object);
  return status;
}

// An owning identifier closed by CloseFn. Move-only. close() reports a failure; the destructor
// cannot and ignores it (call close() where the outcome matters, e.g. on files).
template <herr_t (*CloseFn)(hid_t)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(hid_t id) : id_(id) {}
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, H5I_INVALID_HID);
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }

  hid_t get() const { return id_; }
  explicit operator bool() const { return id_ >= 0; }
  void reset() noexcept {
    if (id_ >= 0) CloseFn(id_);
    id_ = H5I_INVALID_HID;
  }
  void close(std::string_view object) {
    if (id_ < 0) return;
    const hid_t id = std::exchange(id_, H5I_INVALID_HID);
    check(CloseFn(id), "close", object);
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
};

using File = Handle<H5Fclose>;
using Group = Handle<H5Gclose>;
using Dataset = Handle<H5Dclose>;
using Datatype = Handle<H5Tclose>;  // owned (copied or created) types only, never H5T_NATIVE_*
using Dataspace = Handle<H5Sclose>;
using PropList = Handle<H5Pclose>;
using Attribute = Handle<H5Aclose>;
using Object = Handle<H5Oclose>;  // any object opened by H5Oopen

enum class OpenMode {
  kRead,       // plain read-only; fails on a file a writer still holds or left after a crash
  kReadSwmr,   // read-only, SWMR read: works while a SWMR writer is active and after it crashed
  kWriteSwmr,  // read-write, SWMR write
};

// Files use the latest format (superblock v3), which SWMR requires. create_file truncates or,
// with exclusive, fails when the file exists. Both throw H5FileError when the path cannot be used
// (see H5FileError), H5Error when the system fails (a full disk).
File create_file(const std::string& path, bool exclusive);
File open_file(const std::string& path, OpenMode mode);
// Opens for reading: SWMR read first (a live or crashed writer's file), then plain read-only for
// files without SWMR support; when both fail the SWMR error is the one reported.
File open_for_reading(const std::string& path);
void start_swmr_write(const File& file, std::string_view path);
void flush_file(const File& file, std::string_view path);

// After a failed write, sends every later write to `file` into an anonymous memory file instead,
// so that HDF5 can close the file and all its objects: closing flushes, and on a full disk that
// flush fails again; a failed H5Fclose leaves HDF5 1.10 with a half-destroyed file that crashes
// its exit handler. The file on disk stays as the failure left it, like after a crash, except
// that it is extended (by a hole, which needs no space) to the end of the space HDF5 allocated,
// since HDF5 refuses a file shorter than that as truncated. Reads of data not cached yet see
// zeros, so only closing is meaningful afterwards. When the redirection is impossible, or the
// close fails anyway (a file size limit applies to memory files too), the file is leaked instead:
// HDF5's exit handler, which would touch it, is switched off for the process.
void abandon_writes(const File& file);

Group create_group(hid_t location, const std::string& name);
Group open_group(hid_t location, const std::string& name);
Dataset open_dataset(hid_t location, const std::string& name);
// Whether location has a link `name` (one path component).
bool has_link(hid_t location, const std::string& name);

// The full HDF5 path of an object, for messages ("/plies").
std::string object_name(hid_t object);

// A fixed-length, NUL-terminated ASCII string type of `size` bytes (size >= 1).
Datatype string_type(size_t size);
// A copy of `memory_type` with its compound members packed: the on-disk layout, free of the
// host's struct padding.
Datatype packed_copy(hid_t memory_type);

// Attributes on any object. Strings are fixed-length (no variable-length types anywhere in our
// files: they are not SWMR-safe in HDF5 1.10). A string list is a 1-D array of fixed strings.
void write_attribute(hid_t object, const std::string& name, std::string_view value);
void write_attribute(hid_t object, const std::string& name, uint64_t value);
void write_attribute(hid_t object, const std::string& name, uint32_t value);
void write_attribute(hid_t object, const std::string& name, double value);
void write_attribute(hid_t object, const std::string& name, const std::vector<std::string>& values);
bool has_attribute(hid_t object, const std::string& name);
std::string read_string_attribute(hid_t object, const std::string& name);
uint64_t read_uint64_attribute(hid_t object, const std::string& name);
double read_double_attribute(hid_t object, const std::string& name);
std::vector<std::string> read_string_list_attribute(hid_t object, const std::string& name);

struct ChunkedLayout {
  hsize_t chunk_rows = 1024;
  unsigned gzip_level = 4;  // 0: no compression (shuffle is skipped too)
};

// A 1-D dataset of `memory_type` rows with unlimited length, stored as packed_copy(memory_type),
// chunked, shuffle + gzip. `fill` (one element of memory_type, may be null) is what readers see in
// rows that were sized but never written, e.g. after a crash.
Dataset create_table(hid_t location, const std::string& name, hid_t memory_type,
                     const ChunkedLayout& layout, const void* fill);
// An N x columns float32 dataset (float64 with `doubles`) with unlimited N. columns == 0 is
// allowed (the second dimension is then unlimited too, since HDF5 chunks cannot be wider than a
// fixed dimension). Fill: NaN.
Dataset create_matrix(hid_t location, const std::string& name, hsize_t columns,
                      const ChunkedLayout& layout, bool doubles = false);

// Dimensions of a dataset; rows(d) is the first one.
std::vector<hsize_t> dims(hid_t dataset);
hsize_t rows(hid_t dataset);

// Extends the dataset along its first dimension and writes `count` rows from `data` (each row of a
// 2-D dataset holds every column). No-op for count == 0.
void append_rows(hid_t dataset, hid_t memory_type, const void* data, hsize_t count);
// Reads rows [first, first + count) into `out`, which must hold count rows.
void read_rows(hid_t dataset, hid_t memory_type, hsize_t first, hsize_t count, void* out);
void flush_dataset(hid_t dataset);

// A one-line, stable description of a datatype: "uint64", "float32", "string[16]",
// "compound{game_id: uint64, ...}". show_string_size false prints "string" (attributes whose
// length depends on their value).
std::string describe_type(hid_t type, bool show_string_size = true);

}  // namespace sp::io
