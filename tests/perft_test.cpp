#include <gtest/gtest.h>

#include "games/ewn/notation.hpp"
#include "games/ewn/perft.hpp"

namespace sp::ewn {
namespace {

// Reference counts from ../shared/reference/ewn.md.
struct PerftCase {
  const char* position;
  uint64_t nodes[6];
};
constexpr PerftCase kCases[] = {
    {"ABC2/DE3/F3f/3ed/2cba 0 1", {3, 54, 1134, 21570, 460914, 9155640}},
    {"ABC2/DE3/F3f/3ed/2cba 0 6", {3, 54, 972, 18555, 350291, 6999679}},
};

TEST(Perft, ReferenceTableThroughLibrary) {
  for (const auto& c : kCases) {
    const State s = parse_position(c.position);
    for (int d = 1; d <= 6; ++d) EXPECT_EQ(perft(s, Rules{}, d), c.nodes[d - 1]) << c.position << " depth " << d;
  }
}

TEST(Perft, DivideSumsToPerft) {
  const State s = parse_position(kCases[0].position);
  uint64_t total = 0;
  const auto divide = perft_divide(s, Rules{}, 4);
  ASSERT_EQ(divide.size(), 3u);
  for (const auto& [move, nodes] : divide) total += nodes;
  EXPECT_EQ(total, 21570u);
}

}  // namespace
}  // namespace sp::ewn
