// The house rule on games: outside games/<game>/, no host or CUDA file names a game's types,
// namespace or headers; host code reaches games only through the concepts, the game list
// (games/games.hpp) and the lists of host parts (games/hosts.hpp, games/lanes.hpp,
// games/array_playouts.hpp).
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// The games' folders: every directory of games/ but common/.
std::vector<std::string> game_folders() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(fs::path(SELFPLAY_SOURCE_DIR) / "games"))
    if (e.is_directory() && e.path().filename() != "common") out.push_back(e.path().filename());
  return out;
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
  for (const char* dir : {"host", "cuda"}) {
    const fs::path root = fs::path(SELFPLAY_SOURCE_DIR) / dir;
    if (!fs::exists(root)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      const std::string ext = e.path().extension();
      if (!e.is_regular_file() ||
          (ext != ".hpp" && ext != ".cpp" && ext != ".cu" && ext != ".cuh" && ext != ".txt"))
        continue;
      ++files;
      std::ifstream in(e.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n)
        for (const std::string& b : banned)
          EXPECT_EQ(line.find(b), std::string::npos)
              << e.path().lexically_relative(SELFPLAY_SOURCE_DIR).string() << ":" << n
              << " names a game ('" << b << "'): " << line;
    }
  }
  EXPECT_GT(files, 50);
}

}  // namespace
