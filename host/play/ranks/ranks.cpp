#include "host/play/ranks/ranks.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/errors.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/campaign_index.hpp"
#include "host/base/mpi/comm.hpp"

namespace sp::selfplay {
namespace {

namespace fs = std::filesystem;

std::string extension_of(const fs::path& p) {
  return p.has_extension() ? p.extension().string() : std::string(".h5");
}

}  // namespace

std::string rank_file(const std::string& path, int rank) {
  const fs::path p(path);
  const std::string name = p.stem().string() + ".rank" + std::to_string(rank) + extension_of(p);
  return (p.parent_path() / name).string();
}

std::vector<std::string> rank_files(const std::string& path) {
  const fs::path p(path);
  const fs::path folder = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  const std::string prefix = p.stem().string() + ".rank", suffix = extension_of(p);
  std::map<int, std::string> found;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) ||
        !name.ends_with(suffix))
      continue;
    const std::string digits =
        name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (digits.size() > 6 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    const int k = std::stoi(digits);
    if (rank_file(path, k) == (p.parent_path() / name).string()) found[k] = rank_file(path, k);
  }
  std::vector<std::string> out;
  for (const auto& [k, file] : found) out.push_back(file);
  return out;
}

bool ranked_run(const std::string& path) { return dist::size() > 1 || !rank_files(path).empty(); }

FileLock claim_index(const std::string& path, bool resume, const std::string& what) {
  io::check_campaign_path(path);
  if (const fs::path parent = fs::path(path).parent_path(); !parent.empty())
    fs::create_directories(parent);
  FileLock lock = io::lock_for_writing(path);
  const std::vector<std::string> parts = rank_files(path);
  const bool exists = fs::exists(path) || !parts.empty();
  if (resume && !exists)
    throw InputError("--resume: output " + path + " does not exist (nor do its rank files " +
                     rank_file(path, 0) + ", ...)");
  // A file written by one process is not an index: overwriting it with one would lose its games.
  if (resume && parts.empty())
    throw InputError("--resume: " + path +
                     " was written by one process: continue it with one "
                     "process (without mpirun), or choose another --out");
  if (!resume && exists)
    throw InputError("output " + path +
                     (parts.empty() ? "" : " or its rank files (" + parts[0] + ", ...)") +
                     " exist: continue the " + what + " with --resume, or choose another --out");
  return lock;
}

void write_index(FileLock index_lock, const std::string& path,
                 const std::vector<std::string>& parts) {
  index_lock.release();  // write_campaign_index takes the writer's lock itself
  io::write_campaign_index(path, parts);
}

std::string ranks_text(const std::vector<int>& ranks) {
  std::string s = ranks.size() == 1 ? "rank " : "ranks ";
  for (size_t i = 0; i < ranks.size(); ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  return s;
}

}  // namespace sp::selfplay
