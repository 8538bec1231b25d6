#include "host/research/improve/lineage.hpp"

#include <hdf5.h>

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "core/errors.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/errors.hpp"
#include "host/base/hdf5/h5.hpp"

namespace sp::improve {
namespace {

using namespace io;

void add(const Datatype& type, const char* name, size_t offset, hid_t member) {
  check(H5Tinsert(type.get(), name, offset, member), "insert compound member", name);
}

// The in-memory type of LineageRow; the file stores its packed copy.
Datatype row_type() {
  init_thread();
  Datatype t(
      check_id(H5Tcreate(H5T_COMPOUND, sizeof(LineageRow)), "create compound type", "LineageRow"));
  const hsize_t five = 5;
  const Datatype penta(
      check_id(H5Tarray_create2(H5T_NATIVE_UINT64, 1, &five), "create array type", "penta"));
#define SP_COLUMN(name, type) add(t, #name, offsetof(LineageRow, name), type)
  SP_COLUMN(generation, H5T_NATIVE_UINT32);
  SP_COLUMN(parent, H5T_NATIVE_UINT32);
  SP_COLUMN(champion, H5T_NATIVE_UINT32);
  SP_COLUMN(weights_hash, string_type(sizeof LineageRow::weights_hash).get());
  SP_COLUMN(games, H5T_NATIVE_UINT64);
  SP_COLUMN(rollouts, H5T_NATIVE_UINT64);
  SP_COLUMN(train_positions, H5T_NATIVE_UINT64);
  SP_COLUMN(validation_positions, H5T_NATIVE_UINT64);
  SP_COLUMN(k, H5T_NATIVE_DOUBLE);
  SP_COLUMN(train_loss_before, H5T_NATIVE_DOUBLE);
  SP_COLUMN(train_loss, H5T_NATIVE_DOUBLE);
  SP_COLUMN(validation_loss_before, H5T_NATIVE_DOUBLE);
  SP_COLUMN(validation_loss, H5T_NATIVE_DOUBLE);
  SP_COLUMN(wins, H5T_NATIVE_UINT64);
  SP_COLUMN(draws, H5T_NATIVE_UINT64);
  SP_COLUMN(losses, H5T_NATIVE_UINT64);
  SP_COLUMN(penta, penta.get());
  SP_COLUMN(llr, H5T_NATIVE_DOUBLE);
  SP_COLUMN(llr_lower, H5T_NATIVE_DOUBLE);
  SP_COLUMN(llr_upper, H5T_NATIVE_DOUBLE);
  SP_COLUMN(verdict, H5T_NATIVE_UINT8);
  SP_COLUMN(reason, string_type(sizeof LineageRow::reason).get());
  SP_COLUMN(elo, H5T_NATIVE_DOUBLE);
  SP_COLUMN(elo_lo, H5T_NATIVE_DOUBLE);
  SP_COLUMN(elo_hi, H5T_NATIVE_DOUBLE);
  SP_COLUMN(anchor_pairs, H5T_NATIVE_UINT64);
  SP_COLUMN(anchor_elo, H5T_NATIVE_DOUBLE);
  SP_COLUMN(anchor_elo_lo, H5T_NATIVE_DOUBLE);
  SP_COLUMN(anchor_elo_hi, H5T_NATIVE_DOUBLE);
  SP_COLUMN(cpu_seconds, H5T_NATIVE_DOUBLE);
  SP_COLUMN(wall_seconds, H5T_NATIVE_DOUBLE);
#undef SP_COLUMN
  return t;
}

// The rows of an N x columns matrix (a value per generation and name), as doubles. Throws
// InputError (`what` names the dataset) unless it has `columns` columns and `generations` rows.
template <class T>
std::vector<std::vector<double>> read_matrix(hid_t dataset, hid_t memory_type, size_t columns,
                                             size_t generations, const std::string& what) {
  const std::vector<hsize_t> shape = dims(dataset);
  const size_t n = shape.empty() ? 0 : static_cast<size_t>(shape[0]);
  if (shape.size() != 2 || (n > 0 && shape[1] != columns))
    throw InputError(what + " does not have one column per name (" + std::to_string(columns) + ")");
  if (n != generations)
    throw InputError(what + " has " + std::to_string(n) + " rows for " +
                     std::to_string(generations) + " generations");
  std::vector<T> flat(n * columns);
  if (n) read_rows(dataset, memory_type, 0, n, flat.data());
  std::vector<std::vector<double>> out;
  for (size_t r = 0; r < n; ++r)
    out.emplace_back(flat.begin() + static_cast<std::ptrdiff_t>(r * columns),
                     flat.begin() + static_cast<std::ptrdiff_t>((r + 1) * columns));
  return out;
}

void copy_text(char* to, size_t size, const std::string& from) {
  std::memset(to, 0, size);
  std::memcpy(to, from.data(), std::min(from.size(), size - 1));
}

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kInitial:
      return "initial";
    case Verdict::kAccept:
      return "accept";
    case Verdict::kReject:
      return "reject";
  }
  return "?";
}

std::vector<std::string> lineage_columns() {
  const Datatype t = row_type();
  std::vector<std::string> out;
  const int n = H5Tget_nmembers(t.get());
  for (int i = 0; i < n; ++i) {
    char* name = H5Tget_member_name(t.get(), static_cast<unsigned>(i));
    out.emplace_back(name);
    H5free_memory(name);
  }
  return out;
}

std::vector<std::string> reference_columns(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& n : names)
    for (const char* c : {"pairs", "elo", "elo_lo", "elo_hi"}) out.push_back(n + "." + c);
  return out;
}

std::vector<double> unmeasured_references(size_t count) {
  return std::vector<double>(count * kReferenceColumns, kNotMeasured);
}

void set_reason(LineageRow& row, const std::string& reason) {
  copy_text(row.reason, sizeof row.reason, reason);
}

std::string reason_of(const LineageRow& row) {
  return std::string(row.reason, strnlen(row.reason, sizeof row.reason));
}

void write_lineage(const std::string& path, const Lineage& lineage) {
  const std::string temp = path + ".tmp";
  try {
    const Datatype type = row_type();
    File file = create_file(temp, false);
    write_attribute(file.get(), "kind", std::string_view("selfplay improve lineage"));
    write_attribute(file.get(), "game", std::string_view(lineage.game));
    write_attribute(file.get(), "config", std::string_view(lineage.config_text));
    write_attribute(file.get(), "identity", std::string_view(lineage.identity));
    const LineageRow fill{};
    ChunkedLayout layout;
    layout.chunk_rows = 64;
    Dataset table = create_table(file.get(), "lineage", type.get(), layout, &fill);
    append_rows(table.get(), type.get(), lineage.rows.data(), lineage.rows.size());
    table.close("lineage");
    Dataset weights = create_matrix(file.get(), "weights", lineage.features.size(), layout);
    write_attribute(weights.get(), "features", lineage.features);
    std::vector<float> flat;
    for (const std::vector<double>& w : lineage.weights)
      for (const double v : w) flat.push_back(static_cast<float>(v));
    append_rows(weights.get(), H5T_NATIVE_FLOAT, flat.data(), lineage.weights.size());
    weights.close("weights");
    if (!lineage.engine_keys.empty()) {
      Dataset engine =
          create_matrix(file.get(), "engine", lineage.engine_keys.size(), layout, true);
      write_attribute(engine.get(), "keys", lineage.engine_keys);
      std::vector<double> values;
      for (const std::vector<double>& v : lineage.engine_values)
        values.insert(values.end(), v.begin(), v.end());
      append_rows(engine.get(), H5T_NATIVE_DOUBLE, values.data(), lineage.engine_values.size());
      engine.close("engine");
    }
    if (!lineage.references.empty()) {
      const size_t columns = lineage.references.size() * kReferenceColumns;
      Dataset refs = create_matrix(file.get(), "references", columns, layout, true);
      write_attribute(refs.get(), "names", lineage.references);
      write_attribute(refs.get(), "columns", reference_columns(lineage.references));
      std::vector<double> values;
      for (const std::vector<double>& v : lineage.reference_values) {
        if (v.size() != columns) throw std::logic_error("a /references row of another width");
        values.insert(values.end(), v.begin(), v.end());
      }
      append_rows(refs.get(), H5T_NATIVE_DOUBLE, values.data(), lineage.reference_values.size());
      refs.close("references");
    }
    file.close(temp);
    io::install_file(temp, path);
  } catch (...) {
    std::error_code ec;  // a failed write leaves nothing behind; the old lineage stays
    std::filesystem::remove(temp, ec);
    throw;
  }
}

Lineage read_lineage(const std::string& path) {
  Lineage out;
  try {
    const File file = open_file(path, OpenMode::kRead);
    if (!has_attribute(file.get(), "kind") ||
        read_string_attribute(file.get(), "kind") != "selfplay improve lineage")
      throw InputError(path + ": not a lineage file of selfplay improve");
    out.game = read_string_attribute(file.get(), "game");
    out.config_text = read_string_attribute(file.get(), "config");
    out.identity = read_string_attribute(file.get(), "identity");
    const Datatype type = row_type();
    const Dataset table = open_dataset(file.get(), "lineage");
    out.rows.resize(rows(table.get()));
    read_rows(table.get(), type.get(), 0, out.rows.size(), out.rows.data());
    const Dataset weights = open_dataset(file.get(), "weights");
    out.features = read_string_list_attribute(weights.get(), "features");
    out.weights = read_matrix<float>(weights.get(), H5T_NATIVE_FLOAT, out.features.size(),
                                     out.rows.size(), path + ": /weights");
    if (has_link(file.get(), "engine")) {
      const Dataset engine = open_dataset(file.get(), "engine");
      out.engine_keys = read_string_list_attribute(engine.get(), "keys");
      out.engine_values =
          read_matrix<double>(engine.get(), H5T_NATIVE_DOUBLE, out.engine_keys.size(),
                              out.rows.size(), path + ": /engine");
    }
    if (has_link(file.get(), "references")) {
      const Dataset refs = open_dataset(file.get(), "references");
      out.references = read_string_list_attribute(refs.get(), "names");
      out.reference_values = read_matrix<double>(refs.get(), H5T_NATIVE_DOUBLE,
                                                 out.references.size() * kReferenceColumns,
                                                 out.rows.size(), path + ": /references");
    }
  } catch (const io::H5Error& e) {
    throw InputError(path + ": not a readable lineage file (" + e.what() + ")");
  }
  return out;
}

}  // namespace sp::improve
