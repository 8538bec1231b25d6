#include "host/research/tune/dataset.hpp"

#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "core/errors.hpp"
#include "core/philox.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/h5.hpp"

namespace sp::tune {
namespace {

namespace fs = std::filesystem;

std::string list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// An HDF5 error (its stack follows on further lines) as one line of limited length.
std::string one_line(const std::string& text) {
  constexpr size_t kMax = 300;
  std::string out;
  for (const char c : text) {
    const bool space = std::isspace(static_cast<unsigned char>(c));
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out.size() > kMax ? out.substr(0, kMax) + "..." : out;
}

}  // namespace

io::CampaignReader open_campaign(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(path + ": no such file");
  if (fs::is_directory(path, ec)) throw InputError(path + ": is a directory, not a campaign file");
  try {
    return io::CampaignReader(path);
  } catch (const io::CampaignError& e) {
    throw InputError(e.what());  // "'PATH' is not a selfplay campaign file ..."
  } catch (const io::H5Error& e) {
    throw InputError(path + ": not a selfplay campaign file (" + one_line(e.what()) + ")");
  }
}

namespace {

// For each wanted feature, its column in the file; an InputError names the differences.
// The file's column of each wanted feature; kAbsent for one the file lacks and may lack.
constexpr size_t kAbsent = SIZE_MAX;
std::vector<size_t> column_map(const std::string& path, const std::vector<std::string>& in_file,
                               const std::vector<std::string>& wanted,
                               const std::vector<bool>& may_lack) {
  std::vector<std::string> only_file, only_wanted;
  size_t lacking = 0;
  for (const auto& n : in_file)
    if (std::find(wanted.begin(), wanted.end(), n) == wanted.end()) only_file.push_back(n);
  for (size_t j = 0; j < wanted.size(); ++j)
    if (std::find(in_file.begin(), in_file.end(), wanted[j]) == in_file.end()) {
      if (j < may_lack.size() && may_lack[j])
        ++lacking;
      else
        only_wanted.push_back(wanted[j]);
    }
  if (!only_file.empty() || !only_wanted.empty()) {
    std::string what = path + ": the features in /positions/features do not match the weights'";
    if (!only_file.empty()) what += "; only in the file: " + list(only_file);
    if (!only_wanted.empty()) what += "; only in the weights: " + list(only_wanted);
    throw InputError(what);
  }
  if (in_file.size() + lacking != wanted.size())
    throw InputError(path + ": a feature name appears twice in /positions/features");
  std::vector<size_t> column(wanted.size());
  for (size_t j = 0; j < wanted.size(); ++j) {
    const auto at = std::find(in_file.begin(), in_file.end(), wanted[j]);
    column[j] = at == in_file.end() ? kAbsent : static_cast<size_t>(at - in_file.begin());
  }
  return column;
}

}  // namespace

std::vector<std::string> expand_inputs(const TuneConfig& config) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  const auto add = [&](const std::string& path) {
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(path, ec);
    if (seen.insert(ec ? path : canonical.string()).second) out.push_back(path);
  };
  for (const InputPattern& input : config.data.inputs) {
    const std::string& pattern = input.pattern;
    if (pattern.find_first_of("*?[") == std::string::npos) {
      std::error_code ec;
      if (!fs::exists(pattern, ec))
        fail_at(config, input.at, "data.inputs", "no such file: " + excerpt(pattern));
      add(pattern);
      continue;
    }
    glob_t g{};
    const int rc = ::glob(pattern.c_str(), 0, nullptr, &g);
    std::vector<std::string> matches;
    if (rc == 0)
      for (size_t i = 0; i < g.gl_pathc; ++i) matches.emplace_back(g.gl_pathv[i]);
    ::globfree(&g);
    if (rc == GLOB_NOMATCH || (rc == 0 && matches.empty()))
      fail_at(config, input.at, "data.inputs", "'" + excerpt(pattern) + "' matches no file");
    if (rc != 0)
      fail_at(config, input.at, "data.inputs", "cannot expand '" + excerpt(pattern) + "'");
    for (const auto& m : matches) add(m);  // glob sorts its matches
  }
  return out;
}

DistinctFiles distinct_files(const std::vector<std::string>& files) {
  struct Kept {
    std::string path;
    struct stat st;
  };
  // Whether two files of the same size hold the same bytes; false when either cannot be read.
  const auto same_bytes = [](const std::string& a, const std::string& b) {
    std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
    if (!fa || !fb) return false;
    std::vector<char> ba(1 << 16), bb(1 << 16);
    for (;;) {
      fa.read(ba.data(), static_cast<std::streamsize>(ba.size()));
      fb.read(bb.data(), static_cast<std::streamsize>(bb.size()));
      if (fa.gcount() != fb.gcount() || fa.bad() || fb.bad()) return false;
      if (!std::equal(ba.begin(), ba.begin() + fa.gcount(), bb.begin())) return false;
      if (fa.gcount() == 0 || fa.eof()) return fa.eof() && fb.eof();
    }
  };
  DistinctFiles out;
  std::vector<Kept> kept;
  for (const std::string& path : files) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
      out.files.push_back(path);
      continue;
    }
    const Kept* twin = nullptr;
    bool same_inode = false;
    for (const Kept& k : kept) {
      same_inode = k.st.st_dev == st.st_dev && k.st.st_ino == st.st_ino;
      if (same_inode || (k.st.st_size == st.st_size && same_bytes(k.path, path))) {
        twin = &k;
        break;
      }
    }
    if (twin) {
      out.duplicates.push_back({path, twin->path, same_inode});
      continue;
    }
    kept.push_back({path, st});
    out.files.push_back(path);
  }
  return out;
}

InputsGame inputs_game(const std::vector<std::string>& files, const std::string& where) {
  InputsGame out;
  for (const std::string& path : files) {
    const std::string game = open_campaign(path).meta().game;
    if (game.empty()) throw InputError(path + ": the campaign file names no game");
    if (out.file.empty()) {
      out = {game, path};
    } else if (game != out.game) {
      throw InputError(where + ": the inputs hold different games: " + excerpt(out.file) +
                       " is a campaign of " + excerpt(out.game) + ", " + excerpt(path) + " of " +
                       excerpt(game) + "; tune one game at a time");
    }
  }
  return out;
}

uint64_t game_key(uint64_t campaign_seed, uint64_t game_id) {
  return splitmix64(splitmix64(campaign_seed) ^ game_id);
}

LoadedPositions load_positions(const std::vector<std::string>& files,
                               const std::vector<std::string>& feature_names,
                               uint32_t positions_per_game, uint64_t seed,
                               const std::vector<bool>& may_lack, const std::vector<size_t>& skip) {
  LoadedPositions out;
  const size_t f = feature_names.size();
  out.positions.num_features = f;
  for (const std::string& path : files) {
    const io::CampaignReader reader = open_campaign(path);
    const io::FileMeta& meta = reader.meta();
    const std::vector<size_t> column =
        column_map(path, meta.feature_names, feature_names, may_lack);
    const size_t width = meta.feature_names.size();
    std::unordered_set<uint64_t> finished;
    std::vector<io::PositionRow> rows;
    std::vector<float> x;
    try {
      for (const io::GameRow& g : reader.games())
        if (g.game_id != io::kNoGame) finished.insert(g.game_id);
      rows = reader.positions();
      x = reader.features();
    } catch (const std::runtime_error& e) {
      throw InputError(path + ": cannot read the positions (" + one_line(e.what()) + ")");
    }
    FileSummary summary{path};
    // Rows of each finished game, in file order.
    std::map<uint64_t, std::vector<size_t>> by_game;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (!finished.count(rows[i].game_id)) {
        ++summary.unfinished_rows;
        continue;
      }
      if (std::any_of(skip.begin(), skip.end(), [&](size_t j) {
            return column[j] != kAbsent && x[i * width + column[j]] != 0.0f;
          })) {
        ++summary.skipped_rows;
        continue;
      }
      by_game[rows[i].game_id].push_back(i);
    }
    std::vector<size_t> keep;
    for (auto& [game, idx] : by_game) {
      if (positions_per_game > 0 && idx.size() > positions_per_game) {
        const uint64_t k = splitmix64(game_key(meta.seed, game) ^ splitmix64(seed));
        const auto h = [&](size_t i) { return splitmix64(k ^ rows[i].ply); };
        std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return h(a) < h(b); });
        idx.resize(positions_per_game);
      }
      keep.insert(keep.end(), idx.begin(), idx.end());
      ++summary.games;
    }
    // In (game, ply) order, not file order: the fit's sums then do not depend on the order games
    // finished in, nor on how a campaign's games were spread over the rank files of an index.
    std::sort(keep.begin(), keep.end(), [&](size_t a, size_t b) {
      return std::tie(rows[a].game_id, rows[a].ply, a) < std::tie(rows[b].game_id, rows[b].ply, b);
    });
    Positions& p = out.positions;
    for (const size_t i : keep) {
      const io::PositionRow& r = rows[i];
      const auto where = [&] {
        return path + ": /positions row " + std::to_string(i) + " (game " +
               std::to_string(r.game_id) + ", ply " + std::to_string(r.ply) + ")";
      };
      if (!(r.result >= 0 && r.result <= 1))  // also NaN
        throw InputError(where() + ": result " + std::to_string(r.result) +
                         " is not in [0, 1] (1 win, 0 loss, 0.5 draw)");
      for (size_t j = 0; j < f; ++j) {
        const float v = column[j] == kAbsent ? 0.0f : x[i * width + column[j]];
        if (!std::isfinite(v))
          throw InputError(where() + ": feature " + feature_names[j] + " is " + std::to_string(v) +
                           ", not a finite number");
        p.features.push_back(v);
      }
      p.results.push_back(r.result);
      p.games.push_back(game_key(meta.seed, r.game_id));
    }
    summary.positions = keep.size();
    out.files.push_back(std::move(summary));
  }
  return out;
}

}  // namespace sp::tune
