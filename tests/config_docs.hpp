// Checks that a shipped config documents itself: it sets exactly the keys that `selfplay config
// --explain` writes for it (every key that applies, no other), and every key line has a comment.
#pragma once

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <set>
#include <sstream>
#include <string>

#include "tests/test_util.hpp"

namespace sp::test {

// Dotted paths of every scalar in a YAML map, e.g. engines.player0.type.
inline void leaf_paths(const YAML::Node& node, const std::string& prefix,
                       std::set<std::string>& out) {
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string path =
        prefix.empty() ? it->first.Scalar() : prefix + "." + it->first.Scalar();
    if (it->second.IsMap())
      leaf_paths(it->second, path, out);
    else
      out.insert(path);
  }
}

// path: the shipped config; explained: explain_*_config of what it loads to.
inline void expect_documented_config(const std::string& path, const std::string& explained) {
  std::set<std::string> shipped, declared;
  leaf_paths(YAML::LoadFile(path), "", shipped);
  leaf_paths(YAML::Load(explained), "", declared);
  EXPECT_EQ(shipped, declared) << path;
  std::istringstream lines(read_text(path));
  for (std::string line; std::getline(lines, line);) {
    if (line.find(": ") == std::string::npos || line[0] == '#') continue;
    EXPECT_NE(line.find(" # "), std::string::npos) << path << ": key without a comment: " << line;
  }
}

}  // namespace sp::test
