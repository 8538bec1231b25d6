#include "host/base/hdf5/h5.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace sp::io {
namespace {

// HDF5's exit handler closes every identifier still open. After a failed H5Fclose (a full disk,
// see abandon_writes) one of them is a half-destroyed file and the handler crashes (HDF5 1.10).
// Every object here is closed by its owner, so the handler is switched off; this runs before
// main(), before anything initialises the library.
[[maybe_unused]] const bool kExitHandlerOff = H5dont_atexit() >= 0;

// The calling thread's HDF5 error stack, consumed: every frame as text, the innermost frame's
// description and the errno a failed system call left in it (sec2 driver: "errno = 28, ...").
struct ErrorStack {
  std::string text;
  std::string innermost;
  int system_error = 0;
};

herr_t append_frame(unsigned n, const H5E_error2_t* frame, void* data) {
  auto& stack = *static_cast<ErrorStack*>(data);
  char major[128] = "";
  char minor[128] = "";
  H5Eget_msg(frame->maj_num, nullptr, major, sizeof major);
  H5Eget_msg(frame->min_num, nullptr, minor, sizeof minor);
  std::string desc = frame->desc ? frame->desc : "";
  std::replace(desc.begin(), desc.end(), '\n', ' ');  // H5F_open embeds ctime()'s newline
  if (!stack.text.empty()) stack.text += '\n';
  stack.text += "#" + std::to_string(n) + ' ' + (frame->func_name ? frame->func_name : "?") +
                "(): " + desc + " [" + major + "; " + minor + "]";
  stack.innermost = desc.empty() ? minor : desc;
  if (const size_t at = desc.find("errno = "); at != std::string::npos) {
    stack.system_error = std::atoi(desc.c_str() + at + 8);
  }
  return 0;
}

ErrorStack take_error_stack() {
  ErrorStack stack;
  const hid_t id = H5Eget_current_stack();
  if (id < 0) return stack;
  H5Ewalk2(id, H5E_WALK_DOWNWARD, append_frame, &stack);
  H5Eclose_stack(id);
  return stack;
}

std::string cause_of(const ErrorStack& stack) {
  if (stack.system_error) return std::strerror(stack.system_error);
  return stack.innermost.empty() ? "no HDF5 error message" : stack.innermost;
}

// Why `path` cannot be opened as an existing file, or "" when it is a regular, non-empty file.
std::string unusable_for_reading(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return std::strerror(errno);
  if (S_ISDIR(info.st_mode)) return "is a directory";
  if (!S_ISREG(info.st_mode)) return "not a regular file";
  if (info.st_size == 0) return "empty file";
  return "";
}

// Why `path` cannot be created as a file, or "" when nothing is known against it.
std::string unusable_for_creating(const std::string& path, bool exclusive) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return errno == ENOENT ? "" : std::strerror(errno);
  if (S_ISDIR(info.st_mode)) return "is a directory";
  if (!S_ISREG(info.st_mode)) return "not a regular file";
  return exclusive ? "exists" : "";
}

// After a failed H5Fopen/H5Fcreate: H5Error when the system failed, H5FileError otherwise.
[[noreturn]] void fail_file(std::string_view verb, const std::string& path) {
  const ErrorStack stack = take_error_stack();
  const std::string message = "cannot " + std::string(verb) + " '" + path + "': " + cause_of(stack);
  if (is_system_failure(stack.system_error)) {
    throw H5Error(message, stack.text, stack.system_error);
  }
  throw H5FileError(message, stack.text, stack.system_error);
}

// Reads of a metadata block whose checksum fails are retried this often under SWMR, in case the
// writer was writing it. HDF5 sleeps 1, 2, 4, ... ns between tries; its default of 100 tries
// would wait for ages on a damaged file, these ~17 ms in all, far longer than a block write.
constexpr unsigned kSwmrReadAttempts = 24;

PropList file_access(std::string_view path) {
  PropList fapl(check_id(H5Pcreate(H5P_FILE_ACCESS), "create file access list", path));
  check(H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_LATEST, H5F_LIBVER_LATEST),
        "set library version bounds", path);
  check(H5Pset_metadata_read_attempts(fapl.get(), kSwmrReadAttempts), "set read attempts", path);
  return fapl;
}

Dataspace row_selection(hid_t dataset, const std::vector<hsize_t>& full, hsize_t first,
                        hsize_t count, Dataspace* memory, std::string_view name) {
  Dataspace file_space(check_id(H5Dget_space(dataset), "get dataspace", name));
  std::vector<hsize_t> start(full.size(), 0);
  std::vector<hsize_t> extent = full;
  start[0] = first;
  extent[0] = count;
  check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, extent.data(),
                            nullptr),
        "select rows", name);
  *memory =
      Dataspace(check_id(H5Screate_simple(static_cast<int>(extent.size()), extent.data(), nullptr),
                         "create memory dataspace", name));
  return file_space;
}

hsize_t elements(const std::vector<hsize_t>& extent) {
  hsize_t n = 1;
  for (hsize_t d : extent) n *= d;
  return n;
}

}  // namespace

void init_thread() {
  thread_local bool done = false;
  if (done) return;
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  done = true;
}

bool is_system_failure(int error) {
  switch (error) {
    case ENOSPC:
    case EDQUOT:
    case EFBIG:
    case EIO:
    case ENOMEM:
    case ENOBUFS:
    case EMFILE:
    case ENFILE:
    case EINTR:
      return true;
    default:
      return false;
  }
}

void fail(std::string_view operation, std::string_view object) {
  const ErrorStack stack = take_error_stack();
  throw H5Error("HDF5 " + std::string(operation) + " failed for '" + std::string(object) +
                    "': " + cause_of(stack),
                stack.text, stack.system_error);
}

File create_file(const std::string& path, bool exclusive) {
  init_thread();
  if (const std::string why = unusable_for_creating(path, exclusive); !why.empty()) {
    throw H5FileError("cannot create '" + path + "': " + why);
  }
  const PropList fapl = file_access(path);
  const hid_t id =
      H5Fcreate(path.c_str(), exclusive ? H5F_ACC_EXCL : H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get());
  if (id < 0) fail_file("create", path);
  return File(id);
}

File open_file(const std::string& path, OpenMode mode) {
  init_thread();
  if (const std::string why = unusable_for_reading(path); !why.empty()) {
    throw H5FileError("cannot open '" + path + "': " + why);
  }
  // The access list outlives the open: closing it would clear HDF5's error stack.
  PropList fapl;
  unsigned flags = H5F_ACC_RDONLY;
  switch (mode) {
    case OpenMode::kRead:
      fapl = PropList(check_id(H5Pcreate(H5P_FILE_ACCESS), "create file access list", path));
      break;
    case OpenMode::kReadSwmr:
      fapl = PropList(check_id(H5Pcreate(H5P_FILE_ACCESS), "create file access list", path));
      check(H5Pset_metadata_read_attempts(fapl.get(), kSwmrReadAttempts), "set read attempts",
            path);
      flags |= H5F_ACC_SWMR_READ;
      break;
    case OpenMode::kWriteSwmr:
      fapl = file_access(path);
      flags = H5F_ACC_RDWR | H5F_ACC_SWMR_WRITE;
      break;
  }
  const hid_t id = H5Fopen(path.c_str(), flags, fapl.get());
  if (id < 0) fail_file("open", path);
  return File(id);
}

File open_for_reading(const std::string& path) {
  try {
    return open_file(path, OpenMode::kReadSwmr);
  } catch (const H5Error&) {
    try {
      return open_file(path, OpenMode::kRead);
    } catch (const H5Error&) {
    }
    throw;
  }
}

void abandon_writes(const File& file) {
  if (!file) return;
  init_thread();
  const PropList fapl(H5Fget_access_plist(file.get()));
  void* handle = nullptr;
  // The default (sec2) driver's handle is its file descriptor; other drivers are left alone.
  if (!fapl || H5Pget_driver(fapl.get()) != H5FD_SEC2 ||
      H5Fget_vfd_handle(file.get(), fapl.get(), &handle) < 0 || handle == nullptr) {
    H5Eclear2(H5E_DEFAULT);
    return;
  }
  const int fd = *static_cast<int*>(handle);
  // A file shorter than the end of its allocated space (the superblock's EOF address) is refused
  // as truncated. Failed writes can leave it so; extending it adds a hole, which needs no space.
  haddr_t end = 0;
  struct stat info {};
  if (H5Fget_eoa(file.get(), &end) >= 0 && ::fstat(fd, &info) == 0 &&
      static_cast<haddr_t>(info.st_size) < end) {
    [[maybe_unused]] const int ignored = ::ftruncate(fd, static_cast<off_t>(end));
  }
  H5Eclear2(H5E_DEFAULT);
  const int memory = memfd_create("selfplay-abandoned-hdf5", MFD_CLOEXEC);
  if (memory < 0) return;
  // dup2 replaces the descriptor atomically: no write can slip through to the file in between.
  ::dup2(memory, fd);
  ::close(memory);
}

void start_swmr_write(const File& file, std::string_view path) {
  init_thread();
  check(H5Fstart_swmr_write(file.get()), "start SWMR write", path);
}

void flush_file(const File& file, std::string_view path) {
  init_thread();
  check(H5Fflush(file.get(), H5F_SCOPE_LOCAL), "flush file", path);
}

Group create_group(hid_t location, const std::string& name) {
  init_thread();
  return Group(check_id(H5Gcreate2(location, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                        "create group", name));
}

Group open_group(hid_t location, const std::string& name) {
  init_thread();
  return Group(check_id(H5Gopen2(location, name.c_str(), H5P_DEFAULT), "open group", name));
}

Dataset open_dataset(hid_t location, const std::string& name) {
  init_thread();
  return Dataset(check_id(H5Dopen2(location, name.c_str(), H5P_DEFAULT), "open dataset", name));
}

bool has_link(hid_t location, const std::string& name) {
  init_thread();
  return check(H5Lexists(location, name.c_str(), H5P_DEFAULT), "look up link", name) > 0;
}

std::string object_name(hid_t object) {
  init_thread();
  const ssize_t length = H5Iget_name(object, nullptr, 0);
  if (length <= 0) return "<unnamed>";
  std::string name(static_cast<size_t>(length) + 1, '\0');
  H5Iget_name(object, name.data(), name.size());
  name.resize(static_cast<size_t>(length));
  return name;
}

Datatype string_type(size_t size) {
  init_thread();
  Datatype type(check_id(H5Tcopy(H5T_C_S1), "copy string type", "H5T_C_S1"));
  check(H5Tset_size(type.get(), std::max<size_t>(size, 1)), "set string size", "H5T_C_S1");
  check(H5Tset_strpad(type.get(), H5T_STR_NULLTERM), "set string padding", "H5T_C_S1");
  check(H5Tset_cset(type.get(), H5T_CSET_ASCII), "set string charset", "H5T_C_S1");
  return type;
}

Datatype packed_copy(hid_t memory_type) {
  init_thread();
  Datatype type(check_id(H5Tcopy(memory_type), "copy datatype", "memory type"));
  if (H5Tget_class(type.get()) == H5T_COMPOUND) {
    check(H5Tpack(type.get()), "pack compound type", "memory type");
  }
  return type;
}

namespace {

Attribute create_attribute(hid_t object, const std::string& name, hid_t type, hid_t space) {
  const htri_t exists = H5Aexists(object, name.c_str());
  check(exists, "look up attribute", name);
  if (exists > 0) check(H5Adelete(object, name.c_str()), "delete attribute", name);
  return Attribute(check_id(H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT),
                            "create attribute", name));
}

void write_scalar(hid_t object, const std::string& name, hid_t type, const void* value) {
  init_thread();
  const Dataspace space(check_id(H5Screate(H5S_SCALAR), "create scalar dataspace", name));
  Attribute attribute = create_attribute(object, name, type, space.get());
  check(H5Awrite(attribute.get(), type, value), "write attribute", name);
  attribute.close(name);
}

}  // namespace

void write_attribute(hid_t object, const std::string& name, std::string_view value) {
  const Datatype type = string_type(value.size() + 1);
  const std::string terminated(value);
  write_scalar(object, name, type.get(), terminated.c_str());
}

void write_attribute(hid_t object, const std::string& name, uint64_t value) {
  write_scalar(object, name, H5T_NATIVE_UINT64, &value);
}

void write_attribute(hid_t object, const std::string& name, uint32_t value) {
  write_scalar(object, name, H5T_NATIVE_UINT32, &value);
}

void write_attribute(hid_t object, const std::string& name, double value) {
  write_scalar(object, name, H5T_NATIVE_DOUBLE, &value);
}

void write_attribute(hid_t object, const std::string& name,
                     const std::vector<std::string>& values) {
  init_thread();
  size_t width = 1;
  for (const auto& v : values) width = std::max(width, v.size() + 1);
  const Datatype type = string_type(width);
  const hsize_t count = values.size();
  const Dataspace space(check_id(H5Screate_simple(1, &count, nullptr), "create dataspace", name));
  std::vector<char> buffer(width * values.size(), '\0');
  for (size_t i = 0; i < values.size(); ++i) {
    std::memcpy(buffer.data() + i * width, values[i].data(), values[i].size());
  }
  Attribute attribute = create_attribute(object, name, type.get(), space.get());
  if (!values.empty()) {
    check(H5Awrite(attribute.get(), type.get(), buffer.data()), "write attribute", name);
  }
  attribute.close(name);
}

bool has_attribute(hid_t object, const std::string& name) {
  init_thread();
  return check(H5Aexists(object, name.c_str()), "look up attribute", name) > 0;
}

namespace {

// Reads an attribute holding `count` strings, fixed-length or variable-length.
std::vector<std::string> read_strings(hid_t object, const std::string& name, bool scalar) {
  init_thread();
  const Attribute attribute(
      check_id(H5Aopen(object, name.c_str(), H5P_DEFAULT), "open attribute", name));
  const Datatype type(check_id(H5Aget_type(attribute.get()), "get attribute type", name));
  if (H5Tget_class(type.get()) != H5T_STRING) {
    throw H5Error("attribute '" + name + "' of '" + object_name(object) + "' is not a string");
  }
  const Dataspace space(check_id(H5Aget_space(attribute.get()), "get attribute space", name));
  const hssize_t count = H5Sget_simple_extent_npoints(space.get());
  if (count < 0) fail("count attribute elements", name);
  if (scalar && count != 1) throw H5Error("attribute '" + name + "' is not a single string");
  std::vector<std::string> values;
  if (H5Tis_variable_str(type.get()) > 0) {
    std::vector<char*> pointers(static_cast<size_t>(count), nullptr);
    check(H5Aread(attribute.get(), type.get(), pointers.data()), "read attribute", name);
    for (char* p : pointers) {
      values.emplace_back(p ? p : "");
      H5free_memory(p);
    }
    return values;
  }
  const size_t width = H5Tget_size(type.get());
  std::vector<char> buffer(width * static_cast<size_t>(count) + 1, '\0');
  if (count > 0) {
    check(H5Aread(attribute.get(), type.get(), buffer.data()), "read attribute", name);
  }
  for (hssize_t i = 0; i < count; ++i) {
    const char* begin = buffer.data() + static_cast<size_t>(i) * width;
    values.emplace_back(begin, strnlen(begin, width));
  }
  return values;
}

}  // namespace

std::string read_string_attribute(hid_t object, const std::string& name) {
  return read_strings(object, name, true).front();
}

std::vector<std::string> read_string_list_attribute(hid_t object, const std::string& name) {
  return read_strings(object, name, false);
}

uint64_t read_uint64_attribute(hid_t object, const std::string& name) {
  init_thread();
  const Attribute attribute(
      check_id(H5Aopen(object, name.c_str(), H5P_DEFAULT), "open attribute", name));
  const Datatype type(check_id(H5Aget_type(attribute.get()), "get attribute type", name));
  if (H5Tget_class(type.get()) != H5T_INTEGER) {
    throw H5Error("attribute '" + name + "' of '" + object_name(object) + "' is not an integer");
  }
  uint64_t value = 0;
  check(H5Aread(attribute.get(), H5T_NATIVE_UINT64, &value), "read attribute", name);
  return value;
}

double read_double_attribute(hid_t object, const std::string& name) {
  init_thread();
  const Attribute attribute(
      check_id(H5Aopen(object, name.c_str(), H5P_DEFAULT), "open attribute", name));
  const Datatype type(check_id(H5Aget_type(attribute.get()), "get attribute type", name));
  if (H5Tget_class(type.get()) != H5T_FLOAT) {
    throw H5Error("attribute '" + name + "' of '" + object_name(object) + "' is not a float");
  }
  double value = 0;
  check(H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, &value), "read attribute", name);
  return value;
}

namespace {

PropList chunked_creation(const std::vector<hsize_t>& chunk, const ChunkedLayout& layout,
                          const std::string& name) {
  PropList dcpl(check_id(H5Pcreate(H5P_DATASET_CREATE), "create dataset creation list", name));
  check(H5Pset_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data()), "set chunk", name);
  if (layout.gzip_level > 0) {
    check(H5Pset_shuffle(dcpl.get()), "set shuffle filter", name);
    check(H5Pset_deflate(dcpl.get(), layout.gzip_level), "set deflate filter", name);
  }
  return dcpl;
}

Dataset create_chunked(hid_t location, const std::string& name, hid_t file_type,
                       const std::vector<hsize_t>& current, const std::vector<hsize_t>& maximum,
                       const PropList& dcpl) {
  const Dataspace space(
      check_id(H5Screate_simple(static_cast<int>(current.size()), current.data(), maximum.data()),
               "create dataspace", name));
  return Dataset(check_id(H5Dcreate2(location, name.c_str(), file_type, space.get(), H5P_DEFAULT,
                                     dcpl.get(), H5P_DEFAULT),
                          "create dataset", name));
}

}  // namespace

Dataset create_table(hid_t location, const std::string& name, hid_t memory_type,
                     const ChunkedLayout& layout, const void* fill) {
  init_thread();
  const Datatype file_type = packed_copy(memory_type);
  const PropList dcpl = chunked_creation({layout.chunk_rows}, layout, name);
  if (fill) check(H5Pset_fill_value(dcpl.get(), memory_type, fill), "set fill value", name);
  return create_chunked(location, name, file_type.get(), {0}, {H5S_UNLIMITED}, dcpl);
}

Dataset create_matrix(hid_t location, const std::string& name, hsize_t columns,
                      const ChunkedLayout& layout, bool doubles) {
  init_thread();
  const PropList dcpl =
      chunked_creation({layout.chunk_rows, std::max<hsize_t>(columns, 1)}, layout, name);
  const float fill = std::numeric_limits<float>::quiet_NaN();
  check(H5Pset_fill_value(dcpl.get(), H5T_NATIVE_FLOAT, &fill), "set fill value", name);
  return create_chunked(location, name, doubles ? H5T_IEEE_F64LE : H5T_IEEE_F32LE, {0, columns},
                        {H5S_UNLIMITED, columns > 0 ? columns : H5S_UNLIMITED}, dcpl);
}

std::vector<hsize_t> dims(hid_t dataset) {
  init_thread();
  const Dataspace space(check_id(H5Dget_space(dataset), "get dataspace", object_name(dataset)));
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) fail("get rank", object_name(dataset));
  std::vector<hsize_t> extent(static_cast<size_t>(rank), 0);
  check(H5Sget_simple_extent_dims(space.get(), extent.data(), nullptr), "get dims",
        object_name(dataset));
  return extent;
}

hsize_t rows(hid_t dataset) {
  const auto extent = dims(dataset);
  return extent.empty() ? 1 : extent[0];
}

namespace {

// A transfer list whose conversion buffers fit a request of `count` elements. HDF5 converts rows
// between the memory and the file types through a conversion and a background buffer that it
// allocates and zeroes on every H5Dwrite and H5Dread, 1 MiB each by default (H5Pset_buffer): for
// the few rows of a flush, the campaign writer thread spent nearly all its time zeroing them
// (perf, 2026-12-01). Buffers the size of the request cost what the rows do.
PropList transfer_for(hid_t dataset, hid_t memory_type, hsize_t count, const std::string& name) {
  constexpr size_t kDefaultBuffer = size_t{1} << 20;  // HDF5's own default
  const Datatype file_type(check_id(H5Dget_type(dataset), "get dataset type", name));
  const size_t widest = std::max(H5Tget_size(memory_type), H5Tget_size(file_type.get()));
  const size_t wanted = std::max<size_t>(widest, static_cast<size_t>(count) * widest);
  PropList dxpl(check_id(H5Pcreate(H5P_DATASET_XFER), "create transfer list", name));
  check(H5Pset_buffer(dxpl.get(), std::min(wanted, std::max(kDefaultBuffer, widest)), nullptr,
                      nullptr),
        "set transfer buffer", name);
  return dxpl;
}

}  // namespace

void append_rows(hid_t dataset, hid_t memory_type, const void* data, hsize_t count) {
  if (count == 0) return;
  init_thread();
  const std::string name = object_name(dataset);
  std::vector<hsize_t> extent = dims(dataset);
  const hsize_t first = extent.at(0);
  extent[0] = first + count;
  check(H5Dset_extent(dataset, extent.data()), "extend dataset", name);
  std::vector<hsize_t> block = extent;
  block[0] = count;
  if (elements(block) == 0) return;
  Dataspace memory;
  const Dataspace file_space = row_selection(dataset, extent, first, count, &memory, name);
  const PropList dxpl = transfer_for(dataset, memory_type, elements(block), name);
  check(H5Dwrite(dataset, memory_type, memory.get(), file_space.get(), dxpl.get(), data),
        "write rows", name);
}

void read_rows(hid_t dataset, hid_t memory_type, hsize_t first, hsize_t count, void* out) {
  if (count == 0) return;
  init_thread();
  const std::string name = object_name(dataset);
  const std::vector<hsize_t> extent = dims(dataset);
  if (extent.empty() || first + count > extent[0]) {
    throw H5Error("read rows [" + std::to_string(first) + ", " + std::to_string(first + count) +
                  ") beyond the " + std::to_string(extent.empty() ? 0 : extent[0]) + " rows of '" +
                  name + "'");
  }
  std::vector<hsize_t> wanted = extent;
  wanted[0] = count;
  if (elements(wanted) == 0) return;
  Dataspace memory;
  const Dataspace file_space = row_selection(dataset, extent, first, count, &memory, name);
  const PropList dxpl = transfer_for(dataset, memory_type, elements(wanted), name);
  check(H5Dread(dataset, memory_type, memory.get(), file_space.get(), dxpl.get(), out), "read rows",
        name);
}

void flush_dataset(hid_t dataset) {
  init_thread();
  check(H5Dflush(dataset), "flush dataset", object_name(dataset));
}

std::string describe_type(hid_t type, bool show_string_size) {
  init_thread();
  const size_t size = H5Tget_size(type);
  const bool big_endian = H5Tget_order(type) == H5T_ORDER_BE;
  switch (H5Tget_class(type)) {
    case H5T_INTEGER:
      return std::string(H5Tget_sign(type) == H5T_SGN_NONE ? "uint" : "int") +
             std::to_string(size * 8) + (big_endian ? "be" : "");
    case H5T_FLOAT:
      return "float" + std::to_string(size * 8) + (big_endian ? "be" : "");
    case H5T_STRING: {
      std::string text = H5Tis_variable_str(type) > 0 ? "vlen string"
                         : show_string_size           ? "string[" + std::to_string(size) + "]"
                                                      : "string";
      if (H5Tget_strpad(type) == H5T_STR_NULLPAD) text += " nullpad";
      if (H5Tget_strpad(type) == H5T_STR_SPACEPAD) text += " spacepad";
      if (H5Tget_cset(type) == H5T_CSET_UTF8) text += " utf8";
      return text;
    }
    case H5T_COMPOUND: {
      std::string text = "compound{";
      const int members = H5Tget_nmembers(type);
      for (int i = 0; i < members; ++i) {
        char* name = H5Tget_member_name(type, static_cast<unsigned>(i));
        const Datatype member(H5Tget_member_type(type, static_cast<unsigned>(i)));
        if (i) text += ", ";
        text +=
            std::string(name ? name : "?") + ": " + describe_type(member.get(), show_string_size);
        H5free_memory(name);
      }
      return text + "}";
    }
    case H5T_ARRAY: {
      const int rank = H5Tget_array_ndims(type);
      std::vector<hsize_t> extent(static_cast<size_t>(std::max(rank, 0)));
      H5Tget_array_dims2(type, extent.data());
      std::string text = "array[";
      for (size_t i = 0; i < extent.size(); ++i) {
        if (i) text += ',';
        text += std::to_string(extent[i]);
      }
      const Datatype base(H5Tget_super(type));
      return text + "] of " + describe_type(base.get(), show_string_size);
    }
    default:
      return "class " + std::to_string(static_cast<int>(H5Tget_class(type))) + " size " +
             std::to_string(size);
  }
}

}  // namespace sp::io
