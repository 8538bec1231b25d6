// The layers, checked on the sources (docs/architecture.md):
//   core/   includes only core/ (and system and third-party headers);
//   games/  a game's folder games/<game>/ includes only core/ and its own folder; the list headers
//           directly in games/ include only core/, the game lists CMake writes and each other;
//   host/, cuda/  include games only through those list headers (games/games.hpp, hosts.hpp,
//           lanes.hpp, array_playouts.hpp), and no file names a game's types or namespace.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kRoot = SELFPLAY_SOURCE_DIR;

// The games' folders: every directory of games/.
std::vector<std::string> game_folders() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(kRoot / "games"))
    if (e.is_directory()) out.push_back(e.path().filename());
  return out;
}

bool is_source(const fs::path& p) {
  const std::string ext = p.extension();
  return ext == ".hpp" || ext == ".cpp" || ext == ".cu" || ext == ".cuh" || ext == ".in";
}

struct Include {
  std::string file;  // relative to the source root
  int line = 0;
  std::string target;  // what `#include "..."` names
};

// Every quoted include of the sources under dir (recursively, or only its own files).
std::vector<Include> includes_under(const fs::path& dir, bool recursive, int* files) {
  std::vector<Include> out;
  std::vector<fs::path> paths;
  if (recursive) {
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file() && is_source(e.path())) paths.push_back(e.path());
  } else {
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file() && is_source(e.path())) paths.push_back(e.path());
  }
  for (const fs::path& p : paths) {
    ++*files;
    std::ifstream in(p);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      size_t i = line.find_first_not_of(" \t");
      if (i == std::string::npos || line.compare(i, 1, "#") != 0) continue;
      i = line.find_first_not_of(" \t", i + 1);
      if (i == std::string::npos || line.compare(i, 7, "include") != 0) continue;
      const size_t open = line.find('"', i);
      if (open == std::string::npos) continue;  // <system> headers
      const size_t close = line.find('"', open + 1);
      if (close == std::string::npos) continue;
      out.push_back(
          {p.lexically_relative(kRoot).string(), n, line.substr(open + 1, close - open - 1)});
    }
  }
  return out;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

TEST(Layering, CoreIncludesOnlyCore) {
  int files = 0;
  for (const Include& inc : includes_under(kRoot / "core", true, &files))
    EXPECT_TRUE(starts_with(inc.target, "core/")) << inc.file << ":" << inc.line << " includes \""
                                                  << inc.target << "\": core/ includes only core/";
  EXPECT_GT(files, 15);
}

TEST(Layering, GameFoldersIncludeOnlyCoreAndThemselves) {
  const auto games = game_folders();
  ASSERT_GE(games.size(), 3u);
  for (const std::string& g : games) {
    int files = 0;
    for (const Include& inc : includes_under(kRoot / "games" / g, true, &files))
      EXPECT_TRUE(starts_with(inc.target, "core/") || starts_with(inc.target, "games/" + g + "/"))
          << inc.file << ":" << inc.line << " includes \"" << inc.target << "\": games/" << g
          << "/ includes only core/ and games/" << g << "/";
    EXPECT_GT(files, 5) << g;
  }
}

// The headers directly in games/: the list of games and the lists of host parts.
const std::set<std::string> kGameLists = {"games/games.hpp", "games/hosts.hpp", "games/lanes.hpp",
                                          "games/array_playouts.hpp"};

TEST(Layering, GameListsIncludeCoreAndTheGeneratedLists) {
  int files = 0;
  for (const Include& inc : includes_under(kRoot / "games", false, &files)) {
    const bool generated =
        inc.target == "games/game_list.hpp" || inc.target == "games/host_list.hpp" ||
        inc.target == "games/lane_list.hpp" || inc.target == "games/array_playout_list.hpp";
    EXPECT_TRUE(starts_with(inc.target, "core/") || generated || kGameLists.count(inc.target))
        << inc.file << ":" << inc.line << " includes \"" << inc.target << "\"";
  }
  EXPECT_EQ(files, static_cast<int>(kGameLists.size()));
}

TEST(Layering, HostAndCudaReachGamesOnlyThroughTheLists) {
  int files = 0;
  for (const char* dir : {"host", "cuda"})
    for (const Include& inc : includes_under(kRoot / dir, true, &files))
      if (starts_with(inc.target, "games/"))
        EXPECT_TRUE(kGameLists.count(inc.target))
            << inc.file << ":" << inc.line << " includes \"" << inc.target
            << "\": host/ and cuda/ include games only through games/games.hpp, hosts.hpp, "
               "lanes.hpp and array_playouts.hpp";
  EXPECT_GT(files, 100);
}

TEST(Layering, HostAndCudaNameNoGame) {
  const auto games = game_folders();
  ASSERT_GE(games.size(), 3u);
  std::vector<std::string> banned;
  for (const std::string& g : games) {
    std::string type = g + "Game";
    type[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(type[0])));
    banned.push_back(type);            // EwnGame
    banned.push_back(" " + g + "::");  // ewn::State
    banned.push_back("(" + g + "::");
    banned.push_back("<" + g + "::");
    banned.push_back("games/" + g + "/");  // #include "games/ewn/..."
  }
  int files = 0;
  for (const char* dir : {"host", "cuda", "core"}) {
    const fs::path root = kRoot / dir;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      const std::string ext = e.path().extension();
      if (!e.is_regular_file() || (!is_source(e.path()) && ext != ".txt")) continue;
      ++files;
      std::ifstream in(e.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n)
        for (const std::string& b : banned)
          EXPECT_EQ(line.find(b), std::string::npos)
              << e.path().lexically_relative(kRoot).string() << ":" << n << " names a game ('" << b
              << "'): " << line;
    }
  }
  EXPECT_GT(files, 120);
}

}  // namespace
