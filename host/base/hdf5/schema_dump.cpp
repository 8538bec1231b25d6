#include <string>
#include <string_view>
#include <vector>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/h5.hpp"
#include "host/base/hdf5/tables.hpp"

namespace sp::io {

using namespace internal;

namespace {

std::string list(const std::vector<hsize_t>& values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) text += ", ";
    text += values[i] == H5S_UNLIMITED ? std::string("unlimited") : std::to_string(values[i]);
  }
  return text + "]";
}

std::string describe_space(hid_t space, bool with_max, std::string_view name) {
  if (H5Sget_simple_extent_type(space) == H5S_SCALAR) return "scalar";
  if (H5Sget_simple_extent_type(space) == H5S_NULL) return "null";
  const int rank = H5Sget_simple_extent_ndims(space);
  if (rank < 0) fail("get rank", name);
  std::vector<hsize_t> current(static_cast<size_t>(rank)), maximum(static_cast<size_t>(rank));
  check(H5Sget_simple_extent_dims(space, current.data(), maximum.data()), "get dims", name);
  return "dims=" + list(current) + (with_max ? " max=" + list(maximum) : "");
}

std::string describe_attributes(hid_t object, std::string_view name) {
  std::string text;
  for (const auto& attribute_name : attribute_names(object, name)) {
    const Attribute attribute(check_id(H5Aopen(object, attribute_name.c_str(), H5P_DEFAULT),
                                       "open attribute", attribute_name));
    const Datatype type(check_id(H5Aget_type(attribute.get()), "get type", attribute_name));
    const Dataspace space(check_id(H5Aget_space(attribute.get()), "get space", attribute_name));
    text += "  @" + attribute_name + ": " + describe_type(type.get(), false) + " " +
            describe_space(space.get(), false, attribute_name) + "\n";
  }
  return text;
}

std::string describe_dataset(hid_t dataset, std::string_view name) {
  const Datatype type(check_id(H5Dget_type(dataset), "get type", name));
  const Dataspace space(check_id(H5Dget_space(dataset), "get space", name));
  const PropList dcpl(check_id(H5Dget_create_plist(dataset), "get creation list", name));
  std::string text = " ";
  text += describe_space(space.get(), true, name);
  if (H5Pget_layout(dcpl.get()) == H5D_CHUNKED) {
    std::vector<hsize_t> chunk(32);
    const int rank = H5Pget_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data());
    if (rank < 0) fail("get chunk", name);
    chunk.resize(static_cast<size_t>(rank));
    text += " chunk=" + list(chunk);
  }
  const int filters = H5Pget_nfilters(dcpl.get());
  if (filters > 0) {
    text += " filters=[";
    for (int i = 0; i < filters; ++i) {
      unsigned flags = 0;
      size_t values = 8;
      unsigned value[8] = {};
      unsigned config = 0;
      char filter_name[64] = "";
      const H5Z_filter_t id = H5Pget_filter2(dcpl.get(), static_cast<unsigned>(i), &flags, &values,
                                             value, sizeof filter_name, filter_name, &config);
      if (id < 0) fail("get filter", name);
      text += i ? ", " : "";
      if (id == H5Z_FILTER_DEFLATE) {
        text += "deflate(";
        text += std::to_string(values > 0 ? value[0] : 0);
        text += ')';
      } else if (id == H5Z_FILTER_SHUFFLE) {
        text += "shuffle";
      } else {
        text += "filter ";
        text += std::to_string(id);
      }
    }
    text += "]";
  }
  return text + "\n  type " + describe_type(type.get()) + "\n";
}

}  // namespace

std::string schema_dump(const std::string& path) {
  init_thread();
  const File file = open_for_reading(path);
  std::string text;
  for (const auto& [name, type] : objects_of(file, path)) {
    const Object object(
        check_id(H5Oopen(file.get(), name.c_str(), H5P_DEFAULT), "open object", name));
    const hid_t id = object.get();
    switch (type) {
      case H5O_TYPE_GROUP:
        text += name + " group\n";
        break;
      case H5O_TYPE_DATASET:
        text += name + " dataset";
        text += describe_dataset(id, name);
        break;
      case H5O_TYPE_NAMED_DATATYPE:
        text += name + " datatype\n";
        break;
      default:
        text += name + " unknown\n";
        break;
    }
    text += describe_attributes(id, name);
  }
  return text;
}

}  // namespace sp::io
