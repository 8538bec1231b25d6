// The layers, checked on the sources (docs/architecture.md):
//   core/   includes only core/ (and system and third-party headers);
//   games/  a game's folder games/<game>/ includes only core/ and its own folder (its tests/ may
//           include the host and tests/ too, but no other game); the list headers
//           directly in games/ include only core/, the game lists CMake writes and each other;
//   host/   includes games only through those list headers (games/games.hpp, hosts.hpp, lanes.hpp,
//           array_playouts.hpp), and no file names a game's types or namespace;
//   host/'s rooms (its folders with sources) include only the rooms kHostRooms declares for them,
//           and those point down the layers (base, engines, play, records, research, protocols,
//           app), so no folder loop can form.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
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

// The headers directly in games/: the list of games and the lists of host parts.
const std::set<std::string> kGameLists = {"games/games.hpp", "games/hosts.hpp", "games/lanes.hpp",
                                          "games/array_playouts.hpp"};

TEST(Layering, GameFoldersIncludeOnlyCoreAndThemselves) {
  const auto games = game_folders();
  ASSERT_GE(games.size(), 3u);
  for (const std::string& g : games) {
    int files = 0;
    const std::string tests = "games/" + g + "/tests/";
    for (const Include& inc : includes_under(kRoot / "games" / g, true, &files)) {
      if (starts_with(inc.file, tests)) {
        // The game's tests may use the host and the test helpers, but no other game.
        EXPECT_TRUE(!starts_with(inc.target, "games/") ||
                    starts_with(inc.target, "games/" + g + "/") || kGameLists.count(inc.target))
            << inc.file << ":" << inc.line << " includes \"" << inc.target << "\": the tests of "
            << g << " include no other game";
        continue;
      }
      EXPECT_TRUE(starts_with(inc.target, "core/") || starts_with(inc.target, "games/" + g + "/"))
          << inc.file << ":" << inc.line << " includes \"" << inc.target << "\": games/" << g
          << "/ includes only core/ and games/" << g << "/ (its tests/ excepted)";
    }
    EXPECT_GT(files, 5) << g;
  }
}

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

TEST(Layering, HostReachesGamesOnlyThroughTheLists) {
  int files = 0;
  for (const Include& inc : includes_under(kRoot / "host", true, &files)) {
    if (!starts_with(inc.target, "games/")) continue;
    EXPECT_TRUE(kGameLists.count(inc.target))
        << inc.file << ":" << inc.line << " includes \"" << inc.target
        << "\": host/ includes games only through games/games.hpp, hosts.hpp, lanes.hpp and "
           "array_playouts.hpp";
  }
  EXPECT_GT(files, 100);
}

TEST(Layering, HostAndCoreNameNoGame) {
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
  for (const char* dir : {"host", "core"}) {
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

// host/'s rooms by layer, bottom first, and the rooms each may include besides itself, core/ and
// the game lists (docs/architecture.md says the same in words). A room is a folder with sources.
struct Room {
  int layer;
  std::set<std::string> includes;
};
const std::map<std::string, Room> kHostRooms = {
    // 0 base: game-neutral services
    {"host/base/system", {0, {}}},
    {"host/base/stats", {0, {}}},
    {"host/base/mpi", {0, {}}},
    {"host/base/hdf5", {0, {"host/base/system"}}},
    // 1 engines: what searches
    {"host/engines/rollout", {1, {"host/base/system"}}},
    {"host/engines/cuda", {1, {"host/engines/rollout"}}},
    {"host/engines/eval", {1, {}}},
    {"host/engines/search", {1, {"host/engines/eval", "host/engines/rollout"}}},
    {"host/engines/book", {1, {"host/base/system"}}},
    // 2 play: running games
    {"host/play/config",
     {2, {"host/base/system", "host/engines/book", "host/engines/eval", "host/engines/search"}}},
    {"host/play/external", {2, {"host/base/system", "host/engines/search", "host/play/config"}}},
    {"host/play/selfplay",
     {2,
      {"host/base/hdf5", "host/base/stats", "host/base/system", "host/engines/book",
       "host/engines/eval", "host/engines/rollout", "host/engines/search", "host/play/config",
       "host/play/external"}}},
    {"host/play/terminal",
     {2,
      {"host/engines/rollout", "host/engines/search", "host/play/config", "host/play/selfplay"}}},
    {"host/play/ranks",
     {2, {"host/base/hdf5", "host/base/mpi", "host/base/system", "host/play/selfplay"}}},
    // 3 records: reading stored games back
    {"host/records",
     {3,
      {"host/base/hdf5", "host/base/stats", "host/base/system", "host/engines/book",
       "host/engines/search", "host/play/config", "host/play/selfplay"}}},
    {"host/records/viewer", {3, {}}},
    // 4 research: tuning and the loop
    {"host/research/tune",
     {4,
      {"host/base/hdf5", "host/base/system", "host/engines/eval", "host/play/config",
       "host/play/selfplay", "host/records"}}},
    {"host/research/improve",
     {4,
      {"host/base/hdf5", "host/base/mpi", "host/base/stats", "host/base/system",
       "host/engines/eval", "host/play/config", "host/play/ranks", "host/play/selfplay",
       "host/research/tune"}}},
    // 5 protocols: selfplay as an engine for other programs
    {"host/protocols",
     {5,
      {"host/base/system", "host/engines/rollout", "host/engines/search", "host/play/config",
       "host/play/external", "host/play/selfplay"}}},
    // 6 app: the command line
    {"host/app",
     {6,
      {"host/base/hdf5", "host/base/mpi", "host/base/system", "host/engines/book",
       "host/engines/rollout", "host/play/config", "host/play/ranks", "host/play/selfplay",
       "host/play/terminal", "host/protocols", "host/records", "host/research/improve",
       "host/research/tune"}}},
};

// The room of a path under host/: its deepest folder that is a room ("" when none is).
std::string room_of(const fs::path& path) {
  for (fs::path d = path.parent_path(); !d.empty(); d = d.parent_path())
    if (kHostRooms.count(d.string())) return d.string();
  return "";
}

// The table itself points down: a room includes rooms of lower layers, or of its own layer that
// come before it in a declared order (no two rooms of a layer include each other).
TEST(Layering, HostRoomTablePointsDown) {
  for (const auto& [room, r] : kHostRooms)
    for (const std::string& to : r.includes) {
      ASSERT_TRUE(kHostRooms.count(to)) << room << " lists " << to << ", which is no room";
      EXPECT_LE(kHostRooms.at(to).layer, r.layer)
          << room << " may include " << to << ", a higher layer";
      if (kHostRooms.at(to).layer != r.layer) continue;
      EXPECT_FALSE(kHostRooms.at(to).includes.count(room))
          << room << " and " << to << " may include each other";
    }
}

// Every folder of host/ with sources is a room of the table, and every table room exists.
TEST(Layering, EveryHostFolderIsARoom) {
  std::set<std::string> seen;
  for (const auto& e : fs::recursive_directory_iterator(kRoot / "host"))
    if (e.is_regular_file() && (is_source(e.path()) || e.path().extension() == ".js")) {
      const std::string dir = e.path().parent_path().lexically_relative(kRoot).string();
      EXPECT_TRUE(kHostRooms.count(dir))
          << dir << " holds sources but is no room of kHostRooms: declare its layer and includes";
      seen.insert(dir);
    }
  for (const auto& [room, r] : kHostRooms) EXPECT_TRUE(seen.count(room)) << room << " is gone";
}

// Each include between rooms is declared, and each declared include is used (the table is exact).
TEST(Layering, HostRoomsIncludeOnlyWhatTheTableDeclares) {
  int files = 0;
  std::map<std::string, std::set<std::string>> used;
  for (const Include& inc : includes_under(kRoot / "host", true, &files)) {
    if (!starts_with(inc.target, "host/")) continue;
    const std::string from = room_of(inc.file), to = room_of(inc.target);
    ASSERT_FALSE(from.empty()) << inc.file;
    EXPECT_FALSE(to.empty()) << inc.file << ":" << inc.line << " includes \"" << inc.target
                             << "\", which is in no room";
    if (to.empty() || to == from) continue;
    used[from].insert(to);
    EXPECT_TRUE(kHostRooms.at(from).includes.count(to))
        << inc.file << ":" << inc.line << " includes \"" << inc.target << "\": " << from
        << " may not include " << to << " (tests/layering_test.cpp, kHostRooms)";
  }
  for (const auto& [room, r] : kHostRooms)
    for (const std::string& to : r.includes)
      EXPECT_TRUE(used[room].count(to))
          << room << " is declared to include " << to << " but does not: remove it from kHostRooms";
  EXPECT_GT(files, 150);
}

}  // namespace
