#include "host/base/hdf5/campaign_index.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <system_error>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/h5.hpp"

namespace sp::io {
namespace {

namespace fs = std::filesystem;

// One part of an index: its file read twice, as a campaign (meta, row counts as readers count
// them) and as plain HDF5 (types, fill values, attributes to copy).
struct Part {
  std::string path;    // as the caller named it
  std::string stored;  // as the index names it
  CampaignReader reader;
  File file;
};

// A virtual dataset of the index: where its rows are in every part, and how many each gives.
struct Table {
  std::string name;  // "/games", "/positions/features"
  std::function<uint64_t(const CampaignReader&)> rows;
};

// The datasets of a campaign file (of format `version`, a match file or not) and the rows of each
// that readers see: every /positions column up to the shortest one, so that the index's columns
// stay aligned part after part.
std::vector<Table> tables(uint32_t version, bool match) {
  const auto positions = [](const CampaignReader& r) { return r.positions_count(); };
  std::vector<Table> list = {
      {"/games", [](const CampaignReader& r) { return r.games_count(); }},
      {"/plies", [](const CampaignReader& r) { return r.plies_count(); }},
      {"/positions/game_id", positions},
      {"/positions/ply", positions},
      {"/positions/side_to_move", positions},
      {"/positions/result", positions},
      {"/positions/features", positions},
      {"/perf", [](const CampaignReader& r) { return r.perf_count(); }},
  };
  if (version > kFormatWithoutSearch)
    list.push_back({"/candidates", [](const CampaignReader& r) { return r.candidates_count(); }});
  if (match)
    list.push_back({"/match/pairs", [](const CampaignReader& r) { return r.match_pairs_count(); }});
  return list;
}

// The name the index stores for `part`: relative to the index's folder when the part lies in it
// or below, absolute otherwise (see the header).
std::string stored_name(const std::string& index, const std::string& part) {
  const fs::path folder = fs::absolute(index).lexically_normal().parent_path();
  const fs::path absolute = fs::absolute(part).lexically_normal();
  const fs::path relative = absolute.lexically_relative(folder);
  if (!relative.empty() && *relative.begin() != "..") return relative.string();
  return absolute.string();
}

// Copies every attribute of `from` (fixed-size values, as our files hold) onto `to`, except those
// named in `skip`.
void copy_attributes(hid_t from, hid_t to, const std::vector<std::string>& skip = {}) {
  std::vector<std::string> names;
  const auto collect = [](hid_t, const char* name, const H5A_info_t*, void* data) -> herr_t {
    static_cast<std::vector<std::string>*>(data)->emplace_back(name);
    return 0;
  };
  check(H5Aiterate2(from, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names),
        "iterate attributes", object_name(from));
  for (const std::string& name : names) {
    if (std::find(skip.begin(), skip.end(), name) != skip.end()) continue;
    const Attribute source(
        check_id(H5Aopen(from, name.c_str(), H5P_DEFAULT), "open attribute", name));
    const Datatype type(check_id(H5Aget_type(source.get()), "get attribute type", name));
    const Dataspace space(check_id(H5Aget_space(source.get()), "get attribute space", name));
    if (H5Tdetect_class(type.get(), H5T_VLEN) > 0 || H5Tis_variable_str(type.get()) > 0)
      throw CampaignError("attribute '" + name + "' of '" + object_name(from) +
                          "' has a variable-length type, which campaign files do not hold");
    const hssize_t count = H5Sget_simple_extent_npoints(space.get());
    if (count < 0) fail("count attribute elements", name);
    std::vector<unsigned char> value(H5Tget_size(type.get()) * static_cast<size_t>(count) + 1);
    if (count > 0) check(H5Aread(source.get(), type.get(), value.data()), "read attribute", name);
    Attribute copy(
        check_id(H5Acreate2(to, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                 "create attribute", name));
    if (count > 0) check(H5Awrite(copy.get(), type.get(), value.data()), "write attribute", name);
    copy.close(name);
  }
}

// Throws CampaignError unless part `p` is a campaign of the first part's format and campaign.
void check_same_campaign(const Part& first, const Part& p) {
  const FileMeta& a = first.reader.meta();
  const FileMeta& b = p.reader.meta();
  const auto differs = [&](const std::string& what) {
    throw CampaignError("cannot index '" + p.path + "' with '" + first.path + "': its " + what +
                        " differs (the parts of an index are the files of one campaign)");
  };
  if (p.reader.format_version() != first.reader.format_version())
    differs("format_version (" + std::to_string(p.reader.format_version()) + " against " +
            std::to_string(first.reader.format_version()) + ")");
  if (b.game != a.game) differs("game ('" + b.game + "' against '" + a.game + "')");
  if (b.rules != a.rules) differs("rules ('" + b.rules + "' against '" + a.rules + "')");
  if (b.seed != a.seed)
    differs("seed (" + std::to_string(b.seed) + " against " + std::to_string(a.seed) + ")");
  if (b.identity != a.identity) differs("identity");
  if (b.config_text != a.config_text) differs("config");
  if (b.feature_names != a.feature_names) differs("feature_names");
  if (b.match.has_value() != a.match.has_value())
    differs(std::string("kind (") + (b.match ? "a match" : "a campaign") + " against " +
            (a.match ? "a match" : "a campaign") + ")");
  if (b.match && *b.match != *a.match) differs("/match attributes");
  for (const Table& t : tables(first.reader.format_version(), a.match.has_value())) {
    const Dataset x = open_dataset(first.file.get(), t.name);
    const Dataset y = open_dataset(p.file.get(), t.name);
    const Datatype tx(check_id(H5Dget_type(x.get()), "get type", t.name));
    const Datatype ty(check_id(H5Dget_type(y.get()), "get type", t.name));
    if (check(H5Tequal(tx.get(), ty.get()), "compare types", t.name) <= 0)
      differs("type of " + t.name + " (" + describe_type(ty.get()) + " against " +
              describe_type(tx.get()) + ")");
    const auto dx = dims(x.get());
    const auto dy = dims(y.get());
    if (!std::equal(dx.begin() + 1, dx.end(), dy.begin() + 1, dy.end()))
      differs("width of " + t.name);
  }
}

// Throws CampaignError when a game id has a /games row in two parts: readers would count the game
// twice and could not tell whose plies are whose. Fill rows (kNoGame) are not games.
void check_disjoint_games(const std::vector<Part>& parts) {
  Datatype id_only(check_id(H5Tcreate(H5T_COMPOUND, sizeof(uint64_t)), "create type", "game_id"));
  check(H5Tinsert(id_only.get(), "game_id", 0, H5T_NATIVE_UINT64), "insert member", "game_id");
  std::vector<std::pair<uint64_t, size_t>> owners;  // (game id, part)
  for (size_t i = 0; i < parts.size(); ++i) {
    const Dataset games = open_dataset(parts[i].file.get(), "/games");
    const uint64_t n = parts[i].reader.games_count();
    constexpr uint64_t kBlock = 65536;
    std::vector<uint64_t> ids;
    for (uint64_t first = 0; first < n; first += kBlock) {
      ids.resize(std::min(kBlock, n - first));
      read_rows(games.get(), id_only.get(), first, ids.size(), ids.data());
      for (const uint64_t id : ids)
        if (id != kNoGame) owners.emplace_back(id, i);
    }
  }
  // A game twice in one part is that part's business (resume drops the copy), as in one file.
  std::sort(owners.begin(), owners.end());
  for (size_t k = 1; k < owners.size(); ++k) {
    const auto& [id, part] = owners[k];
    if (id == owners[k - 1].first && part != owners[k - 1].second)
      throw CampaignError("cannot index '" + parts[part].path + "' with '" +
                          parts[owners[k - 1].second].path + "': both hold game " +
                          std::to_string(id) + " (the parts of a campaign hold disjoint game ids)");
  }
}

// The fill value of `dataset` set on `dcpl` when it has one of its own (kNoGame rows, NaN
// features): rows of a part that shrank after indexing read as unwritten rows.
void copy_fill_value(hid_t dataset, hid_t type, hid_t dcpl, const std::string& name) {
  const PropList source(check_id(H5Dget_create_plist(dataset), "get creation list", name));
  H5D_fill_value_t status = H5D_FILL_VALUE_UNDEFINED;
  check(H5Pfill_value_defined(source.get(), &status), "look up fill value", name);
  if (status != H5D_FILL_VALUE_USER_DEFINED) return;
  std::vector<unsigned char> value(H5Tget_size(type));
  check(H5Pget_fill_value(source.get(), type, value.data()), "get fill value", name);
  check(H5Pset_fill_value(dcpl, type, value.data()), "set fill value", name);
}

// Creates the virtual dataset `t.name` in `index`: the parts' rows end to end, with the first
// part's type, fill value and attributes.
void add_virtual(hid_t index, const Table& t, const std::vector<Part>& parts) {
  const Dataset first = open_dataset(parts.front().file.get(), t.name);
  const Datatype type(check_id(H5Dget_type(first.get()), "get type", t.name));
  std::vector<hsize_t> extent = dims(first.get());
  hsize_t total = 0;
  std::vector<hsize_t> counts;
  for (const Part& p : parts) total += counts.emplace_back(t.rows(p.reader));
  extent[0] = total;
  const int rank = static_cast<int>(extent.size());
  const Dataspace space(
      check_id(H5Screate_simple(rank, extent.data(), nullptr), "create dataspace", t.name));
  const PropList dcpl(
      check_id(H5Pcreate(H5P_DATASET_CREATE), "create dataset creation list", t.name));
  copy_fill_value(first.get(), type.get(), dcpl.get(), t.name);
  hsize_t row = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::vector<hsize_t> block = extent;
    block[0] = counts[i];
    std::vector<hsize_t> start(extent.size(), 0);
    start[0] = row;
    row += counts[i];
    // An empty block maps nothing (no rows, or features without columns).
    if (std::find(block.begin(), block.end(), hsize_t{0}) != block.end()) continue;
    check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start.data(), nullptr, block.data(),
                              nullptr),
          "select rows", t.name);
    // The source rows as an explicit block: stored as such, it tells readers how many rows the
    // index needs of the part (an `all` selection is stored without its extent).
    const Dataspace source(
        check_id(H5Screate_simple(rank, block.data(), nullptr), "create dataspace", t.name));
    const std::vector<hsize_t> origin(extent.size(), 0);
    check(H5Sselect_hyperslab(source.get(), H5S_SELECT_SET, origin.data(), nullptr, block.data(),
                              nullptr),
          "select source rows", t.name);
    check(H5Pset_virtual(dcpl.get(), space.get(), parts[i].stored.c_str(), t.name.c_str(),
                         source.get()),
          "map rows of '" + parts[i].path + "'", t.name);
  }
  check(H5Sselect_all(space.get()), "select all", t.name);
  Dataset dataset(check_id(H5Dcreate2(index, t.name.c_str(), type.get(), space.get(), H5P_DEFAULT,
                                      dcpl.get(), H5P_DEFAULT),
                           "create virtual dataset", t.name));
  copy_attributes(first.get(), dataset.get());
  dataset.close(t.name);
}

// Writes the whole index into the new file `temp`.
void write_index(const std::string& temp, const std::vector<Part>& parts) {
  File file = create_file(temp, false);
  const Part& first = parts.front();
  const hid_t root = file.get();
  copy_attributes(first.file.get(), root, {kIndexPartsAttribute});
  std::vector<std::string> names;
  for (const Part& p : parts) names.push_back(p.stored);
  write_attribute(root, kIndexPartsAttribute, names);
  Group positions = create_group(root, "positions");
  Group match;
  if (first.reader.meta().match) {
    match = create_group(root, "match");
    const Group source = open_group(first.file.get(), "match");
    copy_attributes(source.get(), match.get());
  }
  for (const Table& t :
       tables(first.reader.format_version(), first.reader.meta().match.has_value()))
    add_virtual(root, t, parts);
  positions.close("/positions");
  match.close("/match");
  file.close(temp);
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code error;
  return fs::equivalent(a, b, error);
}

}  // namespace

void write_campaign_index(const std::string& path, const std::vector<std::string>& parts) {
  init_thread();
  if (parts.empty()) throw std::invalid_argument("write_campaign_index: no parts");
  check_campaign_path(path);
  FileLock lock = lock_for_writing(path);
  const std::string target = write_target(path);
  std::vector<Part> opened;
  for (const std::string& name : parts) {
    if (same_file(name, target))
      throw CampaignError("cannot index '" + name + "' in '" + path + "': it is the index itself");
    for (const Part& p : opened)
      if (same_file(name, p.path))
        throw CampaignError("cannot index '" + name + "' twice in '" + path + "' (as '" + p.path +
                            "')");
    // A part a writer left open (a crash) opens only in SWMR mode; HDF5 opens a VDS's sources
    // in the mode of the index, so h5py's plain File(index, "r") would read its rows as fill.
    // Checked first: a plain open fails while this process holds the file in SWMR mode.
    bool closed = true;
    try {
      open_file(name, OpenMode::kRead).close(name);
    } catch (const H5Error&) {
      closed = false;
    }
    if (!closed) {
      open_file(name, OpenMode::kReadSwmr).close(name);  // a missing or unreadable part throws
      throw CampaignError("cannot index '" + name + "' in '" + path +
                          "': a writer left it open (a crash?), and readers that open the index "
                          "without SWMR would see its rows as fill; resume it (or clear its flags "
                          "with `h5clear -s`) first");
    }
    CampaignReader reader(name);
    if (!reader.index_parts().empty())
      throw CampaignError("cannot index '" + name + "' in '" + path +
                          "': it is an index itself; list its parts instead");
    opened.push_back({name, stored_name(path, name), std::move(reader), open_for_reading(name)});
  }
  for (const Part& p : opened) check_same_campaign(opened.front(), p);
  check_disjoint_games(opened);

  std::error_code error;
  if (fs::exists(fs::symlink_status(target, error))) {
    bool index = false;
    try {
      index = has_attribute(open_for_reading(target).get(), kIndexPartsAttribute);
    } catch (const H5Error&) {
    }
    if (!index)
      throw CampaignError("cannot write the index '" + path +
                          "': the file there is not an index, and an index replaces only an "
                          "older index (move the file away first)");
  }
  const std::string temp = target + ".index.tmp";
  try {
    write_index(temp, opened);
    install_file(temp, target);
  } catch (...) {
    fs::remove(temp, error);
    throw;
  }
}

void merge_campaign(const std::string& in, const std::string& out) {
  init_thread();
  const CampaignReader reader(in);
  copy_campaign(reader, out, "merge");
}

}  // namespace sp::io
