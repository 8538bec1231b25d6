#include <algorithm>
#include <filesystem>
#include <map>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/format1.hpp"
#include "host/base/hdf5/tables.hpp"

namespace sp::io {

using namespace internal;

struct CampaignReader::Impl {
  Tables tables;
  FileMeta meta;
  uint32_t version = 0;
  std::vector<std::string> index_parts;
};

namespace {

// The parts of the index `path` where HDF5 finds them (see campaign_index.hpp): a relative name
// in the index's folder, an absolute one as it is or, missing there, by its file name in the
// index's folder. CampaignError naming the first part found nowhere: HDF5 would read its rows as
// fill values (or, for a relative name, look in the working directory, where a file of that name
// may be another campaign's).
std::vector<std::string> find_index_parts(const std::string& path,
                                          const std::vector<std::string>& names) {
  namespace fs = std::filesystem;
  const fs::path folder = fs::absolute(path).parent_path();
  std::vector<std::string> found;
  for (const std::string& name : names) {
    const fs::path stored = name;
    std::vector<fs::path> candidates;
    if (stored.is_absolute()) candidates.push_back(stored);
    candidates.push_back(folder / (stored.is_absolute() ? stored.filename() : stored));
    std::error_code error;
    const auto at = std::find_if(candidates.begin(), candidates.end(),
                                 [&](const fs::path& p) { return fs::is_regular_file(p, error); });
    if (at == candidates.end())
      throw CampaignError("'" + path + "' is an index over " + std::to_string(names.size()) +
                          " part files, and its part '" + name + "' is not at " +
                          candidates.back().string() +
                          ": keep the parts beside the index (move the folder as a whole)");
    found.push_back(at->string());
  }
  return found;
}

// The text HDF5 returns through get(buffer, size): a name of the mapping `i` of a virtual dataset.
template <class Get>
std::string mapping_text(Get&& get, std::string_view what) {
  const ssize_t length = get(nullptr, 0);
  if (length < 0) fail("get virtual mapping", what);
  std::string text(static_cast<size_t>(length) + 1, '\0');
  if (get(text.data(), text.size()) < 0) fail("get virtual mapping", what);
  text.resize(static_cast<size_t>(length));
  return text;
}

// Throws CampaignError when a part of the index `t` (its parts `names`, found at `files`) holds
// fewer rows of a dataset than the index maps from it: the part changed after the index was
// written (a resume drops unfinished games), and HDF5 would fail reading those rows.
void check_index_rows(const Tables& t, const std::vector<std::string>& names,
                      const std::vector<std::string>& files) {
  std::map<std::string, File> opened;
  for (const Dataset* d :
       {&t.games, &t.plies, &t.candidates, &t.position_game_id, &t.position_ply, &t.position_side,
        &t.position_result, &t.features, &t.perf, &t.match_pairs}) {
    if (!*d) continue;
    const std::string name = object_name(d->get());
    const PropList dcpl(check_id(H5Dget_create_plist(d->get()), "get creation list", name));
    if (H5Pget_layout(dcpl.get()) != H5D_VIRTUAL) continue;
    size_t count = 0;
    check(H5Pget_virtual_count(dcpl.get(), &count), "count virtual mappings", name);
    for (size_t i = 0; i < count; ++i) {
      const std::string file = mapping_text(
          [&](char* text, size_t size) {
            return H5Pget_virtual_filename(dcpl.get(), i, text, size);
          },
          name);
      const std::string source = mapping_text(
          [&](char* text, size_t size) {
            return H5Pget_virtual_dsetname(dcpl.get(), i, text, size);
          },
          name);
      const auto part = std::find(names.begin(), names.end(), file);
      if (part == names.end())
        throw CampaignError("'" + t.path + "': " + name + " maps rows of '" + file +
                            "', which its parts attribute does not list");
      const std::string& at = files[static_cast<size_t>(part - names.begin())];
      const Dataspace space(
          check_id(H5Pget_virtual_srcspace(dcpl.get(), i), "get source selection", name));
      hsize_t start[H5S_MAX_RANK] = {}, end[H5S_MAX_RANK] = {};
      check(H5Sget_select_bounds(space.get(), start, end), "get selection bounds", name);
      auto [it, added] = opened.try_emplace(at);
      if (added) it->second = open_for_reading(at);
      const hsize_t held = rows(open_dataset(it->second.get(), source).get());
      if (held <= end[0])
        throw CampaignError("'" + t.path + "' is an index that reads " +
                            std::to_string(end[0] + 1) + " rows of " + source + " from its part '" +
                            file + "', which holds " + std::to_string(held) +
                            " now: the part changed after the index was written (a resume?); "
                            "write the index again");
    }
  }
}

}  // namespace

CampaignReader::CampaignReader(const std::string& path) : impl_(std::make_unique<Impl>()) {
  init_thread();
  reading(path, [&] {
    impl_->tables = Tables::open(path, false);
    const hid_t root = impl_->tables.file.get();
    impl_->version = static_cast<uint32_t>(read_uint64_attribute(root, "format_version"));
    impl_->meta = read_meta(root, impl_->tables);
    if (has_attribute(root, "identity"))
      impl_->meta.identity = read_string_attribute(root, "identity");
    if (has_attribute(root, "program"))
      impl_->meta.program = read_string_attribute(root, "program");
    if (has_attribute(root, kIndexPartsAttribute)) {
      const std::vector<std::string> names = read_string_list_attribute(root, kIndexPartsAttribute);
      impl_->index_parts = find_index_parts(path, names);
      check_index_rows(impl_->tables, names, impl_->index_parts);
    }
  });
}

CampaignReader::CampaignReader(CampaignReader&&) noexcept = default;
CampaignReader& CampaignReader::operator=(CampaignReader&&) noexcept = default;
CampaignReader::~CampaignReader() = default;

uint32_t CampaignReader::format_version() const { return impl_->version; }
const FileMeta& CampaignReader::meta() const { return impl_->meta; }
const std::vector<std::string>& CampaignReader::index_parts() const { return impl_->index_parts; }
uint64_t CampaignReader::games_count() const {
  return reading(impl_->tables.path, [&] { return rows(impl_->tables.games.get()); });
}
uint64_t CampaignReader::plies_count() const {
  return reading(impl_->tables.path, [&] { return rows(impl_->tables.plies.get()); });
}
uint64_t CampaignReader::positions_count() const {
  return reading(impl_->tables.path, [&] { return impl_->tables.positions_count(); });
}
uint64_t CampaignReader::perf_count() const {
  return reading(impl_->tables.path, [&] { return rows(impl_->tables.perf.get()); });
}
uint64_t CampaignReader::candidates_count() const {
  if (!impl_->tables.candidates) return 0;
  return reading(impl_->tables.path, [&] { return rows(impl_->tables.candidates.get()); });
}

namespace {

// Rows of a table whose format-1 rows (Old) are read and upgraded to format-2 rows (Row).
template <class Row, class Old>
std::vector<Row> read_upgraded(const Tables& t, const Dataset& dataset, const Datatype& type,
                               const Datatype& old_type, uint64_t first, uint64_t count) {
  if (t.version != format1::kVersion) return read_table<Row>(dataset, type, first, count);
  const std::vector<Old> rows = read_table<Old>(dataset, old_type, first, count);
  std::vector<Row> out;
  out.reserve(rows.size());
  for (const Old& row : rows) out.push_back(format1::upgrade(row));
  return out;
}

}  // namespace

std::vector<GameRow> CampaignReader::games(uint64_t first, uint64_t count) const {
  init_thread();
  return reading(impl_->tables.path, [&] {
    const Tables& t = impl_->tables;
    return read_upgraded<GameRow, format1::GameRow>(t, t.games, t.types.game, t.types.game1, first,
                                                    count);
  });
}

std::vector<PlyRow> CampaignReader::plies(uint64_t first, uint64_t count) const {
  init_thread();
  return reading(impl_->tables.path, [&] {
    const Tables& t = impl_->tables;
    return read_upgraded<PlyRow, format1::PlyRow>(t, t.plies, t.types.ply, t.types.ply1, first,
                                                  count);
  });
}

std::vector<CandidateRow> CampaignReader::candidates(uint64_t first, uint64_t count) const {
  init_thread();
  if (!impl_->tables.candidates) return {};
  return reading(impl_->tables.path, [&] {
    return read_table<CandidateRow>(impl_->tables.candidates, impl_->tables.types.candidate, first,
                                    count);
  });
}

std::vector<PerfRow> CampaignReader::perf(uint64_t first, uint64_t count) const {
  init_thread();
  return reading(impl_->tables.path, [&] {
    return read_table<PerfRow>(impl_->tables.perf, impl_->tables.types.perf, first, count);
  });
}

uint64_t CampaignReader::match_pairs_count() const {
  if (!impl_->tables.match_pairs) return 0;
  return reading(impl_->tables.path, [&] { return rows(impl_->tables.match_pairs.get()); });
}

std::vector<MatchPairRow> CampaignReader::match_pairs(uint64_t first, uint64_t count) const {
  init_thread();
  if (!impl_->tables.match_pairs) return {};
  return reading(impl_->tables.path, [&] {
    return read_table<MatchPairRow>(impl_->tables.match_pairs, impl_->tables.types.pair, first,
                                    count);
  });
}

std::vector<PositionRow> CampaignReader::positions(uint64_t first, uint64_t count) const {
  init_thread();
  return reading(impl_->tables.path, [&] {
    const Tables& t = impl_->tables;
    const auto [start, n] = clip(t.positions_count(), first, count);
    std::vector<uint64_t> game_id(n);
    std::vector<uint16_t> ply(n);
    std::vector<uint8_t> side(n);
    std::vector<float> result(n);
    read_rows(t.position_game_id.get(), H5T_NATIVE_UINT64, start, n, game_id.data());
    read_rows(t.position_ply.get(), H5T_NATIVE_UINT16, start, n, ply.data());
    read_rows(t.position_side.get(), H5T_NATIVE_UINT8, start, n, side.data());
    read_rows(t.position_result.get(), H5T_NATIVE_FLOAT, start, n, result.data());
    std::vector<PositionRow> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = {game_id[i], ply[i], side[i], result[i]};
    return out;
  });
}

std::vector<float> CampaignReader::features(uint64_t first, uint64_t count) const {
  init_thread();
  return reading(impl_->tables.path, [&] {
    const Tables& t = impl_->tables;
    const auto [start, n] = clip(t.positions_count(), first, count);
    std::vector<float> out(n * t.feature_count);
    read_rows(t.features.get(), H5T_NATIVE_FLOAT, start, n, out.data());
    return out;
  });
}

}  // namespace sp::io
